"""A built wheel carries what the package reads at run time: each game's spec, grammar and
conformance corpus, inside the game's own package (dosverify/games/<game>/_data/, read through
importlib.resources), and nothing in a shared data folder of the core."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_carries_spec_grammar_and_corpus(tmp_path: Path) -> None:
    pytest.importorskip("setuptools")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    wheel = next(tmp_path.glob("dosverify-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not any(".data/" in n for n in names)  # nothing outside the package (no share/)
    assert not any(n.startswith("dosverify/_data/") for n in names)  # no shared data folder in the core
    for game, package in (("dos", "dos"), ("uno-duo", "uno_duo")):
        share = f"dosverify/games/{package}/_data"
        for rel in (
            "spec/spec.toml",
            "spec/deck.toml",
            "spec/options.toml",
            "spec/log.schema.json",
            "spec/rulesets/official.toml",
            f"grammars/{game}.lark",
            "conformance/README.txt",
            "spec/example.log",  # its example and notation: the page's example button and link
            "spec/notation.md",
        ):
            assert f"{share}/{rel}" in names, (game, rel)
        rules = {p.name for p in (ROOT / "spec" / game / "rules").glob("*.toml")}
        assert rules == {n.rsplit("/", 1)[1] for n in names if n.startswith(f"{share}/spec/rules/")}
        corpus = {p.name for p in (ROOT / "fixtures" / game / "conformance").iterdir() if p.is_file()}
        assert corpus == {n.rsplit("/", 1)[1] for n in names if n.startswith(f"{share}/conformance/")}
    assert "dosverify/games/dos/referee/__init__.py" in names and "dosverify/cli/__init__.py" in names
    # the web page and the vendored docs assets: `dosverify serve` works offline when installed
    static = {p.relative_to(ROOT).as_posix() for p in (ROOT / "dosverify" / "static").rglob("*") if p.is_file()}
    assert "dosverify/static/index.html" in static and "dosverify/static/vendor/redoc/LICENSE" in static
    assert static <= names, sorted(static - names)
    # each game's page script, read from its pack's package (GamePack.page_script)
    scripts = {p.relative_to(ROOT).as_posix() for p in (ROOT / "dosverify" / "games").glob("*/static/*.js")}
    assert {"dosverify/games/dos/static/replay.js", "dosverify/games/uno_duo/static/replay.js"} <= scripts
    assert scripts <= names, sorted(scripts - names)


def test_every_subpackage_is_listed_for_the_build():
    """`packages` in pyproject.toml is an explicit list (the data packages are mapped by package-dir):
    a new subpackage left out of it works from a checkout and breaks every install."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "dosverify").rglob("__init__.py")}
    assert found <= listed, f"subpackages missing from [tool.setuptools] packages: {sorted(found - listed)}"
