"""Face-down cards (`?`) where they may not stand: the text form's checks, which the JSON form
(whose schema lets `?` stand anywhere) runs on its events too."""

from __future__ import annotations

from ....findings import Finding
from ..events import FACE_DOWN_WORD, Center, Deck, Draw, FaceDown, Hand, Log, Match, Place, Refill, Reshuffle, Round
from ..findings import finding


def face_down_checks(log: Log) -> list[Finding]:
    """For the JSON form, whose schema lets `"?"` stand wherever a card does: what the text
    form's parser reports (a `?` outside `hand` and `draw`, a repeated `show`), each at its
    pointer; such an event is left out, as the text form skips such a line."""
    out: list[Finding] = []
    for rnd in log.rounds:
        face_down_round(rnd, out)
    return out


def face_down_round(rnd: Round, out: list) -> None:
    """face_down_checks for one round (a round is judged on its own, so the JSON form can be
    read a round at a time): its findings are appended to `out`."""

    def bad(ev, cards) -> bool:
        if FACE_DOWN_WORD not in cards:
            return False
        if isinstance(ev, Place):
            ptr = f"{ev._pointer}/card"
        elif isinstance(ev, Match) and ev.target == FACE_DOWN_WORD:
            ptr = f"{ev._pointer}/target"
        else:
            ptr = f"{ev._pointer}/cards/{ev.cards.index(FACE_DOWN_WORD)}"
        out.append(
            finding(
                "notation.card",
                "`?` (a face-down card) stands only in `hand` and `draw` lines: cards in "
                "the Center Row, matched, placed, refilled or shown lie face up and are written",
                pointer=ptr,
                found="?",
                expected="a card code",
                help="write the card's code: it was face up",
            )
        )
        return True

    rnd.setup[:] = [ev for ev in rnd.setup if not (isinstance(ev, (Deck, Center)) and bad(ev, ev.cards))]
    for turn in rnd.turns:
        keep = [
            ev
            for ev in turn.events
            if not (
                isinstance(ev, (Match, Refill, Reshuffle, Place))
                and bad(
                    ev,
                    [ev.card]
                    if isinstance(ev, Place)
                    else ([ev.target] + ev.cards)
                    if isinstance(ev, Match)
                    else ev.cards,
                )
            )
        ]
        if len(keep) != len(turn.events):
            turn.events[:] = keep
            turn._damaged = True
    seen: dict = {}
    shows = []
    for sh in rnd.shows:
        if bad(sh, sh.cards):
            continue
        if sh.player in seen:
            out.append(
                finding(
                    "notation.repeated",
                    f"a second `show` for {sh.player} in round {rnd.number}",
                    pointer=sh._pointer,
                    found="show",
                    round=rnd.number,
                )
            )
            continue
        seen[sh.player] = sh
        shows.append(sh)
    rnd.shows[:] = shows
    _no_hidden_with_deck(rnd, out)


def _no_hidden_with_deck(rnd: Round, findings: list) -> None:
    """A round with a `deck` line has no `?`: its deal and draws are known. Such a line is
    reported at its first `?` and skipped, like any line that is not a sentence."""
    if not any(isinstance(ev, Deck) for ev in rnd.setup):
        return

    def bad(ev: Hand | Draw) -> bool:
        i = next((i for i, c in enumerate(ev.cards) if isinstance(c, FaceDown)), None)
        if i is None:
            return False
        cols = ev._cols.get("cards") if ev._cols else None
        col = cols[i] if isinstance(cols, list) and i < len(cols) else ev._column
        ptr = f"{ev._pointer}/cards/{i}" if ev._pointer is not None else None
        findings.append(
            finding(
                "notation.card",
                "`?` in a round with a `deck` line: the deck makes every dealt and "
                "drawn card known, so none is face down",
                line=ev._line,
                column=col,
                pointer=ptr,
                found="?",
                expected="a card code (or a bare `draw`)",
                round=rnd.number,
            )
        )
        return True

    rnd.setup[:] = [ev for ev in rnd.setup if not (isinstance(ev, Hand) and bad(ev))]
    for turn in rnd.turns:
        keep = [ev for ev in turn.events if not (isinstance(ev, Draw) and bad(ev))]
        if len(keep) != len(turn.events):
            turn.events[:] = keep
            turn._damaged = True
