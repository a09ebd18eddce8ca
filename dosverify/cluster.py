"""`dosverify check --dask ADDRESS|local:N FILE|DIR|GLOB...`: referee logs on a Dask
distributed cluster and print exactly what the plain `check` prints, in input order (or, with
`--unordered`, as reports come in), with the same summary and exit status.

The client only lists the files (it expands directories and globs, local or fsspec URLs); the
workers read them from a path they share (an NFS mount at the same place on every machine, or a
URL that fsspec understands) and send back the rendered report of each, in chunks of
:data:`CHUNK` files. At most :data:`WINDOW` chunks per worker thread are in flight, so neither
the client nor the scheduler ever holds the archive or all its reports.
"""

from __future__ import annotations

import argparse
import glob
import logging
import os
import sys
from collections import deque

CHUNK = 16  # files per task: enough to make the scheduler's per-task cost small
WINDOW = 4  # chunks in flight per worker thread
CONNECT_TIMEOUT = "20s"  # to reach a remote scheduler


def _is_url(path: str) -> bool:
    return "://" in path


def expand(paths: list[str]) -> list[str]:
    """Files, directories of logs (as the plain `check` expands them) and globs (`games/*.log`,
    `s3://bucket/**/*.log`), in the order given, each glob's matches sorted."""
    from .cli import _expand

    out: list[str] = []
    for path in paths:
        if _is_url(path):
            import fsspec

            fs, _, _ = fsspec.core.get_fs_token_paths(path)
            proto = path.split("://", 1)[0]
            if glob.has_magic(path):
                out.extend(f"{proto}://{p}" for p in sorted(fs.glob(path)))
            elif fs.isdir(path):
                out.extend(f"{proto}://{p}" for p in sorted(fs.find(path))
                           if p.endswith(".log") or (p.endswith(".json") and not p.endswith(".expected.json")))
            else:
                out.append(path)
        elif glob.has_magic(path) and not os.path.exists(path):
            out.extend(_expand(sorted(glob.glob(path, recursive=True))))
        else:
            out.extend(_expand([path]))
    return out


def check_chunk(pairs: list[tuple[str, str]], opts: argparse.Namespace) -> list[tuple[str, str, str]]:
    """On a worker: (tally key, stdout, stderr) for each (name, where to read it)."""
    from .cli import check_path

    return [check_path(name, opts, source) for name, source in pairs]


def _client(address: str):
    from distributed import Client, LocalCluster

    if address.startswith("local:"):
        raw = address[len("local:"):]
        if not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"--dask local:N needs a number of workers N >= 1, not {raw!r}")
        cluster = LocalCluster(n_workers=int(raw), threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        return Client(cluster), cluster
    return Client(address, timeout=CONNECT_TIMEOUT), None


def run(files: list[str], opts: argparse.Namespace, client, unordered: bool = False):
    """Yield (tally key, stdout, stderr) for every file, in input order unless `unordered`."""
    from distributed import as_completed

    pairs = [(f, f if _is_url(f) else os.path.abspath(f)) for f in files]
    chunks = [pairs[i:i + CHUNK] for i in range(0, len(pairs), CHUNK)]
    threads = max(1, sum(client.nthreads().values()))
    window = WINDOW * threads
    todo = iter(chunks)

    def submit():
        chunk = next(todo, None)
        return None if chunk is None else client.submit(check_chunk, chunk, opts, pure=False)

    if unordered:
        first = [f for f in (submit() for _ in range(window)) if f is not None]
        pending = as_completed(first)
        for fut in pending:
            nxt = submit()
            if nxt is not None:
                pending.add(nxt)
            yield from fut.result()
            fut.release()
        return
    queue = deque(f for f in (submit() for _ in range(window)) if f is not None)
    while queue:
        fut = queue.popleft()
        result = fut.result()
        fut.release()
        nxt = submit()
        if nxt is not None:
            queue.append(nxt)
        yield from result


def cmd_check_dask(args) -> int:
    """The `check --dask` command (the ruleset override was checked by the caller)."""
    from .cli import check_status, check_tally

    try:
        import distributed  # noqa: F401
    except ImportError:
        print("dosverify: --dask needs dask.distributed: pip install 'dosverify[dask]'", file=sys.stderr)
        return 2
    if "-" in args.files:
        print("dosverify: --dask reads files on the workers; standard input (-) cannot be sent", file=sys.stderr)
        return 2
    try:
        files = expand(args.files)
    except (OSError, ValueError, ImportError) as exc:
        print(f"dosverify: cannot list the files: {exc}", file=sys.stderr)
        return 2
    opts = argparse.Namespace(format=args.format, quiet=args.quiet, colour=args.colour, ruleset=args.ruleset)
    try:
        client, cluster = _client(args.dask)
    except ValueError as exc:
        print(f"dosverify: {exc}", file=sys.stderr)
        return 2
    except (OSError, TimeoutError) as exc:
        print(f"dosverify: cannot reach the Dask scheduler {args.dask}: {exc}", file=sys.stderr)
        return 2
    tally = {"legal": 0, "illegal": 0, "malformed": 0, "unreadable": 0}
    try:
        for verdict, out, err in run(files, opts, client, unordered=args.unordered):
            if err:
                sys.stderr.write(err)
            if out:
                sys.stdout.write(out)
                sys.stdout.flush()
            tally[verdict] += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    line = check_tally(files, tally, opts)
    if line:
        print(line)
    return check_status(v for v, n in tally.items() if n)
