"""`dosverify check --dask ADDRESS|local:N FILE|DIR|GLOB...`: referee logs on a Dask
distributed cluster and print exactly what the plain `check` prints, in input order (or, with
`--unordered`, as reports come in), with the same summary and exit status.

The client only lists the files (it expands directories and globs, local or fsspec URLs); the
workers read them from a path they share (an NFS mount at the same place on every machine, or a
URL that fsspec understands) and send back the report of each (its policy applied: the client
renders it, exactly as the plain `check` does), in chunks of
:data:`CHUNK` files. At most :data:`WINDOW` chunks per worker thread are in flight, so neither
the client nor the scheduler ever holds the archive or all its reports.
"""

from __future__ import annotations

import glob
import logging
import os
from collections import deque

CHUNK = 16  # files per task: enough to make the scheduler's per-task cost small
WINDOW = 4  # chunks in flight per worker thread
CONNECT_TIMEOUT = "20s"  # to reach a remote scheduler


def _is_url(path: str) -> bool:
    return "://" in path


def expand(paths: list[str]) -> list[str]:
    """Globs (`'games/*.log'`, `s3://bucket/**/*.log`) as the files they match, sorted, and a
    folder URL as the logs under it; local files and folders are left to `check`'s own discovery."""
    from .inputs import is_log_name

    out: list[str] = []
    for path in paths:
        if _is_url(path):
            import fsspec

            fs, _, _ = fsspec.core.get_fs_token_paths(path)
            proto = path.split("://", 1)[0]
            if glob.has_magic(path):
                out.extend(f"{proto}://{p}" for p in sorted(fs.glob(path)))
            elif fs.isdir(path):
                out.extend(f"{proto}://{p}" for p in sorted(fs.find(path)) if is_log_name(p.rsplit("/", 1)[-1]))
            else:
                out.append(path)
        elif glob.has_magic(path) and not os.path.exists(path):
            out.extend(sorted(glob.glob(path, recursive=True)))
        else:
            out.append(path)
    return out


class ClusterError(Exception):
    """The cluster cannot be used (a bad address, no Dask): a one-line message for the CLI."""


def judge_chunk(pairs: list[tuple[str, str]], policy) -> list[tuple]:
    """On a worker: the outcome of `check`'s own per-file work for each (name, where to read it)."""
    from .runner import check_one

    return [check_one(name, None, None, policy, source) for name, source in pairs]


def inputs(paths: list[str]) -> list[str]:
    """The command line's paths for `--dask`, globs and folder URLs expanded (see :func:`expand`)."""
    if "-" in paths:
        raise ClusterError("--dask reads files on the workers; standard input (-) cannot be sent")
    try:
        return expand(paths)
    except (OSError, ValueError, ImportError) as exc:
        raise ClusterError(f"cannot list the files: {exc}") from None


class Cluster:
    """A Dask client for `check --dask`: ``local:N`` starts a LocalCluster of N processes."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError("--dask needs dask.distributed: pip install 'dosverify[dask]'") from None
        self.local = None
        if address.startswith("local:"):
            raw = address[len("local:") :]
            if not raw.isdigit() or int(raw) < 1:
                raise ClusterError(f"--dask local:N needs a number of workers N >= 1, not {raw!r}")
            self.local = LocalCluster(
                n_workers=int(raw),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            self.client = Client(self.local)
        else:
            try:
                self.client = Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler {address}: {exc}") from None

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()

    def results(self, items, policy, unordered: bool = False):
        """(input, outcome) for each input, as `dosverify.runner.results` yields them, in input
        order unless ``unordered``. An empty folder or a broken link needs no worker."""
        from distributed import as_completed

        from .runner import check_one

        items = list(items)  # names only: the client never reads a log
        local = lambda it: None if it.empty else check_one(it.path, it.problem, None, policy)  # noqa: E731
        work = [it for it in items if not (it.empty or it.problem)]
        chunks = [work[i : i + CHUNK] for i in range(0, len(work), CHUNK)]
        window = WINDOW * max(1, sum(self.client.nthreads().values()))
        todo = iter(chunks)
        chunk_of: dict[object, list] = {}  # a submitted future's key -> the items it judges

        def submit():
            chunk = next(todo, None)
            if chunk is None:
                return None
            pairs = [(it.path, it.path if _is_url(it.path) else os.path.abspath(it.path)) for it in chunk]
            fut = self.client.submit(judge_chunk, pairs, policy, pure=False)
            chunk_of[fut.key] = chunk
            return fut

        if unordered:
            for it in items:
                if it.empty or it.problem:
                    yield it, local(it)
            pending = as_completed([f for f in (submit() for _ in range(window)) if f is not None])
            for fut in pending:
                nxt = submit()
                if nxt is not None:
                    pending.add(nxt)
                yield from zip(chunk_of.pop(fut.key), fut.result(), strict=False)
                fut.release()
            return
        queue = deque(f for f in (submit() for _ in range(window)) if f is not None)
        done: dict[int, tuple] = {}
        for it in items:
            if it.empty or it.problem:
                yield it, local(it)
                continue
            if id(it) not in done:
                fut = queue.popleft()
                for c_it, res in zip(chunk_of.pop(fut.key), fut.result(), strict=False):
                    done[id(c_it)] = res
                fut.release()
                nxt = submit()
                if nxt is not None:
                    queue.append(nxt)
            yield it, done.pop(id(it))
