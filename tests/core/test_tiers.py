"""The tiers are what the README says: the files a quick run leaves out exist (a renamed heavy file
would silently slow every contributor's loop), the counts follow the tier, and CI runs every tier
with the README's own test command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import conftest
import pytest
import tiers

ROOT = Path(__file__).resolve().parents[2]


def test_every_heavy_file_exists_and_names_a_marker():
    for rel, (marker, why) in conftest.HEAVY_FILES.items():
        assert (ROOT / "tests" / rel).is_file(), rel
        assert marker in tiers.HEAVY_MARKERS and why


def test_counts_follow_the_tier_and_an_explicit_count_wins(monkeypatch):
    monkeypatch.delenv("DOSVERIFY_X", raising=False)
    monkeypatch.setenv("DOSVERIFY_TIER", "quick")
    assert tiers.count("DOSVERIFY_X", 100, 10) == 10
    monkeypatch.setenv("DOSVERIFY_TIER", "full")
    assert tiers.count("DOSVERIFY_X", 100, 10) == 100
    monkeypatch.setenv("DOSVERIFY_X", "7")
    assert tiers.count("DOSVERIFY_X", 100, 10) == 7


def test_ci_runs_the_readmes_test_command_over_every_tier():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [ln for ln in readme.split("```", 2)[1].splitlines() if "pytest" in ln and not ln.startswith("#")]
    assert commands and commands[0].rstrip().endswith(".venv/bin/python -m pytest")
    assert re.search(r"^\.venv/bin/python -m pytest --tier full$", ci, re.M)
    assert "--tier full" in readme  # and the README says how to run every tier


@pytest.mark.slow  # two collections of the suite in subprocesses
def test_a_quick_collection_leaves_the_heavy_tests_out():
    """Collected for real (one small heavy file and one light one): quick deselects, full keeps."""
    files = ["tests/core/test_install.py", "tests/core/test_tiers.py"]

    def collected(*extra: str) -> str:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "--collect-only",
                "-q",
                "-n",
                "0",
                "-p",
                "no:cacheprovider",
                *extra,
                *files,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        return r.stdout

    quick, full = collected("--tier", "quick"), collected("--tier", "full")  # this run's tier is in the environment
    assert "test_install.py" not in quick and "test_tiers.py" in quick
    assert "test_install.py" in full and "test_tiers.py" in full
