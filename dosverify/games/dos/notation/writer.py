"""The canonical text of a log (what `fmt` and the generators write)."""

from __future__ import annotations

import json
import re

from ..events import Log, word

_NEEDS_QUOTE = re.compile(r'[ \t\r\n#"]')


def _value(v: str) -> str:
    if not v or _NEEDS_QUOTE.search(v):
        return json.dumps(v, ensure_ascii=False)
    return v


def _event_line(ev) -> str:
    t = ev.type
    if t == "match":
        return f"match {ev.target} with " + " + ".join(ev.cards)
    if t == "draw":
        return " ".join(["draw"] + ([ev.player] if ev.player else []) + [word(c) for c in ev.cards])
    if t in ("refill", "reshuffle", "deck", "center"):
        return " ".join([t] + list(ev.cards))
    if t == "place":
        return f"place {ev.card}"
    if t == "pass":
        return "pass"
    if t == "dos":
        return f"dos {ev.player}" if ev.player else "dos"
    if t == "catch":
        return f"catch {ev.player} by {ev.by}"
    if t == "dealer":
        return f"dealer {ev.player}"
    if t == "hand":
        return " ".join(["hand", ev.player] + [word(c) for c in ev.cards])
    raise ValueError(f"unknown event type {t!r}")


def write(log: Log) -> str:
    """The log as canonical text: one line per event, turn events indented two spaces."""
    out = ["dos 1", "players " + " ".join(log.players)]
    if log.ruleset is not None:
        out.append(f"ruleset {_value(log.ruleset)}")
    for k, v in log.options.items():
        out.append(f"option {k} {_value(v)}")
    if log.target is not None:
        out.append(f"target {log.target}")
    for k, v in log.tags.items():
        out.append(f"{k} {_value(v)}")
    for rnd in log.rounds:
        out.append("")
        out.append(f"round {rnd.number}")
        out.extend(_event_line(ev) for ev in rnd.setup)
        for turn in rnd.turns:
            out.append(f"turn {turn.player}")
            out.extend("  " + _event_line(ev) for ev in turn.events)
        out.extend("show " + " ".join([sh.player] + list(sh.cards)) for sh in rnd.shows)
        if rnd.score is not None:
            out.append(f"score {rnd.score.player} {rnd.score.points}")
        if rnd.totals is not None:
            out.append("totals " + " ".join(f"{e.player} {e.points}" for e in rnd.totals.entries))
    if log.winner is not None:
        out.append(f"winner {log.winner.player}")
    return "\n".join(out) + "\n"
