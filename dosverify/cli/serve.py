"""`dosverify serve`: the HTTP conformance service (its stack imported only here, when it runs)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

#: The service's limits as flags: read as text (dosverify.settings checks them: one-line errors,
#: exit 2), each with its help and, where it is no number, its metavar (a flat table).
LIMITS = (
    (
        "--workers",
        "check worker processes for single checks, as many for batches, one fewer (at least one) for large logs (default: the number of cores, or $DOSVERIFY_WORKERS)",
    ),
    ("--max-log-bytes", "largest log accepted (default 1 MiB, or $DOSVERIFY_MAX_LOG_BYTES)"),
    ("--max-batch-items", "most logs in one batch (default 100, or $DOSVERIFY_MAX_BATCH_ITEMS)"),
    ("--max-batch-bytes", "largest batch body (default 8 MiB, or $DOSVERIFY_MAX_BATCH_BYTES)"),
    ("--check-timeout", "seconds one check may take before a 503 (default 10, or $DOSVERIFY_CHECK_TIMEOUT)"),
    ("--max-in-flight", "requests in flight before a 503 (default 64, or $DOSVERIFY_MAX_IN_FLIGHT)"),
    (
        "--max-findings",
        "findings per report, the rest counted in `truncated` (default 200, or $DOSVERIFY_MAX_FINDINGS)",
    ),
    (
        "--max-connections-per-client",
        "open connections from one client address (an IPv6 /64) before its next one gets 503 and is closed; raise "
        "it for a venue behind one NAT address (default 64, or $DOSVERIFY_MAX_CONNECTIONS_PER_CLIENT)",
    ),
    (
        "--trusted-proxies",
        "reverse proxies (addresses or networks, comma-separated) whose client address header names the client "
        "(default none, or $DOSVERIFY_TRUSTED_PROXIES)",
        "ADDRS",
    ),
    (
        "--client-address-header",
        "the header the trusted proxies name the client in: x-forwarded-for or forwarded "
        "(default x-forwarded-for, or $DOSVERIFY_CLIENT_ADDRESS_HEADER)",
        "NAME",
    ),
)


def add_parser(sub: Any) -> None:
    from ..store.cli import add_serve_options  # --data, --database-url, --token-file (dosverify/store/)

    sv = sub.add_parser("serve", help="run the HTTP conformance service")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", default="8000", help="TCP port, 1-65535 (default 8000)")
    for flag, text, *metavar in LIMITS:
        sv.add_argument(flag, default=None, metavar=metavar[0] if metavar else "N", help=text)
    sv.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="one line a request on standard output (uvicorn's access log; default on)",
    )
    sv.set_defaults(func=run)
    add_serve_options(sv)


def run(args: argparse.Namespace) -> int:
    """Every setting is checked (flags and environment) before the server starts: a bad one is
    a one-line error and exit 2."""
    from ..settings import SettingError, Settings, port

    given = {flag[2:].replace("-", "_"): getattr(args, flag[2:].replace("-", "_")) for flag, *_ in LIMITS}
    try:
        p = port(args.port)
        Settings.resolve(**given)
    except SettingError as exc:
        print(f"dosverify serve: {exc}", file=sys.stderr)
        return 2
    from ..service import serve
    from ..store.cli import apply_serve_options  # --data, --database-url, --token-file (dosverify/store/)

    apply_serve_options(args)
    serve(host=args.host, port=p, access_log=args.access_log, **given)
    return 0
