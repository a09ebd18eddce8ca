"""A small random UNO Duo player for the referee's own tests: it plays whole games by the official
rules and writes them in three renderings (a `deck` with bare draws, picks without a deck, `hand`
lines). Not the project's simulator (dosverify/games/uno_duo/simulate/): only a second opinion
that keeps the referee honest on legal games."""

from __future__ import annotations

import random

from dosverify.games.uno_duo.cards import full_deck, parse_card, value

COL = "RGBY"


class G:
    def __init__(self, seed, mode="deck", bare=False, listed=True, target=100):
        self.r = random.Random(seed)
        self.mode, self.bare, self.listed, self.target = mode, bare, listed, target
        self.P = ["ann", "bob"]
        self.out = ["uno-duo 1", "players ann bob", f"target {target}"]

    def o(self, p):
        return self.P[1] if p == self.P[0] else self.P[0]

    def matches(self, c):
        k = parse_card(c)
        return k.wild or k.colour == self.tc or k.rank == self.tr

    def draw1(self, p, who_written):
        if not self.pile:
            if len(self.disc) < 2:
                return None
            new = self.disc[:-1]
            self.lines.append("  reshuffle " + " ".join(new) if self.listed else "  reshuffle")
            self.pile, self.disc = list(new), self.disc[-1:]
        c = self.pile.pop(0)
        self.h[p].append(c)
        self.calls[p] = None
        return c

    def draw(self, p, n, name=None):
        got = []
        for _ in range(n):
            if not self.pile and len(self.disc) >= 2 and got:
                self.emit_draw(p, got, name)
                got = []
            c = self.draw1(p, name)
            if c is None:
                break
            got.append(c)
        if got:
            self.emit_draw(p, got, name)
        return got

    def emit_draw(self, p, cards, name):
        w = f" {name}" if name else ""
        if self.bare and self.mode == "deck" and self.r.random() < 0.5:
            self.lines += [f"  draw{w}"] * len(cards)
        elif len(cards) > 1 and self.r.random() < 0.3:
            self.lines += [f"  draw{w} {c}" for c in cards]
        else:
            self.lines.append(f"  draw{w} " + " ".join(cards))

    def play(self, p, cards):
        words = []
        for c in cards:
            self.h[p].remove(c)
            self.disc.append(c)
            k = parse_card(c)
            if k.wild:
                col = self.r.choice(COL)
                words.append(f"{c}={col}")
                self.tc, self.tr = col, k.rank
            else:
                words.append(c)
                self.tc, self.tr = k.colour, k.rank
        self.lines.append("  play " + " ".join(words))
        if len(self.h[p]) == 1:
            if self.r.random() < 0.7:
                self.lines.append("  uno")
                self.calls[p] = "called"
            elif self.r.random() < 0.5:
                q = self.o(p)
                self.lines.append(f"  catch {p} by {q}")
                self.draw(p, 2, name=p)

    def legit(self, p, drawn):
        if drawn:
            return True
        return not any(self.matches(c) for c in self.h[p] if c != "W+4")

    def action(self, p, facing):
        """One action; returns what the opponent faces next, or 'again'."""
        r, h = self.r, self.h[p]
        if facing and facing[0] == "run":
            mine = [c for c in h if c[0] == facing[1]]
            if mine:
                r.shuffle(mine)
                self.play(p, mine)
                return self.acts(p, mine)
        playable = [c for c in h if self.matches(c)]
        if playable and r.random() < 0.85:
            c = r.choice(playable)
            legit = self.legit(p, False) if c == "W+4" else True
            others = list(h)
            others.remove(c)
            rest = [x for x in others if x[0] == c[0]] if c[1:] == "R" else []
            line = [c] + (r.sample(rest, len(rest)) if rest and r.random() < 0.7 else [])
            self.play(p, line)
            return self.acts(p, line, legit)
        got = self.draw(p, 1)
        if not got:
            self.lines.append("  pass")
            return None
        c = got[0]
        if self.matches(c) and r.random() < 0.5:
            others = list(self.h[p])
            others.remove(c)
            rest = [x for x in others if x[0] == c[0]] if c[1:] == "R" else []
            line = [c] + (rest if rest and r.random() < 0.7 else [])
            self.play(p, line)
            return self.acts(p, line, True)
        return None

    def acts(self, p, line, legit=True):
        last = parse_card(line[-1])
        if not self.h[p]:
            return "out"
        if last.rank == "S":
            return "again"
        if last.rank == "+2":
            return ("total", 2, False)
        if last.rank == "W+4":
            return ("wd4", p, legit)
        if last.rank == "R" and len(line) > 1:
            return ("run", last.colour)
        return None

    def turn(self, p, facing):
        self.lines.append(f"turn {p}")
        r = self.r
        if facing and facing[0] == "total":
            d2 = [c for c in self.h[p] if c.endswith("+2")]
            if d2 and not facing[2] and r.random() < 0.6:
                self.play(p, [d2[0]])
                if not self.h[p]:
                    return "out"
                return ("total", facing[1] + 2, False)
            self.draw(p, facing[1])
            return None
        if facing and facing[0] == "wd4":
            by, legit = facing[1], facing[2]
            if by is not None and r.random() < 0.4:
                self.lines.append("  challenge")
                if legit:
                    self.draw(p, 6)
                    return None
                self.draw(by, 4, name=by)
                facing = None
            else:
                self.draw(p, 4)
                return None
        res = self.action(p, facing)
        while res == "again":
            res = self.action(p, None)
        return res

    def round(self, n, drafter):
        r = self.r
        deck = full_deck()
        r.shuffle(deck)
        P1, P2 = drafter, self.o(drafter)
        self.h = {P1: [], P2: []}
        self.calls = {P1: None, P2: None}
        self.lines = [f"round {n}", f"drafter {P1}"]
        if self.mode == "deck":
            self.lines += ["deck " + " ".join(deck[i : i + 28]) for i in range(0, 112, 28)]
        pile = list(deck)
        ddisc, drafts = [], []
        for i in range(14):
            p = P1 if i % 2 == 0 else P2
            a, b = pile.pop(0), pile.pop(0)
            if r.random() < 0.5:
                drafts.append(f"draft {p} keep {a} discard {b}")
                self.h[p].append(a)
                ddisc.append(b)
            else:
                drafts.append(f"draft {p} discard {a} keep {b}")
                self.h[p].append(b)
                ddisc.append(a)
        if self.mode == "hand":
            self.lines += [f"hand {P1} " + " ".join(self.h[P1]), f"hand {P2} " + " ".join(self.h[P2])]
        else:
            self.lines += drafts
        self.pile = pile + ddisc
        start = self.pile.pop(0)
        k = parse_card(start)
        self.disc = [start]
        self.tc, self.tr = k.colour, k.rank
        word = start
        if k.wild:
            self.tc = r.choice(COL)
            word = f"{start}={self.tc}"
        self.lines.append(f"start {word}")
        first, facing = P2, None
        if k.rank == "+2":
            facing = ("total", 2, True)
        elif k.rank == "W+4":
            facing = ("wd4", None, True)
        elif k.rank == "S":
            first = P1
        elif k.rank == "R":
            facing = ("run", k.colour)
        p = first
        for _ in range(400):
            res = self.turn(p, facing)
            if res == "out":
                q = self.o(p)
                pts = sum(value(c) for c in self.h[q])
                self.lines.append(f"score {q} {pts}")
                return q, pts
            facing = res
            p = self.o(p)
        return None, 0

    def game(self):
        totals = {p: 0 for p in self.P}
        drafter = self.P[0]
        for n in range(1, 30):
            q, pts = self.round(n, drafter)
            self.out += [""] + self.lines
            if q is None:
                break
            totals[q] += pts
            self.out.append("totals " + " ".join(f"{p} {totals[p]}" for p in self.P))
            if max(totals.values()) >= self.target:
                self.out.append(f"winner {min(totals, key=totals.get)}")
                break
            drafter = self.o(drafter)
        return "\n".join(self.out) + "\n"
