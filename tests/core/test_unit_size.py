"""No function over 80 lines and no class over 300 anywhere in the package (issue 19, item 5),
and no module over 1,000 (issue 32, item 2): a long unit is one a reader cannot hold, and one
nobody can name; a long module holds several things and grows, since nothing else holds its size.
The exceptions are named here, each with its reason; the units others are still splitting are a
debt that may only shrink."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "dosverify"
LIMITS = {"function": 80, "class": 300}
MODULE_LIMIT = 1000

#: Units long for good, each with its reason (a flat table, a Lark transformer's callbacks).
EXEMPT = {
    "games/dos/notation/larkpath.py::_Builder": "a Lark transformer: one short callback per grammar sentence",
    "games/dos/corpus.py::_i_entries": "a flat table of corpus cases: (name, fixture, verdict per ruleset)",
}

#: Modules long for good (over MODULE_LIMIT lines), each with its reason: none.
MODULE_EXEMPT: dict[str, str] = {}

#: The units still owed a split: none since 2026-12-01 (28 before the packs' refactoring). The list
#: stays so that a unit that must wait for its split is named with its length, and may only shrink.
STILL_OWED: dict[str, int] = {}


def _units(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, str, int]]:
    """(qualified name, function or class, lines from its `def`/`class` to its last line), nested
    units included (a method is `Class.method`, a closure `outer.inner`)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = prefix + node.name
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            yield name, kind, (node.end_lineno or node.lineno) - node.lineno + 1
            yield from _units(node, name + ".")
        else:
            yield from _units(node, prefix)


def _long_units() -> dict[str, tuple[str, int]]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        for name, kind, lines in _units(ast.parse(path.read_text(encoding="utf-8"))):
            if lines > LIMITS[kind]:
                out[f"{rel}::{name}"] = (kind, lines)
    return out


def test_the_measure_sees_a_long_unit():
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    units = dict((n, (k, lines)) for n, k, lines in _units(ast.parse(f"class C:\n  def f():\n{body}\n")))
    assert units == {"C": ("class", 83), "C.f": ("function", 82)}


def test_no_function_over_80_lines_and_no_class_over_300():
    long = _long_units()
    unnamed = {u: v for u, v in long.items() if u not in EXEMPT and u not in STILL_OWED}
    assert not unnamed, "split these, or name them in EXEMPT with the reason:\n" + "\n".join(
        f"  {u}: {kind} of {lines} lines" for u, (kind, lines) in sorted(unnamed.items())
    )


def test_the_debt_only_shrinks():
    long = _long_units()
    grown = {u: (long[u][1], n) for u, n in STILL_OWED.items() if u in long and long[u][1] > n}
    assert not grown, "longer than STILL_OWED allows:\n" + "\n".join(
        f"  {u}: {now} lines, owed {n}" for u, (now, n) in sorted(grown.items())
    )
    paid = sorted(u for u in STILL_OWED if u not in long)
    assert not paid, "no longer over the limit (or gone): remove from STILL_OWED:\n  " + "\n  ".join(paid)


def test_every_exemption_is_still_needed():
    long = _long_units()
    assert not [u for u in EXEMPT if u not in long], "exempt units that are short now (or gone): remove them"


def _long_modules(root: Path = PKG) -> dict[str, int]:
    """The modules under `root` over MODULE_LIMIT lines, with their lengths."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MODULE_LIMIT:
            out[path.relative_to(root).as_posix()] = n
    return out


def test_the_measure_sees_a_long_module(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MODULE_LIMIT + 1))
    (tmp_path / "short.py").write_text("x = 1\n" * MODULE_LIMIT)
    assert _long_modules(tmp_path) == {"pkg/long.py": MODULE_LIMIT + 1}


def test_no_module_over_1000_lines():
    long = {m: n for m, n in _long_modules().items() if m not in MODULE_EXEMPT}
    assert not long, "split these, or name them in MODULE_EXEMPT with the reason:\n" + "\n".join(
        f"  {m}: {n} lines" for m, n in sorted(long.items())
    )


def test_every_module_exemption_is_still_needed():
    long = _long_modules()
    assert not [m for m in MODULE_EXEMPT if m not in long], "exempt modules that are short now (or gone): remove them"
