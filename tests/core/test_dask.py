"""`dosverify check --dask`: on a LocalCluster of 2 worker processes, its output is the plain
`check`'s, byte for byte (JSON Lines and text, with the summary, an unreadable file's error and
the exit status), in input order; `--unordered` prints the same lines in any order."""

from __future__ import annotations

import glob
import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from dosverify.cli import main

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "fixtures" / "dos" / "rules"


@pytest.fixture(scope="module")
def scheduler():
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        yield cluster.scheduler_address


def shell(inputs: list[str]) -> list[str]:
    """The arguments as a shell passes them to the plain CLI: globs expanded."""
    return [m for i in inputs for m in (sorted(glob.glob(i)) if glob.has_magic(i) else [i])]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """Every rule fixture (legal, illegal, malformed; text and JSON), a glob, and a missing file."""
    missing = str(tmp_path_factory.mktemp("none") / "missing.log")
    return [str(RULES), missing, str(ROOT / "fixtures" / "dos" / "notation" / "*.log")]


@pytest.mark.parametrize(
    "fmt",
    [
        ["--format", "json"],
        ["--format", "text", "--color", "never"],
        ["-q"],
        ["--select", "match", "--warnings-as-errors", "--max-errors", "1", "--statistics"],
    ],
)
def test_dask_output_equals_the_plain_cli(scheduler, inputs, fmt):
    plain = run(["check", *fmt, *shell(inputs)])
    dask = run(["check", *fmt, "--dask", scheduler, *inputs])
    assert dask == plain
    assert plain[0] == 2 and "missing.log" in plain[1] + plain[2]  # malformed fixtures, and one file is missing
    assert len(plain[1].splitlines()) > 100


def test_dask_unordered_prints_the_same_lines(scheduler, inputs):
    plain = run(["check", "--format", "json", *shell(inputs)])
    dask = run(["check", "--format", "json", "--dask", scheduler, "--unordered", *inputs])
    assert dask[0] == plain[0]
    assert sorted(dask[1].splitlines()) == sorted(plain[1].splitlines())


def test_dask_local_cluster_from_the_command_line(tmp_path):
    cmd = [sys.executable, "-m", "dosverify", "check", "--format", "json"]
    files = [str(ROOT / "fixtures" / "dos" / "notation")]
    plain = subprocess.run(cmd + files, cwd=ROOT, capture_output=True, timeout=120)
    dask = subprocess.run(cmd + ["--dask", "local:2"] + files, cwd=ROOT, capture_output=True, timeout=300)
    assert (dask.returncode, dask.stdout) == (plain.returncode, plain.stdout), dask.stderr.decode()[-2000:]


@pytest.mark.parametrize(
    "address, needle", [("local:0", "local:N"), ("local:x", "local:N"), ("tcp://127.0.0.1:9", "cannot reach")]
)
def test_dask_bad_address_is_one_line(address, needle, monkeypatch):
    monkeypatch.setattr("dosverify.cluster.CONNECT_TIMEOUT", "2s")
    status, out, err = run(["check", "--dask", address, str(ROOT / "fixtures" / "dos" / "notation" / "example.log")])
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err


def test_dask_refuses_standard_input():
    status, out, err = run(["check", "--dask", "local:1", "-"])
    assert status == 2 and "standard input" in err
