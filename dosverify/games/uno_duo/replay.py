"""The table after every turn of a UNO Duo log, as the referee sees it (`dosverify replay`).

It drives the referee as Referee.run does, a turn at a time, and reads its state between turns:
the top card and colour, both hands, the draw pile's count, what is pending (a volley's total, a
WD4), each player's UNO state, and the findings made in the turn; after a round's last turn, a
row with ``score``: the round's score and the running totals as the log writes them and as the
referee counts them (pagereplay's)."""

from __future__ import annotations

from typing import Any


def _hand(counter) -> list[str]:
    return sorted(c for c, n in counter.items() for _ in range(n))


def table(ref) -> dict[str, Any]:
    """The referee's state now, as plain data."""
    st = ref.st
    facing = st.facing
    return {
        "round": st.number,
        "top": st.discards[-1] if st.discards else None,
        "colour": st.top_colour,
        "hands": {p: _hand(st.hands.get(p, {})) for p in ref.players},
        "pile": len(st.pile),
        "pending": None if facing is None else {"kind": facing.kind, "player": facing.player, "total": facing.total},
        "owed": None if st.owed is None else {"player": st.owed.player, "cards": st.owed.n, "rule": st.owed.rule},
        "uno": {
            p: {"called": c.called, "caught": c.caught}
            for p, c in st.calls.items()
            if p in ref.players and sum(st.hands.get(p, {}).values()) == 1
        },
        "totals": dict(ref.totals),
    }


def replay(
    source, *, name: str = "<input>", ruleset: str | None = None, options: dict[str, str] | None = None
) -> dict[str, Any]:
    """The report of the log and the table after each turn (`states`: round, turn, player, table,
    the findings the turn made); a malformed log has its report and no states."""
    from .check import check
    from .referee import Referee
    from .spec import spec

    report = check(source, name=name, ruleset=ruleset, options=options, whole=True)
    done = report.referee
    if done is None:
        return {"report": report.to_dict(), "states": []}
    from .pagereplay import _round_score

    ref = Referee(done.log, done.rs, spec())
    states: list[dict[str, Any]] = []
    turns = 0
    for rnd in ref.log.rounds:
        ref.round_line(rnd)
        for turn in rnd.turns:
            before = len(ref.findings)
            ref.turn_line(turn)
            for ev in turn.events:
                ref.event(ev)
            if ref.st is not None:
                turns += 1
                found = [f.to_dict() for f in ref.findings[before:]]
                states.append(
                    {
                        "turn": turns,
                        "line": turn._line,
                        "player": turn.player,
                        **table(ref),
                        "findings": found,
                        "score": None,
                    }
                )
        before = len(ref.findings)
        ref.round_close(rnd)
        if ref.st is not None and (ref.st.over or rnd.score is not None or rnd.totals is not None):
            at = [x._line for x in (rnd.score, rnd.totals) if x is not None and x._line is not None]
            states.append(
                {
                    "turn": turns,
                    "line": min(at, default=None),
                    "player": None,
                    **table(ref),
                    "findings": [f.to_dict() for f in ref.findings[before:]],
                    "score": _round_score(ref, rnd),
                }
            )
    return {"report": report.to_dict(), "states": states}
