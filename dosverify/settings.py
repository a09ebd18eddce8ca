"""The service's settings: each from a `serve` flag, else its environment variable, else its
default, and every one validated with a one-line error naming where the bad value came from."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields


class SettingError(ValueError):
    """A setting that cannot be used; the message is one line, for `serve` to print."""


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# name: (environment variable, type, default (None: computed), lowest value, help)
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
}


@dataclass(frozen=True)
class Settings:
    max_log_bytes: int
    max_batch_items: int
    max_batch_bytes: int
    workers: int
    check_timeout: float
    max_in_flight: int
    max_findings: int

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
                values[f.name] = default if default is not None else _cpus()
        return cls(**values)

    def to_environ(self) -> dict[str, str]:
        return {SPECS[f.name][0]: str(getattr(self, f.name)) for f in fields(self)}


def _checked(raw, typ, low, where: str):
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
