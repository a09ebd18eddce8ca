"""The service's settings: each from a `serve` flag, else its environment variable, else its
default, and every one validated with a one-line error naming where the bad value came from."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from .clientaddr import HEADERS, BadSetting, parse_networks


class SettingError(ValueError):
    """A setting that cannot be used; the message is one line, for `serve` to print."""


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _networks(raw: str, where: str) -> str:
    """A list of addresses or networks, as one canonical comma-separated string ('' for none)."""
    try:
        return ",".join(str(net) for net in parse_networks(raw))
    except BadSetting as exc:
        raise SettingError(f"{where} must be IP addresses or networks separated by commas: {exc}") from None


def _header(raw: str, where: str) -> str:
    name = raw.strip().lower()
    if name not in HEADERS:
        raise SettingError(f"{where} must be one of {', '.join(HEADERS)}, not {raw!r}")
    return name


# name: (environment variable, type, default (None: computed), lowest value (for text: the
# function that checks it and gives its canonical form), help)
SPECS = {
    "max_log_bytes": ("DOSVERIFY_MAX_LOG_BYTES", int, 1024 * 1024, 1, "largest log accepted, in bytes"),
    "max_batch_items": ("DOSVERIFY_MAX_BATCH_ITEMS", int, 100, 1, "most logs in one batch"),
    "max_batch_bytes": ("DOSVERIFY_MAX_BATCH_BYTES", int, 8 * 1024 * 1024, 1, "largest batch body, in bytes"),
    "workers": (
        "DOSVERIFY_WORKERS",
        int,
        None,
        1,
        "check worker processes for single checks, as many for batches, one fewer for large logs (default: the number of cores)",
    ),
    "check_timeout": ("DOSVERIFY_CHECK_TIMEOUT", float, 10.0, 0.001, "time budget of one check, in seconds"),
    "max_in_flight": ("DOSVERIFY_MAX_IN_FLIGHT", int, 64, 1, "requests in flight before 503"),
    "max_findings": (
        "DOSVERIFY_MAX_FINDINGS",
        int,
        200,
        1,
        "findings kept per report (the rest counted in `truncated`)",
    ),
    # the connection-level limits (docs/service-limits.md): what nginx and gunicorn give and
    # uvicorn alone does not, enforced by dosverify.service.protocol, and uvicorn's own timeouts
    "max_in_flight_per_client": (
        "DOSVERIFY_MAX_IN_FLIGHT_PER_CLIENT",
        int,
        None,
        1,
        "requests in flight from one client address before 503 (default: a quarter of max_in_flight)",
    ),
    "max_url_bytes": ("DOSVERIFY_MAX_URL_BYTES", int, 8 * 1024, 64, "longest request target, in bytes (414)"),
    "max_header_bytes": ("DOSVERIFY_MAX_HEADER_BYTES", int, 16 * 1024, 256, "largest request headers, in bytes (431)"),
    "max_headers": ("DOSVERIFY_MAX_HEADERS", int, 100, 4, "most header fields in a request (431)"),
    "header_timeout": (
        "DOSVERIFY_HEADER_TIMEOUT",
        float,
        10.0,
        0.1,
        "seconds for the request line and headers to arrive (408, connection closed)",
    ),
    "body_timeout": (
        "DOSVERIFY_BODY_TIMEOUT",
        float,
        10.0,
        0.1,
        "seconds a body may take before it must keep up min_body_rate (408, connection closed)",
    ),
    "min_body_rate": (
        "DOSVERIFY_MIN_BODY_RATE",
        int,
        8 * 1024,
        1,
        "bytes a second a body must average once body_timeout has passed",
    ),
    "keepalive_timeout": (
        "DOSVERIFY_KEEPALIVE_TIMEOUT",
        float,
        5.0,
        0.1,
        "seconds an idle keep-alive connection stays open (uvicorn's timeout_keep_alive)",
    ),
    "max_connections": (
        "DOSVERIFY_MAX_CONNECTIONS",
        int,
        None,
        1,
        "open connections before a new one gets 503 and is closed (default: 1000, at most the descriptor limit less 256)",
    ),
    "max_connections_per_client": (
        "DOSVERIFY_MAX_CONNECTIONS_PER_CLIENT",
        int,
        64,
        1,
        "open connections from one client address (an IPv6 /64) before its next one gets 503 and is closed; "
        "from a trusted proxy, requests in progress for one forwarded client",
    ),
    "trusted_proxies": (
        "DOSVERIFY_TRUSTED_PROXIES",
        str,
        "",
        _networks,
        "addresses or networks of reverse proxies, comma-separated, whose client address header is believed "
        "(default: none, every client is its peer address)",
    ),
    "client_address_header": (
        "DOSVERIFY_CLIENT_ADDRESS_HEADER",
        str,
        "x-forwarded-for",
        _header,
        "the header a trusted proxy names the client in: x-forwarded-for or forwarded (RFC 7239)",
    ),
    "shutdown_timeout": (
        "DOSVERIFY_SHUTDOWN_TIMEOUT",
        float,
        10.0,
        0.0,
        "seconds requests in flight get after SIGTERM (uvicorn's timeout_graceful_shutdown)",
    ),
}


def _descriptor_room() -> int:
    """1000 connections, or fewer when the process may not open that many descriptors (the
    pool's pipes, the log and the files read keep 256 of them)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return 1000
    if soft == resource.RLIM_INFINITY:
        return 1000
    return max(16, min(1000, soft - 256))


def _computed(name: str, values: dict):
    if name == "max_in_flight_per_client":
        return max(1, values["max_in_flight"] // 4)
    if name == "max_connections":
        return _descriptor_room()
    return _cpus()


@dataclass(frozen=True)
class Settings:
    max_log_bytes: int
    max_batch_items: int
    max_batch_bytes: int
    workers: int
    check_timeout: float
    max_in_flight: int
    max_findings: int
    max_in_flight_per_client: int
    max_url_bytes: int
    max_header_bytes: int
    max_headers: int
    header_timeout: float
    body_timeout: float
    min_body_rate: int
    keepalive_timeout: float
    max_connections: int
    max_connections_per_client: int
    trusted_proxies: str
    client_address_header: str
    shutdown_timeout: float

    @classmethod
    def resolve(cls, environ: dict | None = None, **given) -> Settings:
        """Given values (not None) win over the environment, which wins over the defaults."""
        env = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            var, typ, default, low, _ = SPECS[f.name]
            flag = "--" + f.name.replace("_", "-")
            val = given.get(f.name)
            if val is not None:
                values[f.name] = _checked(val, typ, low, flag)
                continue
            raw = env.get(var)
            if raw is not None and raw.strip() != "":
                values[f.name] = _checked(raw.strip(), typ, low, var)
            else:
                values[f.name] = default if default is not None else _computed(f.name, values)
        return cls(**values)

    def to_environ(self) -> dict[str, str]:
        return {SPECS[f.name][0]: str(getattr(self, f.name)) for f in fields(self)}


def _checked(raw, typ, low, where: str):
    if typ is str:
        return low(str(raw), where)
    kind = "an integer" if typ is int else "a number"
    try:
        val = typ(raw)
    except (TypeError, ValueError):
        raise SettingError(f"{where} must be {kind} >= {low:g}, not {raw!r}") from None
    if typ is float and val != val or val in (float("inf"), float("-inf")):
        raise SettingError(f"{where} must be {kind} >= {low:g}, not {raw!r}")
    if val < low:
        raise SettingError(f"{where} must be {kind} >= {low:g}, not {raw!r}")
    return val


def port(raw: str) -> int:
    """A TCP port, for argparse: 1 to 65535."""
    try:
        val = int(raw)
    except ValueError:
        raise SettingError(f"--port must be an integer from 1 to 65535, not {raw!r}") from None
    if not 1 <= val <= 65535:
        raise SettingError(f"--port must be an integer from 1 to 65535, not {raw!r}")
    return val
