"""Tiny's referee: replays a log's rounds and says every rule broken (one finding a mistake); the
pack's parts of dosverify's data path (reading, the referee, the finding for an unknown ruleset)
and its replay (the generic view's states)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from dosverify.findings import Finding, make_finding
from dosverify.jsondoc import sniff_json
from dosverify.model import Parsed
from dosverify.spec import Ruleset, SpecError

from .log import Round, TinyLog, parse_json, parse_text, where
from .spec import spec


def follows(card: str, top: str) -> bool:
    """README section 3: higher than the last card, or of its suit."""
    return card[0] == top[0] or int(card[1:]) > int(top[1:])


def parse(source: Any, form: str | None = None) -> Parsed:
    """A log in either form, the reader's findings in line order."""
    parsed = parse_json(source) if form == "json" or (form is None and sniff_json(source)) else parse_text(source)
    parsed.findings.sort(key=_order)
    return parsed


OnTurn = Callable[[Round, int, Any, dict[str, Any]], None]


class Referee:
    def __init__(self, log: TinyLog, rs: Ruleset, on_turn: OnTurn | None = None) -> None:
        self.log, self.rs, self.on_turn = log, rs, on_turn
        self.findings: list[Finding] = []
        self.totals = dict.fromkeys(log.players, 0)
        self.rounds_seen = self.turns_seen = 0
        self.game_over = False

    def report(self, rule: str, message: str, at: dict, **kw: Any) -> None:
        self.findings.append(make_finding(spec(), rule, message, **at, **kw))

    def other(self, player: str) -> str:
        a, b = self.log.players
        return b if player == a else a

    def run(self, rounds: Iterable[Round] | None = None) -> list[Finding]:
        for rnd in self.log.rounds if rounds is None else rounds:
            self.round(rnd, self.on_turn)
        self.winner()
        return self.findings

    def round(self, rnd: Round, on_turn: OnTurn | None) -> None:
        log = self.log
        if self.game_over:
            self.report("turn.order", f"round {rnd.number} is played after the game ended", where(rnd))
            return
        self.rounds_seen += 1
        seen: set[str] = set()
        hands: dict[str, list[str]] = {}
        for p in log.players:
            hands[p] = []
            for c in rnd.deal.get(p, []):
                if c in seen:
                    self.report(
                        "play.held",
                        f"{c} is dealt twice: each card is in the deck once",
                        where(rnd, f"deal:{p}"),
                        found=c,
                    )
                    continue
                seen.add(c)
                hands[p].append(c)
        top = rnd.start
        if top in seen:
            self.report("play.held", f"{top} is turned up, but it was dealt", where(rnd, "start"), found=top)
        seen.add(top)
        on_turn_player = log.players[(rnd.number - 1) % 2]

        def over() -> bool:
            if any(not h for h in hands.values()):
                return True
            stuck = not any(follows(c, top) for c in hands[on_turn_player])
            return stuck and len(seen) >= 18

        for i, turn in enumerate(rnd.turns):
            at = where(turn)
            if over():
                self.report(
                    "turn.order", f"{turn.player} takes a turn after round {rnd.number} ended", at, player=turn.player
                )
                continue
            self.turns_seen += 1
            if turn.player != on_turn_player:
                self.report(
                    "turn.order",
                    f"it is {on_turn_player}'s turn, not {turn.player}'s",
                    at,
                    player=turn.player,
                    expected=on_turn_player,
                    found=turn.player,
                    round=rnd.number,
                    turn=i + 1,
                )
            hand = hands[turn.player]
            if turn.action == "play":
                if turn.card not in hand:
                    why = "it was played or turned up already" if turn.card in seen else "it is not in their hand"
                    self.report(
                        "play.held",
                        f"{turn.player} plays {turn.card}, but {why}",
                        at,
                        player=turn.player,
                        found=turn.card,
                        round=rnd.number,
                        turn=i + 1,
                    )
                elif not follows(turn.card, top):
                    self.report(
                        "play.follow",
                        f"{turn.card} is neither higher than {top} nor of its suit",
                        at,
                        player=turn.player,
                        found=turn.card,
                        expected=f"a card above {top[1:]}, or a {'red' if top[0] == 'R' else 'blue'} card",
                        round=rnd.number,
                        turn=i + 1,
                    )
                if turn.card in hand:
                    hand.remove(turn.card)
                top = turn.card
                seen.add(turn.card)
            else:
                can = sorted(c for c in hand if follows(c, top))
                if can and self.rs.opt("forced-play") == "must":
                    self.report(
                        "draw.stuck",
                        f"{turn.player} draws, but could play {', '.join(can)} on {top}",
                        at,
                        player=turn.player,
                        round=rnd.number,
                        turn=i + 1,
                    )
                if turn.card in seen:
                    self.report(
                        "play.held",
                        f"{turn.player} draws {turn.card}, but it is already in play",
                        at,
                        player=turn.player,
                        found=turn.card,
                        round=rnd.number,
                        turn=i + 1,
                    )
                else:
                    seen.add(turn.card)
                hand.append(turn.card)
            on_turn_player = self.other(turn.player)
            if on_turn is not None:
                on_turn(rnd, i, turn, {"top": top, "hands": hands, "pile": 18 - len(seen), "round_over": over()})
        ended = over()
        is_last = rnd is self.log.rounds[-1]
        if not ended and (rnd.score or not is_last):
            self.report(
                "turn.order",
                f"round {rnd.number} stops before it ended: {on_turn_player} is on turn and can play or draw",
                where(rnd),
                round=rnd.number,
            )
        if not ended:
            return
        for p in log.players:
            held = hands[p]
            want = sum(int(c[1:]) for c in held)
            if held and p not in rnd.score:
                self.report(
                    "score.round",
                    f"{p} holds {' '.join(held)} at the end of round {rnd.number} and has no score",
                    where(rnd),
                    player=p,
                    expected=f"score {p} {want}",
                )
            elif p in rnd.score and rnd.score[p] != (want if held else 0):
                exp = f"score {p} {want}" if held else f"no score: {p} holds no card"
                self.report(
                    "score.round",
                    f"{p} scores {rnd.score[p]}, but holds {' '.join(held) or 'nothing'}",
                    where(rnd, f"score:{p}"),
                    player=p,
                    expected=exp,
                    found=str(rnd.score[p]),
                )
            elif p in rnd.score and not held:
                self.report("score.round", f"{p} holds no card: no score", where(rnd, f"score:{p}"), player=p)
            self.totals[p] += want if held else 0
        a, b = (self.totals[p] for p in log.players)
        self.game_over = max(a, b) >= self.rs.target and a != b

    def winner(self) -> None:
        log = self.log
        if log.winner is None:
            return
        at = where(log, "winner")
        if not self.game_over:
            self.report(
                "score.round",
                f"`winner {log.winner}`, but the game has not ended (totals {self._totals()})",
                at,
                found=log.winner,
            )
            return
        best = min(log.players, key=lambda p: self.totals[p])
        if log.winner != best:
            self.report(
                "score.round",
                f"{log.winner} is not the winner: the lower total wins ({self._totals()})",
                at,
                expected=best,
                found=log.winner,
            )

    def _totals(self) -> str:
        return ", ".join(f"{p} {n}" for p, n in self.totals.items())


