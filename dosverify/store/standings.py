"""An event's standings: per player, games, wins, rounds won, points and illegal games, ranked by
a stated tie-break order. Game-free: each game's result (who played, who won, rounds and points)
comes from its pack (``GamePack.result``), so each game is ranked by its own rules, and which
points are the better ones is the pack's too (``GamePack.result_rule``: more in DOS, fewer in
UNO Duo, whose lowest total wins).

How a game counts (docs/events.md):
- a legal game counts in full (games, rounds won, points; a win when it has a winner);
- an illegal game counts in each of its players' ``illegal``; in the rest only with
  ``count_illegal`` (the organiser's choice: ``--count-illegal``);
- an unfinished game (it did not reach its end) counts as played, its rounds and points too,
  but has no winner;
- a malformed log has no result: it is listed with the games, never in the standings;
- each game is ranked in its own table (a mixed event has one per game), `points` the better
  total first by the game's rule; when fewer is better, a player with no game counted has no
  total and comes after those with one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..games import UnknownGame, find_game

#: the keys a tie-break order may name; each ranks in its natural direction (more wins, rounds
#: won and games first; fewer illegal games first); `points` ranks the better points first, by
#: the event's games' rule (points_better): the sign here is the "higher" one, turned for "lower"
KEYS: dict[str, int] = {"wins": -1, "points": -1, "rounds_won": -1, "games": -1, "illegal": 1}
DEFAULT_ORDER: tuple[str, ...] = ("wins", "points", "illegal")
FIELDS = ("player", "games", "wins", "rounds_won", "points", "illegal")


class BadOrder(ValueError):
    """A tie-break order naming a key there is not."""


def parse_order(text: str | None) -> tuple[str, ...]:
    """``"wins,points,illegal"`` -> the order; an unknown key is BadOrder."""
    if not text:
        return DEFAULT_ORDER
    order = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))  # a key again adds nothing
    bad = [k for k in order if k not in KEYS]
    if bad or not order:
        raise BadOrder(f"tie-break keys are a comma-separated list of distinct {', '.join(KEYS)}; got `{text}`")
    return order


@dataclass
class _Row:
    player: str
    games: int = 0
    wins: int = 0
    rounds_won: int = 0
    points: int = 0
    illegal: int = 0

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in FIELDS}


def _rule(name: str) -> dict | None:
    """How the game ``name`` is won (its pack's ``result_rule``): ``game``, ``title``,
    ``points_better``, ``summary``; None for a game no pack has now."""
    try:
        pack = find_game(name)
    except UnknownGame:
        return None
    rule = pack.result_rule
    return {"game": pack.name, "title": pack.title, "points_better": rule.points_better, "summary": rule.summary}


def game_rules(results: list[tuple[str, dict | None]]) -> list[dict]:
    """How each game of the event is won (its pack's ``result_rule``), one entry per game that
    some result is of, by game name: ``game``, ``title``, ``points_better``, ``summary``. A
    result without a game (none is stored so) or of a game no pack has now is left out: its
    points rank as before the packs said how (more first)."""
    names = sorted({r["game"] for _, r in results if r is not None and r.get("game")})
    return [rule for name in names if (rule := _rule(name)) is not None]


def points_better(rules: list[dict]) -> Literal["higher", "lower"]:
    """Which points rank first among results of these games: their rule when they all say
    "lower" (UNO Duo's lowest total wins), else more first (DOS; a game no pack has now).
    :func:`ranking` ranks each game apart, so its tables never mix the two."""
    said = {r["points_better"] for r in rules}
    return "lower" if said == {"lower"} else "higher"


def ranking(
    results: list[tuple[str, dict | None]],
    *,
    aliases: dict[str, str] | None = None,
    order: tuple[str, ...] = DEFAULT_ORDER,
    count_illegal: bool = False,
) -> dict:
    """The standings, one table per game (issue 35: DOS's and UNO Duo's points are never summed,
    each game's better points rank first): ``tables``, each with the game's ``game``, ``title``,
    ``points_better``, ``summary`` and ``standings`` (its rows in rank order), by game name;
    ``standings``, every table's rows in turn, each row naming its ``game``; ``points_better``,
    the rule every table shares (None when they differ); ``rules``, each game's
    (:func:`game_rules`)."""
    by_game: dict[str, list[tuple[str, dict | None]]] = {}
    for verdict, result in results:
        if result is not None:
            by_game.setdefault(result.get("game") or "", []).append((verdict, result))
    tables = []
    for name in sorted(by_game):
        rule = _rule(name) if name else None
        rule = rule or {
            "game": name or None,
            "title": name or "unnamed game",
            "points_better": "higher",
            "summary": None,
        }
        rows = standings(
            by_game[name], aliases=aliases, order=order, count_illegal=count_illegal, better=rule["points_better"]
        )
        tables.append({**rule, "standings": rows})
    said = {t["points_better"] for t in tables}
    return {
        "standings": [{**row, "game": t["game"]} for t in tables for row in t["standings"]],
        "points_better": said.pop() if len(said) == 1 else (None if said else "higher"),
        "rules": game_rules(results),
        "tables": tables,
    }


def standings(
    results: list[tuple[str, dict | None]],
    *,
    aliases: dict[str, str] | None = None,
    order: tuple[str, ...] = DEFAULT_ORDER,
    count_illegal: bool = False,
    better: Literal["higher", "lower"] | None = None,
) -> list[dict]:
    """The standings in rank order from (verdict, result) pairs; ties past the whole order go
    by the player's name, so that the order is the same on every run. ``points`` ranks the
    ``better`` points first (default: by the results' games, :func:`points_better`)."""
    names = aliases or {}
    if better is None:
        better = points_better(game_rules(results))
    signs = {**KEYS, "points": -1 if better == "higher" else 1}

    def key(r: _Row, k: str) -> int | tuple[bool, int]:
        if k == "points" and better == "lower":
            # no game counted (every one of them illegal and left out) is no total, not the best
            # one: such a player comes after those with a total (with "higher", 0 is last already)
            return (r.games == 0, r.points)
        return signs[k] * getattr(r, k)

    rows: dict[str, _Row] = {}

    def row(name: str) -> _Row:
        name = names.get(name, name)
        return rows.setdefault(name, _Row(name))

    for verdict, result in results:
        if result is None:
            continue
        illegal = verdict == "illegal"
        for p in result["players"]:
            r = row(p)
            if illegal:
                r.illegal += 1
            if illegal and not count_illegal:
                continue
            r.games += 1
            r.rounds_won += result["rounds_won"].get(p, 0)
            r.points += result["points"].get(p, 0)
        winner = result.get("winner")
        if winner is not None and result.get("finished") and (count_illegal or not illegal):
            row(winner).wins += 1
    ranked = sorted(rows.values(), key=lambda r: (*(key(r, k) for k in order), r.player))
    return [r.as_dict() for r in ranked]


def rule_text(table: dict) -> str:
    """How a table's points were ranked, in words, for the text output and the report: its
    game's rule and the points ranked first ("UNO Duo: the lowest total wins; fewer points rank
    first")."""
    first = "fewer points rank first" if table["points_better"] == "lower" else "more points rank first"
    said = f"{table['title']}: {table['summary']}" if table.get("summary") else table.get("title")
    return f"{said}; {first}" if said else first


def outcome(verdict: str, result: dict | None) -> str:
    """A game's result in words for the lists: `won by P`, `unfinished`, `no winner`, or `-`."""
    if result is None:
        return "-"
    if not result.get("finished"):
        return "unfinished"
    return f"won by {result['winner']}" if result.get("winner") else "no winner"
