"""Which files `dosverify check` reads: the files named, and the logs found under the folders named.

A folder stands for every log under it: `*.log`, `*.dos`, `*.txt` and `*.json` in any case
(not `*.expected.json`, the fixtures' expected findings), plus `--include GLOB`, minus
`--exclude GLOB`; hidden folders and files are skipped. A broken link or an unreadable file is an
input that cannot be read (reported, never skipped in silence), and a folder without a log is a
misuse: a CI job pointed at the wrong folder must not pass.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

LOG_SUFFIXES = (".log", ".dos", ".txt", ".json")


@dataclass(frozen=True)
class Input:
    path: str  # as named or found; `-` for standard input
    problem: str | None = None  # why it cannot be read, found while looking (a broken link)
    empty: bool = False  # a folder named, without a log under it


def _matches(rel: str, globs: tuple[str, ...]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in globs)


def is_log_name(name: str) -> bool:
    low = name.lower()
    return low.endswith(LOG_SUFFIXES) and not low.endswith(".expected.json")


def discover(paths: list[str], include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()):
    """Yield an Input for every file named and every log under every folder named, in order
    (sorted within a folder), and an `empty` one for a folder without a log."""
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield Input(path)  # named: read whatever it is (a missing file is reported when read)
            continue
        found = 0
        for item in _walk(Path(path), include, exclude):
            found += 1
            yield item
        if not found:
            yield Input(path, empty=True)


def _walk(root: Path, include: tuple[str, ...], exclude: tuple[str, ...]):
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        rel = (lambda n: n) if rel_dir == "." else (lambda n, d=rel_dir: f"{d}/{n}")
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not _matches(rel(d), exclude))
        for name in sorted(filenames):
            if name.startswith(".") or _matches(rel(name), exclude):
                continue
            if not (is_log_name(name) or _matches(rel(name), include)):
                continue
            full = base / name
            if full.is_symlink() and not full.exists():
                yield Input(str(full), f"a broken symbolic link (to {os.readlink(full)})")
            else:
                yield Input(str(full))
