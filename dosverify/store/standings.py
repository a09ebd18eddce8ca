"""An event's standings: per player, games, wins, rounds won, points and illegal games, ranked by
a stated tie-break order. Game-free: each game's result (who played, who won, rounds and points)
comes from its pack (``GamePack.result``), so each game is ranked by its own rules.

How a game counts (docs/events.md):
- a legal game counts in full (games, rounds won, points; a win when it has a winner);
- an illegal game counts in each of its players' ``illegal``; in the rest only with
  ``count_illegal`` (the organiser's choice: ``--count-illegal``);
- an unfinished game (it did not reach its end) counts as played, its rounds and points too,
  but has no winner;
- a malformed log has no result: it is listed with the games, never in the standings.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the keys a tie-break order may name; each ranks in its natural direction (more wins, points,
#: rounds won and games first; fewer illegal games first)
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


def standings(
    results: list[tuple[str, dict | None]],
    *,
    aliases: dict[str, str] | None = None,
    order: tuple[str, ...] = DEFAULT_ORDER,
    count_illegal: bool = False,
) -> list[dict]:
    """The standings in rank order from (verdict, result) pairs; ties past the whole order go
    by the player's name, so that the order is the same on every run."""
    names = aliases or {}
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
    ranked = sorted(rows.values(), key=lambda r: (*(KEYS[k] * getattr(r, k) for k in order), r.player))
    return [r.as_dict() for r in ranked]


def outcome(verdict: str, result: dict | None) -> str:
    """A game's result in words for the lists: `won by P`, `unfinished`, `no winner`, or `-`."""
    if result is None:
        return "-"
    if not result.get("finished"):
        return "unfinished"
    return f"won by {result['winner']}" if result.get("winner") else "no winner"
