"""Which files `dosverify check` reads: the files named, and the logs found under the folders named.

A folder stands for every log under it: `*.log`, `*.dos`, `*.txt` and `*.json` in any case
(not `*.expected.json`, the fixtures' expected findings), plus `--include GLOB`, minus
`--exclude GLOB`; hidden folders and files are skipped. A broken link or an unreadable file is an
input that cannot be read (reported, never skipped in silence), and a folder without a log is a
misuse: a CI job pointed at the wrong folder must not pass. A file found in a folder whose first
line names no game (a README.txt, notes, a data file) is not a log: it is skipped, and counted
(`skipped`), and a folder of nothing else still has no log. A file that is not a regular file (a
FIFO, a device, a socket) is never read, named or found: it could block for ever or never end
(standard input, `-`, is the way to read a pipe).
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
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


def discover(
    paths: list[str], include: tuple[str, ...] = (), exclude: tuple[str, ...] = (), skipped: list | None = None
):
    """Yield an Input for every file named and every log under every folder named, in order
    (sorted within a folder), and an `empty` one for a folder without a log. The files of a
    folder that are not logs (see `not_a_log`) are appended to `skipped`, not yielded."""
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield Input(path)  # named: read whatever it is (a missing file is reported when read)
            continue
        found = 0
        for item in _walk(Path(path), include, exclude):
            if item.problem is None and not_a_log(item.path):
                if skipped is not None:
                    skipped.append(item.path)
                continue
            found += 1
            yield item
        if not found:
            yield Input(path, empty=True)


HEAD_BYTES = 4096  # what is read of a file found in a folder to tell whether it is a log


def not_a_log(path: str) -> bool:
    """Whether a file found in a folder is plainly not a log: its first line that is not blank
    or a comment names no game there is (`dos 1` for DOS; a JSON object naming a game's key).
    An empty file, or one that cannot be read, is a log for this purpose (the check says what is
    wrong with it); so is a log saved as UTF-16 (games.sniff_game reads it)."""
    from .registry import log_game

    try:
        head = read_file(path, HEAD_BYTES, partial=True)
    except OSError:
        return False  # reported when read
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        return False
    return log_game(head) is None


def read_file(path: str, limit: int = 0, *, partial: bool = False) -> bytes:
    """The bytes of the file `path`, without blocking: a FIFO, a device or a socket is refused at
    once (OSError saying what it is; `-` reads standard input), and so is a file of more than
    `limit` bytes (0: any size), unless `partial`, which gives its first `limit` bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, _not_regular(mode))
        data = fh.read(limit + (0 if partial else 1) if limit else -1)
    if limit and not partial and len(data) > limit:
        raise OSError(errno.EFBIG, too_large(limit))
    return data


def too_large(limit: int) -> str:
    return f"larger than {limit:,} bytes, the most --max-log-bytes reads (0 reads any size)"


def _not_regular(mode: int) -> str:
    what = (
        "a folder"
        if stat.S_ISDIR(mode)
        else "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    return f"{what}, not a file: it is not read (name it as `-` to read it from standard input)"


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
            yield Input(str(full), _link_problem(full))


def _link_problem(full: Path) -> str | None:
    """Why a symbolic link found in a folder cannot be read: it leads nowhere, or round in a loop."""
    if not full.is_symlink():
        return None
    try:
        os.stat(full)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"a symbolic link in a loop (to {os.readlink(full)}, which leads back to itself)"
        return f"a broken symbolic link (to {os.readlink(full)})"
    return None
