"""The suite's tiers. `quick` (the README's default: a contributor's loop, within 5 minutes on a
2-core machine) runs every test but the heavy ones, and the generated-game properties with smaller
counts; `full` (`pytest --tier full`, what CI runs) runs everything at full counts. A count's own
environment variable (DOSVERIFY_GAMES, ...) wins over both."""

from __future__ import annotations

import os

QUICK, FULL = "quick", "full"

#: markers a quick run leaves out (each also selectable alone: `pytest --tier full -m browser`)
HEAVY_MARKERS = {
    "slow": "a heavy sweep, a long property run, a fuzz run or a live server pushed to its limits",
    "browser": "drives a real Chromium (Playwright, Debian's chromium)",
    "postgres": "runs against a real PostgreSQL server (Debian's postgresql)",
}


def tier() -> str:
    """The tier of this run (conftest sets DOSVERIFY_TIER from `--tier` before the tests import)."""
    return os.environ.get("DOSVERIFY_TIER", QUICK)


def count(env: str, full: int, quick: int) -> int:
    """How many (games, mutants, ...) a property runs: `env` when set, else by the tier."""
    if os.environ.get(env):
        return int(os.environ[env])
    return full if tier() == FULL else quick
