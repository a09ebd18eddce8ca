"""Which files `dosverify check` reads, and that nothing passes in silence: every log extension in
any case, folders without logs, broken links, unreadable files, one JSON line per input,
bounded output (--max-errors), and `convert --to` naming the output's form."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEGAL = (ROOT / "fixtures/dos/notation/example.log").read_bytes()
ILLEGAL = (ROOT / "fixtures/dos/digest/s1-example1-illegal.log").read_bytes()


def run(*args: str, cwd: Path = ROOT, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args],
        input=stdin,
        capture_output=True,
        text=stdin is None,
        cwd=cwd,
        timeout=120,
    )


def test_a_folder_of_dos_txt_and_upper_case_logs_is_checked(tmp_path: Path) -> None:
    for name in ("a.dos", "b.txt", "C.LOG", "d.Json"):
        (tmp_path / name).write_bytes(ILLEGAL if name == "a.dos" else LEGAL)
    (tmp_path / "e.expected.json").write_text("{}")
    (tmp_path / "notes.md").write_text("not a log")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.log").write_bytes(ILLEGAL)
    r = run("check", "-q", str(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr  # a.dos is illegal: not a silent pass
    files = [
        line.split(":")[0]
        for line in r.stdout.splitlines()
        if ": legal" in line or ": illegal" in line or ": malformed" in line
    ]
    assert [Path(f).name for f in files] == ["C.LOG", "a.dos", "b.txt", "d.Json"]
    assert "4 files" in r.stdout


def test_include_and_exclude(tmp_path: Path) -> None:
    (tmp_path / "g.game").write_bytes(ILLEGAL)
    (tmp_path / "ok.log").write_bytes(LEGAL)
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "bad.log").write_bytes(ILLEGAL)
    r = run("check", "-q", "--exclude", "skip", str(tmp_path))
    assert r.returncode == 0 and "ok.log" in r.stdout and "bad.log" not in r.stdout
    r = run("check", "-q", "--include", "*.game", "--exclude", "skip", str(tmp_path))
    assert r.returncode == 1 and "g.game: illegal" in r.stdout


def test_a_folder_without_logs_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("x")
    r = run("check", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.strip() == f"dosverify: no logs found in {tmp_path}"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("check", "--format", "json", str(empty)).returncode == 2


def test_broken_links_and_unreadable_files_are_reported(tmp_path: Path) -> None:
    (tmp_path / "ok.log").write_bytes(LEGAL)
    os.symlink(tmp_path / "gone.log", tmp_path / "link.log")
    r = run("check", "-q", str(tmp_path))
    assert r.returncode == 2 and "link.log" in r.stderr and "broken symbolic link" in r.stderr
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.log"
        locked.write_bytes(LEGAL)
        locked.chmod(0)
        r = run("check", "-q", str(tmp_path))
        assert r.returncode == 2 and "cannot read" in r.stderr and "locked.log" in r.stderr


def test_json_lines_has_one_line_per_input_missing_ones_included(tmp_path: Path) -> None:
    (tmp_path / "ok.log").write_bytes(LEGAL)
    os.symlink(tmp_path / "gone.log", tmp_path / "link.log")
    r = run("check", "--format", "json", "no/such.log", str(tmp_path))
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 2
    assert [Path(d["file"]).name for d in lines] == ["such.log", "link.log", "ok.log"]
    assert [d["verdict"] for d in lines] == ["malformed", "malformed", "legal"]
    assert "no such file" in lines[0]["error"] and "broken symbolic link" in lines[1]["error"]
    assert "error" not in lines[2] and lines[2]["truncated"] == 0


def test_a_file_starting_with_a_bracket_is_read_as_json() -> None:
    r = run("check", "--format", "json", "-", stdin=b'  ["dos", 1]\n')
    d = json.loads(r.stdout)
    assert d["verdict"] == "malformed" and d["findings"][0]["rule"] == "notation.schema"
    assert d["findings"][0]["message"] == "a JSON log is one object"


def _junk(tmp_path: Path, n: int) -> Path:
    p = tmp_path / "junk.log"
    p.write_text("dos 1\nplayers ann bob\nround 1\n" + "".join(f"zz{i} qq\n" for i in range(n)))
    return p


def test_max_errors_bounds_the_output(tmp_path: Path) -> None:
    junk = _junk(tmp_path, 300)
    every = json.loads(run("check", "--format", "json", "--max-errors", "0", str(junk)).stdout)
    total = len(every["findings"])
    assert total > 60 and every["truncated"] == 0
    r = run("check", "--color", "never", str(junk))
    assert r.returncode == 1
    assert r.stdout.count("error[") == 50
    assert f"{total - 50} more findings not shown" in r.stdout
    d = json.loads(run("check", "--format", "json", "--max-errors", "3", str(junk)).stdout)
    assert len(d["findings"]) == 3 and d["truncated"] == total - 3
    assert "1 more finding not shown" in run("check", "--max-errors", str(total - 1), str(junk)).stdout
    assert run("check", "--max-errors", "-1", str(junk)).returncode == 2


def test_reports_are_written_as_each_file_finishes(tmp_path: Path) -> None:
    """The first file's report is out before the second file is read (here: before standard
    input, which the test holds open, is read)."""
    (tmp_path / "a.log").write_bytes(LEGAL)
    proc = subprocess.Popen(
        [sys.executable, "-m", "dosverify", "check", "-q", str(tmp_path / "a.log"), "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    try:
        first = proc.stdout.readline()
        assert "a.log: legal" in first
        proc.stdin.write(LEGAL.decode())
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill() if proc.poll() is None else None


@pytest.mark.parametrize("to", ["json", "text"])
def test_convert_to_names_the_output_form_whatever_the_input(tmp_path: Path, to: str) -> None:
    src_json = tmp_path / "g.json"
    assert (
        run("convert", "--to", "json", "-o", str(src_json), str(ROOT / "fixtures/dos/notation/example.log")).returncode
        == 0
    )
    for src in (ROOT / "fixtures/dos/notation/example.log", src_json):
        r = run("convert", "--to", to, str(src))
        assert r.returncode == 0, r.stderr
        if to == "json":
            assert json.loads(r.stdout)["players"] == ["ann", "bob", "cyd"]
        else:
            assert r.stdout.startswith("dos 1\n") and "players ann bob cyd" in r.stdout
