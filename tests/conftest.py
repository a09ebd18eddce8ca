"""The suite's layout: core/ (what knows no game), games/ (the contract every pack passes), and a
folder per game. tests/ itself is on sys.path for the helpers shared by all (liveserver, tiers).

The tiers (tests/tiers.py): `pytest` runs the quick tier, `pytest --tier full` every test at full
counts (CI). A heavy test is marked `slow`, `browser` or `postgres` where it is written, or here
by its file when the whole file is heavy (HEAVY_FILES, each with its reason)."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiers import FULL, HEAVY_MARKERS, QUICK

#: whole files that a quick run leaves out: path under tests/ -> (marker, why)
HEAVY_FILES = {
    "core/test_fuzz.py": ("slow", "atheris runs of every fuzz target"),
    "core/test_service_schema.py": ("slow", "schemathesis over every operation of the OpenAPI document"),
    "core/test_service_limits.py": ("slow", "live servers pushed to each of their limits"),
    "core/test_service_live.py": ("slow", "live servers with several workers"),
    "core/test_hostile_clients.py": ("slow", "live servers under hostile clients"),
    "core/test_client_connections.py": ("slow", "a live server under a flood of connections"),
    "core/test_store_kill.py": ("slow", "a store's writer killed mid-write, again and again"),
    "core/test_install.py": ("slow", "builds the wheel and installs it three ways"),
    "core/test_browser.py": ("browser", "the page in a real Chromium"),
    "uno_duo/test_browser_uno.py": ("browser", "the page in a real Chromium"),
    "core/test_store_report.py": ("browser", "the hand-out report in a real Chromium"),
    "packs/test_browser_moves.py": ("browser", "the replay's legal next lines in a real Chromium"),
    "dos/test_profile.py": ("slow", "option inference over generated engine programs"),
    "uno_duo/test_profile.py": ("slow", "option inference over generated games"),
    "dos/test_auto.py": ("slow", "`--ruleset auto` over generated programs, CLI and service"),
    "uno_duo/test_thousand_games.py": ("slow", "a thousand generated games in every rendering"),
    "uno_duo/test_corpus.py": ("slow", "the UNO Duo conformance corpus built again and run through every surface"),
    "core/test_dask.py": ("slow", "real dask LocalClusters, one started per test"),
    "uno_duo/test_mixed_dask.py": ("slow", "real dask LocalClusters over both games' logs"),
    "core/test_store_schema.py": ("slow", "schemathesis over the event routes, and its stateful run"),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier",
        choices=(QUICK, FULL),
        default=os.environ.get("DOSVERIFY_TIER") or QUICK,
        help="quick (default: the contributor's loop, within 5 minutes) or full (every test at full counts, as CI)",
    )


def pytest_configure(config: pytest.Config) -> None:
    os.environ["DOSVERIFY_TIER"] = config.getoption("--tier")  # read by tiers.count as the modules import
    for name, why in HEAVY_MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {why} (left out of the quick tier)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick tier does not even import a heavy file, whose tests it would leave out: collecting
    costs too (schemathesis builds its cases from the OpenAPI document then, about 16 s of each
    worker's start)."""
    if config.getoption("--tier") == FULL or config.getoption("markexpr"):
        return None
    try:
        rel = collection_path.resolve().relative_to(Path(__file__).resolve().parent).as_posix()
    except ValueError:
        return None
    return True if rel in HEAVY_FILES else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).resolve().parent
    for item in items:
        try:
            rel = Path(item.fspath).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        if rel in HEAVY_FILES:
            item.add_marker(HEAVY_FILES[rel][0])
    if config.getoption("--tier") == FULL or config.getoption("markexpr"):
        return  # every test, or the ones `-m` names
    keep, left = [], []
    for item in items:
        (left if any(item.get_closest_marker(m) for m in HEAVY_MARKERS) else keep).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = keep


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("--tier") == QUICK and not config.getoption("markexpr"):
        terminalreporter.write_line(
            f"quick tier: the heavy tests ({', '.join(HEAVY_MARKERS)}) were left out and the generated-game "
            "properties ran smaller; `pytest --tier full` runs every test at full counts, as CI does"
        )
