"""The README's commands are true: its first command referees bundled logs with `.venv/bin/`,
no shell example uses a bare `dosverify` (not on PATH without activating the venv), and the CI
recipes (GitHub Actions, GitLab, the pytest plugin) run over a folder of logs and give what their
consumers read."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S) + re.findall(r"```(\w+)\n(.*?)```", DOCS, re.S)


def test_first_command_checks_bundled_logs_with_the_venv() -> None:
    lang, body = BLOCKS[0]
    first = next(line for line in body.splitlines() if line and not line.startswith("#"))
    check = first.split("&&")[-1].strip()
    assert check.startswith(".venv/bin/dosverify check ")
    files = shlex.split(check)[2:]
    assert files and all((ROOT / f).is_file() for f in files)
    r = subprocess.run([sys.executable, "-m", "dosverify", "check", *files], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 1 and ": legal:" in r.stdout and ": illegal:" in r.stdout  # as the comment says


def test_no_shell_example_uses_a_bare_dosverify() -> None:
    for lang, body in BLOCKS:
        if lang == "sh":
            for line in body.splitlines():
                assert not re.match(r"\s*dosverify\s", line), line


def _ci_commands() -> list[str]:
    cmds = []
    for lang, body in BLOCKS:
        for line in body.splitlines():
            m = re.search(r"((?:python -m pytest|dosverify) (?:check|--dosverify) .*?)\s*(?:#.*)?$", line)
            if m and lang in ("yaml", "sh") and "logs/" in m.group(1):
                cmds.append(m.group(1))
    return cmds


def test_the_ci_recipes_run(tmp_path: Path) -> None:
    cmds = _ci_commands()
    assert any("--format github" in c for c in cmds) and any("--format sarif" in c for c in cmds)
    assert any("--format junit" in c for c in cmds) and any("--format gitlab" in c for c in cmds)
    assert any("--dosverify" in c for c in cmds)
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "good.dos").write_bytes((ROOT / "fixtures/dos/notation/example.log").read_bytes())
    (logs / "bad.log").write_bytes((ROOT / "fixtures/dos/digest/s1-example1-illegal.log").read_bytes())
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for cmd in cmds:
        argv = shlex.split(cmd)
        argv = [sys.executable, "-m", "dosverify", *argv[1:]] if argv[0] == "dosverify" else [sys.executable, *argv[1:]]
        if "pytest" in argv:
            argv += ["-p", "no:cacheprovider"]
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
        if "--exit-zero" in cmd:
            assert r.returncode == 0, (cmd, r.stderr)
        else:
            assert r.returncode == 1, (cmd, r.stdout, r.stderr)
        if "--format github" in cmd:
            assert "::error file=logs/bad.log,line=27,col=3," in r.stdout
        if "--dosverify" in cmd:
            assert "1 failed, 1 passed" in r.stdout and "error[draw-order]" in r.stdout
    jsonschema = pytest.importorskip("jsonschema")
    sarif = json.loads((tmp_path / "dosverify.sarif").read_text())
    jsonschema.validate(sarif, json.loads((Path(__file__).parents[1] / "schemas/sarif-2.1.0-rtm.5.json").read_text()))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["turn.steps"]
    assert json.loads((tmp_path / "gl-code-quality.json").read_text())[0]["location"]["path"] == "logs/bad.log"
    junitparser = pytest.importorskip("junitparser")
    cases = [c for s in junitparser.JUnitXml.fromfile(str(tmp_path / "dosverify-junit.xml")) for c in s]
    assert sorted((c.name, c.is_passed) for c in cases) == [("logs/bad.log", False), ("logs/good.dos", True)]
