"""Player names written wrong: a name that plainly means a player (`Ann`, `anne` for ann) is reported
once, at its line (notation.player), and read as that player before the round is played."""

from __future__ import annotations

import difflib

from ....hints import did_you_mean
from ..events import Round
from ..findings import finding
from .part import Part


class Names(Part):
    """Resolves the names of a log's lines to its players, so that a misspelt name is one finding."""

    def likely_player(self, name: str) -> str | None:
        """The player a misspelt or mis-cased name most likely means (`Ann`, `anne` for ann)."""

        same = [p for p in self.s.players if p.lower() == name.lower()]
        if same:
            return same[0]
        near = difflib.get_close_matches(name.lower(), [p.lower() for p in self.s.players], n=2, cutoff=0.75)
        if len(near) == 1 or (
            len(near) == 2
            and difflib.SequenceMatcher(None, name.lower(), near[0]).ratio()
            > difflib.SequenceMatcher(None, name.lower(), near[1]).ratio()
        ):
            return next(p for p in self.s.players if p.lower() == near[0])
        return None

    def resolve_names(self) -> None:
        """A name that is not a player but plainly means one (`Ann`, `anne`) is reported once, at
        its line (notation.player), and read as that player, so that the line still counts and
        its consequences are not reported again: in every round of the log, and the winner."""
        for rnd in self.s.log.rounds:
            self.resolve_round(rnd)
        self.resolve_winner()

    def _fix_name(self, ev, attr: str, rnd=None) -> None:
        name = getattr(ev, attr, None)
        if name is None or name in self.s.seat:
            return
        p = self.likely_player(name)
        if p is None:
            return
        self.s.findings.append(
            finding(
                "notation.player",
                f"`{name}` is not a player of this game{did_you_mean(name, p)}",
                at=ev,
                column=(ev._cols or {}).get(attr) if isinstance((ev._cols or {}).get(attr), int) else None,
                pointer=f"{ev._pointer}/{attr}" if ev._pointer is not None else None,
                round=rnd.number if rnd is not None else None,
                player=p,
                expected=p,
                found=name,
            )
        )
        setattr(ev, attr, p)

    def resolve_round(self, rnd: Round) -> None:
        """resolve_names for one round."""
        fix = self._fix_name
        for line in rnd.setup:
            fix(line, "player", rnd)
        seat = self.s.seat
        for turn in rnd.turns:
            if turn.player not in seat:
                fix(turn, "player", rnd)
            for ev in turn.events:  # most events name a player of the game, or none: no call for them
                if (q := getattr(ev, "player", None)) is not None and q not in seat:
                    fix(ev, "player", rnd)
                if (q := getattr(ev, "by", None)) is not None and q not in seat:
                    fix(ev, "by", rnd)
        if rnd.score is not None:
            fix(rnd.score, "player", rnd)
        if rnd.totals is not None:
            for e in rnd.totals.entries:
                if e.player not in self.s.seat and (p := self.likely_player(e.player)) is not None:
                    self.s.findings.append(
                        finding(
                            "notation.player",
                            f"`{e.player}` is not a player of this game{did_you_mean(e.player, p)}",
                            at=rnd.totals,
                            round=rnd.number,
                            player=p,
                            expected=p,
                            found=e.player,
                        )
                    )
                    e.player = p

    def resolve_winner(self) -> None:
        if self.s.log.winner is not None:
            self._fix_name(self.s.log.winner, "player")
