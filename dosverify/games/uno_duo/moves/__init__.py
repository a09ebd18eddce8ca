"""UNO Duo's move generator for the move API (issue 33; dosverify.moves.protocol.PackMoves): a
position read from a log or dealt from a seed, which lists what may come next and plays it fast.

Separate from the referee on purpose (the referee judges, this lists: tests hold the two equal),
but built on the referee's state: a log's position is the state the referee is in after its
lines, a prefix with mistakes included."""

from __future__ import annotations

import json

from ....moves.model import NotAPosition
from .fromlog import check_position, position_of, replay, text_lines, valid_ranges
from .position import UnoPosition

__all__ = ["UnoDuoMoves", "UnoPosition"]


class UnoDuoMoves:
    """``GamePack.moves()`` of UNO Duo."""

    def from_log(
        self,
        source: str | bytes | dict,
        form: str | None,
        after: int | None,
        ruleset: str | None,
        options: dict[str, str],
    ) -> tuple[UnoPosition, int]:
        """The position after the first `after` physical lines (JSON: event objects); NotAPosition
        names the valid ranges. A log that cannot be read raises ValueError (the table says why)."""
        if form == "json" or isinstance(source, dict):
            return self._from_json(source, after, ruleset, options)
        text = bytes(source).decode("utf-8") if isinstance(source, (bytes, bytearray)) else str(source)
        lines = text_lines(text)
        end = len(lines) if after is None else after
        if after is not None or lines:
            check_position(lines, end)
        return self._replay(lines[:end], ruleset, options), end

    def _from_json(self, source, after, ruleset, options) -> tuple[UnoPosition, int]:
        from ..jsonform import load_json
        from ..notation import write

        parsed = load_json(json.dumps(source) if isinstance(source, dict) else source)
        if parsed.malformed or parsed.log is None:
            raise ValueError("the JSON log cannot be read")
        lines = text_lines(write(parsed.log))
        events = [i + 1 for i, raw in enumerate(lines) if raw.strip()]
        head = next((k for k, no in enumerate(events) if lines[no - 1].startswith("round ")), len(events))
        count = len(events) - head
        k = count if after is None else after
        line_of = [events[head + i - 1] if i else events[head - 1] for i in range(count + 1)]
        ranges = valid_ranges(lines)
        ok = [i for i, no in enumerate(line_of) if any(a <= no <= b for a, b in ranges)]
        if k not in ok:
            spans = _spans(ok)
            said = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans) or "none"
            why = f"the log has {count} event objects" if not 0 <= k <= count else "not a position (the set-up)"
            raise NotAPosition(f"no position after event {k}: {why}; positions: events {said}", spans)
        upto = line_of[k]
        return self._replay(lines[:upto], ruleset, options), k

    def from_judged(self, source, after, ruleset, options, judge):
        """The optional hook of ``PackMoves``: a text log's position and the referee's report on its
        first lines, read once (the position replayed from the log the referee's reader read). None
        when the text's lines would be split otherwise by the core than by this reader."""
        text = bytes(source).decode("utf-8", "replace") if isinstance(source, (bytes, bytearray)) else str(source)
        lines = text_lines(text)
        if text.removeprefix("\ufeff").splitlines() != lines:
            return None  # a form feed, a lone CR, ...: from_log reads it line by line as the reader does
        end = len(lines) if after is None else after
        if after is not None or lines:
            check_position(lines, end)
        report = judge(end)
        ref = getattr(report, "referee", None)
        if report.verdict == "malformed" or ref is None:
            return None
        return self._position(ref.log, lines[:end], ruleset, options), end, report

    def _replay(self, lines: list[str], ruleset: str | None, options: dict[str, str]) -> UnoPosition:
        from ..notation import parse

        parsed = parse("\n".join(lines) + "\n")
        if parsed.malformed or parsed.log is None:
            raise ValueError("the log cannot be read")
        return self._position(parsed.log, lines, ruleset, options)

    def _position(self, log, lines: list[str], ruleset: str | None, options: dict[str, str]) -> UnoPosition:
        from ..check import _spec

        spec = _spec()
        rs = spec.ruleset(ruleset or log.ruleset or "official", {**log.options, **(options or {})}, log.target)
        ref = replay(log, rs, spec)
        return position_of(ref, log, rs, lines)

    def new(self, players: list[str], ruleset: str, options: dict[str, str], seed: int) -> UnoPosition:
        """A fresh game: its header, each round's deck from `seed` (``round 1`` is the first move)."""
        from ..check import _spec

        if len(players) != 2 or players[0] == players[1]:
            raise ValueError("UNO Duo is played by 2 players with two names")
        rs = _spec().ruleset(ruleset or "official", options)
        pos = UnoPosition(players, dict(rs.options), rs.target, seed, fresh=True)
        pos.body = ["uno-duo 1", "players " + " ".join(players)]
        if ruleset and ruleset != "official":
            pos.body.append(f"ruleset {ruleset}")
        pos.body += [f"option {k} {v}" for k, v in (options or {}).items()]
        return pos


def _spans(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive numbers as inclusive ranges."""
    spans: list[tuple[int, int]] = []
    for n in numbers:
        if spans and spans[-1][1] == n - 1:
            spans[-1] = (spans[-1][0], n)
        else:
            spans.append((n, n))
    return spans
