"""Fuzzing in the test suite: every regression input found by fuzzing (fuzz/regressions/) goes
through its target again, and each target gets a short coverage-guided atheris run (about a
minute in all) seeded with the fixtures. The long run is documented in fuzz/README.md."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"
sys.path.insert(0, str(FUZZ))
import targets  # noqa: E402

REGRESSIONS = sorted((FUZZ / "regressions").glob("*.bin"))
SHORT_RUN_SECONDS = {"text": 15, "json": 10, "check": 20, "service": 15, "views": 15, "uno": 15}


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_input(path):
    target = path.name.split("-", 1)[0]
    targets.TARGETS[target](path.read_bytes())


def test_every_target_has_a_regression_input_or_none_were_found():
    assert {p.name.split("-", 1)[0] for p in REGRESSIONS} <= set(targets.TARGETS)


@pytest.mark.parametrize("target", list(SHORT_RUN_SECONDS))
def test_short_fuzz_run(target, tmp_path):
    pytest.importorskip("atheris")
    env = dict(os.environ, DOSVERIFY_FUZZ_OUT=str(tmp_path))
    env.pop("DOSVERIFY_MAX_LOG_BYTES", None)
    r = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "run.py"),
            target,
            f"-max_total_time={SHORT_RUN_SECONDS[target]}",
            "-rss_limit_mb=2048",
            "-timeout=30",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SHORT_RUN_SECONDS[target] + 240,
    )
    crashes = list(tmp_path.glob(f"{target}-*"))
    assert r.returncode == 0 and not crashes, (
        f"the fuzzer found an input that breaks `{target}` (saved in {crashes}); make it a regression input "
        f"in fuzz/regressions/{target}-NAME.bin and fix it:\n{r.stderr[-3000:]}"
    )
    assert "Done" in r.stderr, r.stderr[-2000:]


def test_every_seed_fits_the_default_max_len():
    """The long runs cap inputs at fuzz/run.py's MAX_LEN: every seed must reach the fuzzer whole
    (the service target's seeds carry one more byte, the endpoint)."""
    import importlib.util

    # by path, under a name of its own: bench/run.py is also a module `run` on some test's sys.path
    spec = importlib.util.spec_from_file_location("fuzz_run", FUZZ / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    assert max(p.stat().st_size for p in run.seeds()) + 1 <= run.MAX_LEN