def ruleset_finding(log: TinyLog, exc: SpecError) -> Finding:
    """notation.line at the log's ruleset or option line that the spec does not have."""
    sp = spec()
    if log.ruleset is not None and log.ruleset not in sp.rulesets:
        key = "ruleset"
    else:
        key = next(
            (f"option:{k}" for k, v in log.options.items() if k not in sp.options or v not in sp.options[k]["values"]),
            "ruleset",
        )
    return make_finding(sp, "notation.line", str(exc), **where(log, key))


def _order(f: Finding) -> tuple[int, int]:
    return (f.line if f.line is not None else 1 << 60, f.column or 0)


def replay(source: Any, *, name: str = "<input>", ruleset=None, form=None, options=None) -> dict[str, Any]:
    """The generic replay (dosverify.replayview): the report and, after every turn, its line, its
    findings and the table as key/value state."""
    states: list[dict[str, Any]] = []
    turn_counts: dict[int, int] = {}

    def on_turn(rnd: Round, i: int, turn: Any, table: dict[str, Any]) -> None:
        turn_counts[rnd.number] = turn_counts.get(rnd.number, 0) + 1
        states.append(
            {
                "index": len(states),
                "round": rnd.number,
                "turn": i + 1,
                "player": turn.player,
                "line": turn._line,
                "end_line": turn._line,
                "pointer": turn._pointer,
                "round_over": table["round_over"],
                "state": {
                    "action": f"{turn.action} {turn.card}",
                    "top card": table["top"],
                    **{f"hand of {p}": " ".join(sorted(h)) or "(empty)" for p, h in table["hands"].items()},
                    "draw pile": table["pile"],
                },
                "findings": [],
            }
        )

    from . import PACK

    report = PACK.check(source, name=name, ruleset=ruleset, form=form, options=options, whole=True)
    ref = report.referee
    if ref is not None:  # the judged log again, watched turn by turn (the findings are the report's)
        Referee(ref.log, ref.rs, on_turn).run()
    for k, f in enumerate(report.findings):
        for s in states:
            if (f.line is not None and f.line == s["line"]) or (f.pointer is not None and f.pointer == s["pointer"]):
                s["findings"].append(k)
    players = list(ref.log.players) if ref is not None else []
    totals = dict(ref.totals) if ref is not None else {}
    return {
        "game": "tiny",
        "view": "generic",
        "report": report.to_dict(),
        "players": players,
        "states": states,
        "totals": totals,
    }
