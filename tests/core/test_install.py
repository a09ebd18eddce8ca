"""The built wheel works from every kind of install: a plain `pip install` into a venv, `--user`
(a temporary PYTHONUSERBASE) and `--target`, with every subcommand run from outside the checkout.

Offline and fast: the wheel is installed with `--no-deps --no-index`, and its dependencies come
from the test environment's site-packages (a `.pth` line, which does not run the checkout's
editable-install hook, so the installed copy is the one imported).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "fixtures/dos/notation/example.log"
ILLEGAL = ROOT / "fixtures/dos/digest/s1-example1-illegal.log"


def _venv(path: Path, *, system_site: bool = False) -> Path:
    args = [sys.executable, "-m", "venv", "--without-pip", str(path)]
    subprocess.run(args + (["--system-site-packages"] if system_site else []), check=True, timeout=120)
    py = path / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "_dosverify_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return py


def _pip(py: Path, *args: str, env: dict | None = None) -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools")
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return next(out.glob("dosverify-*.whl"))


def _install(kind: str, wheel: Path, tmp: Path) -> tuple[list[str], dict, Path, Path]:
    """Install the wheel one way; returns the command that runs `dosverify`, its environment,
    the folder the package went to and the interpreter."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "DOSVERIFY"))}
    env.update(HOME=str(tmp / "home"), XDG_CACHE_HOME=str(tmp / "cache"), NO_COLOR="1")
    if kind == "plain":
        py = _venv(tmp / "venv")
        _pip(py, str(wheel))
        return [str(tmp / "venv/bin/dosverify")], env, tmp / "venv", py
    if kind == "user":
        py = _venv(tmp / "venv", system_site=True)  # a venv without system site-packages hides the user's
        env["PYTHONUSERBASE"] = str(tmp / "userbase")
        _pip(py, "--user", str(wheel), env=env)
        return [str(tmp / "userbase/bin/dosverify")], env, tmp / "userbase", py
    py = _venv(tmp / "venv")
    _pip(py, "--target", str(tmp / "target"), str(wheel))
    env["PYTHONPATH"] = str(tmp / "target")
    return [str(tmp / "target/bin/dosverify")], env, tmp / "target", py


def _tree(d: Path) -> set[str]:
    return {str(p.relative_to(d)) for p in d.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("kind", ["plain", "user", "target"])
def test_every_subcommand_from_an_install(kind: str, wheel: Path, tmp_path: Path) -> None:
    cmd, env, where, py = _install(kind, wheel, tmp_path)
    work = tmp_path / "work"
    work.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=work, env=env, timeout=120)

    r = run("--version")
    assert r.returncode == 0 and "rules specification" in r.stdout
    # the installed copy is the one running, not the checkout
    r = subprocess.run(
        [str(py), "-c", "from dosverify.games import find_game; print(find_game('uno-duo').data_path('grammars'))"],
        capture_output=True,
        text=True,
        cwd=work,
        env=env,
    )
    assert r.stdout.startswith(str(where)) and "_data" in r.stdout, r.stdout + r.stderr
    before = _tree(where)

    assert run("check", str(LEGAL)).returncode == 0
    r = run("check", "--format", "json", str(ILLEGAL))
    assert r.returncode == 1 and json.loads(r.stdout)["verdict"] == "illegal", r.stderr
    r = run("explain", "match.double")
    assert r.returncode == 0 and "match.double" in r.stdout and "Fixtures" not in r.stdout
    for args in (("rules",), ("rulesets",), ("schema",)):
        r = run(*args)
        assert r.returncode == 0 and r.stdout and not r.stderr, (args, r.stderr)
    r = run("convert", "--to", "json", str(LEGAL))
    assert r.returncode == 0 and json.loads(r.stdout)["players"], r.stderr
    r = run("simulate", "--seed", "3", "-o", str(work / "sim.log"))
    assert r.returncode == 0 and run("check", "-q", str(work / "sim.log")).returncode == 0
    r = run("replay", "--format", "json", "--round", "1", "--turn", "1", str(LEGAL))
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[0])["player"] == "bob", r.stderr
    (work / "g.log").write_bytes(LEGAL.read_bytes())
    assert run("fmt", "--check", str(work / "g.log")).returncode == 0
    r = run("corpus", "export", str(work / "corpus"))
    assert r.returncode == 0 and (work / "corpus/README.txt").is_file(), r.stderr
    r = run("corpus", "run", "--api", "--sample", "6", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    r = run("corpus", "--game", "uno-duo", "export", str(work / "corpus-uno"))
    assert r.returncode == 0 and (work / "corpus-uno/README.txt").is_file(), r.stderr
    # commands that need a checkout say so in one line, exit 2, and write nothing
    for args in (
        ("corpus", "build"),
        ("corpus", "build", "--check"),
        ("corpus", "golden"),
        ("corpus", "golden", "--update"),
    ):
        r = run(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and "needs a source checkout" in r.stderr and "Traceback" not in r.stderr
    assert _tree(where) == before, "a command wrote into the install"
    if kind == "plain":
        _serve_answers(cmd, env, work)


def _serve_answers(cmd: list[str], env: dict, work: Path) -> None:
    """`dosverify serve` runs from a plain install (FastAPI and uvicorn are ordinary dependencies)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        cmd + ["serve", "--port", str(port)], cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                    assert resp.status == 200
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.2)
        # the page's data from the packs' packages: a game's replay script, its example and notation
        for path in ("/games/uno-duo/replay.js", "/v1/games/dos/example", "/v1/games/uno-duo/notation"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
                assert resp.status == 200 and len(resp.read()) > 500, path
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_check_does_not_import_the_service_stack() -> None:
    """FastAPI and uvicorn are dependencies now; `check` still starts without them (cold start)."""
    code = (
        f"import sys; from dosverify.cli import main; rc = main(['check', '-q', {str(LEGAL)!r}]); "
        "bad = [m for m in ('fastapi', 'uvicorn', 'starlette') if m in sys.modules]; "
        "print(bad); sys.exit(rc or (3 if bad else 0))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
