"""The one data path: text or JSON in, one event model, one referee, one report.

The CLI and the HTTP service both call :func:`check`; nothing else decides a verdict. The core
knows no game: the log's first word (text) or its game key (JSON) picks the pack that reads
and judges it (:mod:`dosverify.games`).
"""

from __future__ import annotations

import re
from typing import Any

from .findings import Finding, Keep, keep_as_given
from .games import REGISTRY, GamePack, PackUnavailable, UnknownGame, default_game, find_game, pack_of_log, sniff_game
from .jsondoc import sniff_json
from .model import Parsed
from .overrides import OverrideError, for_game, refuse_unknown
from .report import Report
from .spec import Spec, SpecError

__all__ = ["OverrideError", "SpecError", "UnknownGame", "check", "convert", "game_of", "parse", "sniff_json", "witness"]


def game_of(source: str | bytes | dict[str, Any] | list[Any], game: str | None = None) -> GamePack:
    """The pack that reads `source`: `game` when given (UnknownGame if no pack has it), else the
    game its first word names, else the default (whose reader says what is wrong with the header)."""
    return pack_of_log(source, game)


_HEADER = re.compile(r"\ufeff?[ \t]*[A-Za-z][A-Za-z0-9_-]*[ \t]+[0-9]+[ \t]*\Z")  # `chess 1`: a game and its version


def _unknown_game(source: str | bytes | dict[str, Any] | list[Any], name: str) -> Report | None:
    """One clear finding for a text log whose first word names no game: the games there are.
    None when the source is JSON, names a game, or its first line is no game's header at all
    (then the default reader says what is wrong)."""
    if isinstance(source, (dict, list)) or sniff_json(source):
        return None
    word = sniff_game(source)
    if word is None or word in REGISTRY:
        return None
    text = source.decode("utf-8", "replace") if isinstance(source, (bytes, bytearray)) else source
    line, raw = _header_line(text)
    if not _HEADER.match(raw.split("#", 1)[0]):
        return None
    spec = find_game(default_game()).spec()
    report = Report(
        file=name,
        verdict="malformed",
        ruleset=None,
        spec_version=spec.version,
        findings=[_unknown(spec, word, line, raw)],
        game=spec.game,
    )
    report.lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    report.text = text
    return report


def _unusable_game(source: str | bytes | dict[str, Any], name: str, exc: PackUnavailable, keep: Keep | None) -> Report:
    """A log of a registered game whose pack cannot be used: malformed, with one finding at its
    header that says why (the other games go on)."""
    from .findings import Reporter

    spec = find_game(default_game()).spec()
    if isinstance(source, dict):
        text, line, raw = None, 1, ""
    else:
        text = source.decode("utf-8", "replace") if isinstance(source, (bytes, bytearray)) else source
        line, raw = _header_line(text)
    finding = Reporter(spec)(
        "notation.version",
        str(exc),
        line=line,
        column=len(raw) - len(raw.lstrip(" \t\ufeff")) + 1,
        found=sniff_game(source) or "",
        help="reinstall or update the game's pack; `dosverify --version` lists the games and their state",
    )
    report = Report(
        file=name, verdict="malformed", ruleset=None, spec_version=spec.version, findings=[finding], game=spec.game
    )
    if text is not None:
        report.lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        report.text = text
    if keep is not None:
        keep_as_given(report, list(report.findings), keep)
    return report


def _header_line(text: str) -> tuple[int, str]:
    """The line that must be the header: the first with more than a comment (1 and "" if none)."""
    lines = text.splitlines()
    line = next((i for i, ln in enumerate(lines, 1) if ln.split("#", 1)[0].strip()), 1)
    return line, lines[line - 1] if lines else ""


def _unknown(spec: Spec, word: str, line: int, raw: str) -> Finding:
    """`notation.version` at the header's first word, naming the games there are."""
    from .findings import Reporter

    known = ", ".join(f"`{g} 1`" for g in REGISTRY)
    return Reporter(spec)(
        "notation.version",
        f"unknown game `{word}`: a log starts with its game and version",
        line=line,
        column=len(raw) - len(raw.lstrip(" \t\ufeff")) + 1,
        found=word,
        expected=f"one of {known}",
        help=f"start the log with the line of its game: {known}",
    )


def check(
    source: str | bytes | dict[str, Any],
    *,
    name: str = "<input>",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
    whole: bool = False,
    game: str | None = None,
    keep: Keep | None = None,
) -> Report:
    """Check one log. A `ruleset` override that the log's game does not have, or an `options`
    override (over the log's own `option` lines) that it does not have, raises OverrideError (a
    SpecError: a misuse, not a verdict, naming the game); everything wrong with the log itself is
    a finding in the report. An option key `GAME:KEY` applies to that game's logs only.

    `game` forces a game (UnknownGame when none has that name); else the log names its own.
    `whole` reads the log all first and keeps it, with the referee, on the report (the witness
    needs both); otherwise a log is read and judged a round at a time. `keep` (findings.Keep):
    which findings the report keeps, and at most how many (the rest counted in `truncated`,
    never held: memory for the game and the findings shown, not for the findings made)."""
    if game is None and (refused := _unknown_game(source, name)) is not None:
        if keep is not None:
            keep_as_given(refused, list(refused.findings), keep)
        return refused
    try:
        pack = game_of(source, game)  # the pack reads the log (a round at a time, or whole) and judges it
    except PackUnavailable as exc:
        if game is not None:
            raise
        return _unusable_game(source, name, exc, keep)
    options = for_game(options, pack.name)  # `GAME:KEY=VALUE` for this game's logs, plain ones for all
    try:
        refuse_unknown(pack, ruleset, options)  # the game's own words: an OverrideError names it
    except OverrideError as exc:
        exc.game = exc.game or pack.name
        raise
    return pack.check(source, name=name, ruleset=ruleset, form=form, options=options or None, whole=whole, keep=keep)


def parse(source: str | bytes | dict[str, Any], form: str | None = None, game: str | None = None) -> Parsed:
    """Read a log in either form whole; a Parsed (log, findings, malformed, text)."""
    return game_of(source, game).parse(source, form)


def witness(
    source: str | bytes | dict[str, Any], *, name: str = "<input>", ruleset: str | None = None, form: str | None = None
) -> tuple[str | None, Report]:
    """Check a log and, when it is legal, write its witness: the same log with every face-down
    card replaced by a card (a game whose notation has face-down cards; DOS's notation.md)."""
    pack = game_of(source)
    if "witness" not in pack.capabilities:
        return None, pack.check(source, name=name, ruleset=ruleset, form=form)
    return pack.witness(source, name=name, ruleset=ruleset, form=form)


def convert(source: str | bytes | dict[str, Any], to: str, game: str | None = None) -> tuple[str | None, list[Finding]]:
    """Text to JSON (`to="json"`) or JSON to text (`to="text"`), without loss but comments.

    Returns the converted log, or None and the findings when the input cannot be read."""
    pack = game_of(source, game)
    parsed = pack.parse(source, "text" if to == "json" else "json")
    if parsed.malformed or parsed.log is None or any(f.severity == "error" for f in parsed.findings):
        return None, list(parsed.findings)
    return (pack.dump_json(parsed.log) if to == "json" else pack.write(parsed.log)), list(parsed.findings)
