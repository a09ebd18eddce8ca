"""Settings of `dosverify check` kept beside the logs, as linters keep theirs: `dosverify.toml`,
or the `[tool.dosverify]` table of `pyproject.toml`, the first found from the working folder
upward (a pyproject.toml without the table is passed over). The command line wins over the file;
`--config FILE` names the file, `--isolated` reads none.

    ruleset = "italian"          # as --ruleset
    options = { dcm-draws = "at-once" }   # as --option KEY=VALUE (the command line wins, key by key)
    include = ["*.game"]         # as --include (globs)
    exclude = ["drafts"]
    select = ["illegal-match"]   # as --select (rule ids, sections or kinds)
    ignore = ["dos-call"]
    max-errors = 20
    warnings-as-errors = true
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

KEYS: dict[str, type[Any]] = {
    "ruleset": str,
    "options": dict,
    "include": list,
    "exclude": list,
    "select": list,
    "ignore": list,
    "max-errors": int,
    "max-log-bytes": int,
    "warnings-as-errors": bool,
    "exit-zero": bool,
    "format": str,
}


class ConfigError(ValueError):
    """A settings file that cannot be used: the message names the file and the key."""


def find(start: Path) -> Path | None:
    for d in (start, *start.parents):
        if (d / "dosverify.toml").is_file():
            return d / "dosverify.toml"
        py = d / "pyproject.toml"
        if py.is_file() and b"[tool.dosverify]" in py.read_bytes():
            return py
    return None


def load(path: Path) -> dict:
    """The settings in `path`, checked: unknown keys and wrong types are a ConfigError."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not TOML: {exc}") from None
    table = doc.get("tool", {}).get("dosverify", {}) if path.name == "pyproject.toml" else doc
    where = f"{path}" + (" [tool.dosverify]" if path.name == "pyproject.toml" else "")
    for key, val in table.items():
        if key not in KEYS:
            import difflib

            near = difflib.get_close_matches(key, list(KEYS), n=1)
            raise ConfigError(
                f"{where}: unknown setting `{key}`"
                + (f"; did you mean `{near[0]}`?" if near else f" (known: {', '.join(KEYS)})")
            )
        want = KEYS[key]
        if (
            not isinstance(val, want)
            or (want is int and isinstance(val, bool))
            or (want is list and not all(isinstance(x, str) for x in val))
            or (want is dict and not all(isinstance(x, str) for x in val.values()))
        ):
            kind = {
                str: "a string",
                list: "a list of strings",
                int: "an integer",
                bool: "true or false",
                dict: 'a table of option = "value"',
            }[want]
            raise ConfigError(f"{where}: `{key}` must be {kind}, not {val!r}")
    return table


def apply(args, cwd: Path) -> Path | None:
    """Fill the options not given on the command line from the settings file; returns the file used."""
    if getattr(args, "isolated", False):
        return None
    path = Path(args.config) if args.config else find(cwd)
    if path is None:
        return None
    for key, val in load(path).items():
        if key == "options":  # under --option's, which win key by key
            args.option = [f"{k}={v}" for k, v in val.items()] + list(getattr(args, "option", None) or [])
            continue
        attr = key.replace("-", "_")
        have = getattr(args, attr, None)
        if have is None or have is False:  # not given (0 is a value: `--max-errors 0`)
            setattr(args, attr, val)
    return path
