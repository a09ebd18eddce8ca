"""The house's shape, held by a test: the import graph of the package has no cycle, nothing
imports a layer above its own, the core imports no game module, and a game imports no other game.

Every import counts, at the top of a module or inside a function: a function-level import is
still a dependency, only a later one."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "dosverify"

#: Layers, lowest first: a module may import its own layer and those below, never above.
#: The games sit above the report and below the entry points (api, runner, service, cli).
LAYERS: list[tuple[str, ...]] = [
    (
        "hints",
        "argsuggest",
        "resources",
        "clientaddr",
        "settings",
        "config",
        "inputs",
        "terminal",
        "registry",
        "sniffing",
    ),
    ("spec",),
    ("findings",),
    ("model", "report", "jsondoc", "replayview"),
    # the packs (a game's modules are games.<name>.*), the data path they plug into, and the move API's
    # values and what a pack supplies
    ("games", "overrides", "pipeline", "profiling", "formatting", "moves.model", "moves.protocol"),
    ("api", "moves"),  # the move API's table judges with api.check
    ("formats",),
    (
        "runner",
        "pool",
        "cluster",
        "pytest_plugin",
        "store",
        "envs",
    ),  # envs: the PettingZoo environments, on the move API
    ("service", "webui"),
    ("cli", "__main__"),
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    base = PKG.parent / dotted.replace(".", "/")
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _imports(path: Path) -> set[str]:
    """The dosverify modules `path` imports (relative imports resolved; `from X import name` counts
    X.name when that is a module)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "dosverify")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "dosverify":
                continue
            modules = {f"{target}.{a.name}" for a in node.names if _is_module(f"{target}.{a.name}")}
            out.update(modules)
            if len(modules) < len(node.names):  # some name is the package's own, not a submodule
                out.add(target)
    out.discard(name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    return {m: {t for t in _imports(p) if t in modules} for m, p in modules.items()}


def _game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def _layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top == "__init__":
        return -1  # the package itself (its version) is below everything
    sub = ".".join(parts[1:3])  # a module of a package split across layers (`moves.model`) first
    for name in (sub, top):
        for i, layer in enumerate(LAYERS):
            if name in layer:
                return i
    raise AssertionError(f"{module} is in no layer: add its top-level name to LAYERS")


def test_every_module_has_a_layer():
    for module in _graph():
        _layer(module)


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def test_nothing_imports_upward():
    up = []
    for module, targets in _graph().items():
        for t in targets:
            if _game_of(module) is not None and _game_of(t) == _game_of(module):
                continue  # inside one game, its own modules
            if _game_of(t) is None and _layer(t) > _layer(module):
                up.append(f"{module} -> {t}")
    assert not up, "imports that point up a layer:\n" + "\n".join(sorted(up))


def test_the_core_imports_no_game_and_no_game_another():
    wrong = []
    for module, targets in _graph().items():
        for t in targets:
            game = _game_of(t)
            if game is not None and _game_of(module) != game:
                wrong.append(f"{module} -> {t}")
    assert not wrong, "game modules are reached only through dosverify.games.find_game:\n" + "\n".join(sorted(wrong))


def test_every_game_folder_is_registered_by_entry_point():
    """Each game folder of the package is a pack the distribution registers (pyproject.toml's
    `dosverify.games` entry points); packs of other distributions may be registered too."""
    from dosverify.games import REGISTRY

    folders = {p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").is_file()}
    ours = {r.value.split(":")[0].rsplit(".", 1)[1] for r in REGISTRY.values() if r.dist == "dosverify"}
    assert ours == folders
