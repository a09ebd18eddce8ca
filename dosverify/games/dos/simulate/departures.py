"""Where an engine option (V12-V17) makes a simulated game depart from `official`, as the
referee judges it under `official`: found after each turn and each deal, then placed at the
lines of the text log, for the tests of the engine options and `simulate --departures`.

V12-V17 are the digest's engine variants (`dosverify explain V12`, spec/dos/READINGS.md)."""

from __future__ import annotations

from collections import Counter

from .emit import header_lines
from .state import Event, Place, SimState

Found = list[tuple[int, str, str]]  # (event index in the turn, kind, rule)


def judge_turn(sim: SimState, ri: int, ti: int, at_once: bool) -> None:
    """After a turn: which of its lines `official` judges out of order (V12-V14), and whether the
    round ended with steps `official` still owes (V15)."""
    p, evs = sim.rounds[ri]["turns"][ti]
    found = _out_of_order(sim, p, evs) + _reshuffles(sim, ri, ti, evs)
    for i, kind, rule in sorted(found):
        sim.departures.append((("turn", ri, ti, i), kind, rule))
    _lapsed_draws(sim, p, ri, ti, at_once)
    if at_once:
        _ended_at_once(sim, ri, evs)


def _out_of_order(sim: SimState, p: str, evs: list[Event]) -> Found:
    """Draws made at once that `official` takes for a step out of order (V12-V14)."""
    cls = sim.turn_cls
    found: Found = []

    def later_below(i: int, step: int) -> bool:
        return any(c is not None and c < step for c in cls[i + 1 :])

    for i in sim.cand_dcm:  # V12: drawn before a later line of an earlier step
        if later_below(i, 4):
            found.append((i, "draw-order", "bonus.draw-time"))
        elif later_below(i, 5):  # only the DOS penalty after it: a step out of order (R9)
            found.append((i, "draw-order", "turn.steps"))
    for i in sim.cand_penalty:  # V14: the penalty drawn before a later line of an earlier step
        if later_below(i, 4):
            found.append((i, "draw-order", "turn.steps"))
    official = sim.others_from_left(p)
    for start, end in sim.dcm_groups:  # V13: a draw while a player before them in seat order still owes
        draws = [(i, evs[i][1], len(evs[i][2])) for i in range(start, end) if evs[i][0] == "draw" and cls[i] == 5]
        left: Counter[str] = Counter()
        for _, q, n in draws:
            left[q] += n
        for i, q, n in draws:
            if any(left[r] > 0 for r in official[: official.index(q)]):
                found.append((i, "draw-order", "turn.steps"))
                break
            left[q] -= n
    return found


def _reshuffles(sim: SimState, ri: int, ti: int, evs: list[Event]) -> Found:
    """Reshuffles whose cards `official` counts otherwise: this turn's matched cards taken in (V17), or a
    listed reshuffle inside draws made at once, before the discard (V12, V14)."""
    cls = sim.turn_cls
    found: Found = []
    for i, listed in sim.v17_shuffles:
        nxt = next((j for j in range(i + 1, len(evs)) if evs[j][0] in ("draw", "refill")), None)
        mid = (nxt is not None and cls[nxt] is None) or any(c is not None and c < 4 for c in cls[i + 1 :])
        if listed and mid:
            found.append((i, "card-accounting", "reshuffle.cards"))
        elif not listed and not mid:  # `official` discards the matched cards first: nothing to see
            at = ("turn", ri, ti, i)
            if sim.taken_in is not None and sim.taken_in[0] == at:
                sim.taken_in = None
            sim.departures = [d for d in sim.departures if d[0] != at]
    for i in sim.reshuffles_mid:
        if not any(c is not None and c < 4 for c in cls[i + 1 :]):
            found.append((i, "card-accounting", "reshuffle.cards"))
    return found


def _lapsed_draws(sim: SimState, p: str, ri: int, ti: int, at_once: bool) -> None:
    """V12, V14: draws that lapsed at once, where at the end of the turn the discards could pay them (R18)."""
    if not (sim.lapsed or sim.penalty_lapsed) or at_once or not (sim.pile or sim.discard):
        return
    if sim.hands[p]:
        if sim.penalty_lapsed:
            sim.departures.append((("after", ri, ti), "dos-call", "dos.penalty"))
        for _ in dict.fromkeys(sim.lapsed):
            sim.departures.append((("after", ri, ti), "missed-bonus", "bonus.draw"))
    else:  # the round ends: one finding for the steps still owed (R55)
        kind_rule = ("missed-bonus", "bonus.draw") if sim.lapsed else ("dos-call", "dos.penalty")
        sim.departures.append((("after", ri, ti), *kind_rule))


def _ended_at_once(sim: SimState, ri: int, evs: list[Event]) -> None:
    """V15: the round ended on the line that emptied the hand, with a step `official` still owes."""
    can_draw = bool(sim.pile or sim.discard or sim.covered or sim.used)
    if len(sim.cr) < 2 and can_draw and any(e[0] == "match" for e in evs):
        sim.departures.append((("score", ri), "card-accounting", "center.refill"))
    elif (sim.dcm or sim.last_dcm or sim.lapsed) and can_draw:
        sim.departures.append((("score", ri), "missed-bonus", "bonus.draw"))
    elif (sim.pending or sim.penalty_lapsed) and can_draw:
        sim.departures.append((("score", ri), "dos-call", "dos.penalty"))


def judge_deal(sim: SimState, ri: int, deck: list[str], order: list[str]) -> None:
    """V16: with a `deck` and a deal from the first seat, the first line that plays a card the
    player would not hold after the deal from the dealer's left (V9) shows the deal."""
    if not sim.with_deck or sim.opt["deal-from"] != "first-seat" or order == sim.names:
        return
    n = len(sim.names)
    held = {p: Counter(deck[k] for k in range(7 * n) if order[k % n] == p) for p in sim.names}
    for ti, (p, evs) in enumerate(sim.rounds[ri]["turns"]):
        for i, e in enumerate(evs):
            if e[0] == "draw":
                held[e[1] or p].update(e[2])
            elif e[0] in ("match", "place"):
                for c in e[2] if e[0] == "match" else [e[1]]:
                    b = c.split("=")[0]
                    if held[p][b] <= 0:
                        sim.departures.append((("turn", ri, ti, i), "draw-order", "setup.deal"))
                        return
                    held[p][b] -= 1


def departure_lines(sim: SimState) -> list[tuple[int, str, str]]:
    """The departures as (line, kind, rule) of the text log (:func:`.emit.to_text`), in line order."""
    where: dict[Place, int] = {}
    line = len(header_lines(sim))
    after: Place | None = None  # the last turn's place for "the line after it"
    for ri, r in enumerate(sim.rounds):
        line += 1
        if after is not None:  # a round cut off: its `round` line
            where[after] = line + 1
        line += 1 + len(r["setup"])  # the blank line, `round N`, the set-up
        for ti, (_, evs) in enumerate(r["turns"]):
            if after is not None:
                where[after] = line + 1
            line += 1
            for i in range(len(evs)):
                where[("turn", ri, ti, i)] = line + 1 + i
            line += len(evs)
            after = ("after", ri, ti)
        where[("score", ri)] = line + 1
        if r["score"]:
            if after is not None:  # (a round is scored after a turn)
                where[after] = line + 1
            after = None
        line += bool(r["score"]) + bool(r["totals"])
    if after is not None:
        where[after] = line + 1 + bool(sim.winner)
    return sorted((where[at], kind, rule) for at, kind, rule in sim.departures)
