"""`event report`: one self-contained HTML file for an event (inline CSS, no script, no request
leaves it), from the Jinja2 templates beside this module: the standings, every game with its
verdict and result, and for each game that is not legal its findings with the lines around
them and the text of the rule each names."""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, select_autoescape

from .db import game_title, readable
from .judge import rule_texts
from .standings import DEFAULT_ORDER, outcome, rule_text

CONTEXT = 2  # lines shown before and after a finding's line


@cache
def _env() -> Environment:
    return Environment(
        loader=PackageLoader("dosverify.store", "templates"),
        autoescape=select_autoescape(("html", "j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def excerpt(text: str, line: int | None, context: int = CONTEXT) -> list[tuple[int, str, bool]]:
    """The lines around ``line`` as (number, text, is-the-line)."""
    if line is None:
        return []
    lines = text.splitlines()
    lo, hi = max(1, line - context), min(len(lines), line + context)
    return [(n, lines[n - 1], n == line) for n in range(lo, hi + 1)]


def _flagged(store, game: dict) -> dict:
    """A game that is not legal, with what the hand-out shows of it."""
    text = store.log_bytes(game["id"]).decode("utf-8", "replace")
    findings = game["report"].get("findings", [])
    rules = rule_texts(game["game"], {f["rule"] for f in findings})
    shown = [{**f, "excerpt": excerpt(text, f.get("line")), "rule_text": rules.get(f["rule"])} for f in findings]
    return {**game, "findings": shown}


def render_event(store, event: dict, *, order=DEFAULT_ORDER, count_illegal: bool = False) -> str:
    games = store.games(event["id"])
    for g in games:
        g["outcome"] = outcome(g["verdict"], g["result"])
        g["players"] = ", ".join((g["result"] or {}).get("players", []))
        g["title"] = game_title(g["game"])
        g["submitted"] = readable(g["submitted"])
    flagged = [_flagged(store, g) for g in games if g["verdict"] != "legal"]
    ranked = store.ranking(event["id"], order=order, count_illegal=count_illegal)
    tables = [{**t, "rule": rule_text(t)} for t in ranked["tables"]]
    return (
        _env()
        .get_template("report.html.j2")
        .render(
            event=event,
            created=readable(event["created"]),
            tables=tables,
            mixed=len(tables) > 1,
            order=order,
            count_illegal=count_illegal,
            games=games,
            flagged=flagged,
            counts={v: sum(1 for g in games if g["verdict"] == v) for v in ("legal", "illegal", "malformed")},
        )
    )
