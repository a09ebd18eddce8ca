"""What every command shares with the terminal: reading a named input (a file, `-`, a URL) and
whether to colour what it prints. Below every command, so that a game's own commands use it too."""

from __future__ import annotations

import os
import sys


def colour_wanted(choice: str, stream) -> bool:
    """--color first, then NO_COLOR, FORCE_COLOR (CI logs that render colour), TERM=dumb, a terminal."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def read_bytes(path: str, limit: int = 0) -> bytes:
    """The bytes of `path` (`-`: standard input), at most `limit` of them (0: any size; more is an
    OSError saying so); a FIFO or a device named as a file is refused at once (inputs.read_file)."""
    from .inputs import read_file, too_large

    if path == "-":
        data = sys.stdin.buffer.read(limit + 1) if limit else sys.stdin.buffer.read()
        if limit and len(data) > limit:
            import errno

            raise OSError(errno.EFBIG, too_large(limit))
        return data
    if "://" in path:  # a URL that fsspec understands (s3://, gcs://, http://, ...), as with --dask
        try:
            import fsspec
        except ImportError:
            raise OSError("reading a URL needs fsspec (pip install 'dosverify[dask]')") from None
        try:
            with fsspec.open(path, "rb") as fh:
                data = fh.read(limit + 1 if limit else -1)
        except (ValueError, ImportError) as exc:  # an unknown protocol, a missing driver
            raise OSError(str(exc)) from None
        if limit and len(data) > limit:
            raise OSError(too_large(limit))
        return data
    return read_file(path, limit)


def read_or_say(path: str, prog: str = "dosverify") -> bytes | None:
    """The bytes of `path` (`-`: standard input), or None after saying on standard error why it
    cannot be read: the caller exits 2 (or moves on to its next file)."""
    try:
        return read_bytes(path)
    except OSError as exc:
        print(f"{prog}: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return None
