"""UNO Duo mutation operators: one known defect put into a legal `uno-duo 1` log.

Each operator ``op_x(text, rng)`` returns a :class:`dosverify.games.Mutation` (the mutant, the rule of
section 4 it breaks, its kind, and the line where the referee must report it, per section 4's
precedence and section 3's "Owed draws" and "A missing action"), or None when the log has no place
for it. It works on the text in any rendering the simulator writes (comments, CRLF, BOM, bare or
grouped draws, `deck` or `hand` lines) and keeps that rendering's habits on the lines it touches.

An operator lists candidate places and keeps the first (in a seeded order) whose mutant the test
side's own replayer (simulate/replay.py, written from the contract) finds to break exactly the claimed
rule at the claimed line and nothing else. Where the defect changes a hand that is scored at the
round's end (a card kept that was played, a card drawn too many), the round's `score` and `totals`
lines are rewritten to follow the hand ("settled"), so that the one defect stays the only one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from .. import Mutation
from .simulate.cards import base, colour, face, full_deck, hand_value, is_wild, matches
from .simulate.replay import Replay, errors
from .simulate.replay import replay as _replay

#: Section 4's rules by kind (only those the operators state).
KIND = {
    "play.match": "illegal-play",
    "play.held": "illegal-play",
    "play.one": "illegal-play",
    "wild.colour": "illegal-play",
    "draw.drawn-only": "illegal-play",
    "reverse.colour": "illegal-play",
    "reverse.all": "illegal-play",
    "volley.stack": "illegal-play",
    "wd4.answer": "illegal-play",
    "volley.draw": "draw-order",
    "wd4.draw": "draw-order",
    "draw.top": "draw-order",
    "draft.under": "draw-order",
    "draft.pick": "draw-order",
    "draw.reason": "draw-order",
    "reshuffle.when": "draw-order",
    "wd4.challenge": "challenge",
    "wd4.outcome": "challenge",
    "uno.catch": "uno-call",
    "uno.penalty": "uno-call",
    "turn.order": "turn-order",
    "skip.again": "turn-order",
    "score.values": "mis-scored",
    "score.totals": "mis-scored",
    "game.winner": "mis-scored",
    "notation.card": "syntax",
    "notation.line": "syntax",
}
TRIES = 8  # candidates replayed per operator call

replay = lru_cache(maxsize=32)(_replay)


# ---- editing text in its own rendering ---------------------------------------------------------------


def _split(text: str) -> tuple[str, list[str], bool]:
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    lines = body.split("\n")
    tail = body.endswith("\n")
    return bom, (lines[:-1] if tail else lines), tail


def _join(bom: str, lines: list[str], tail: bool) -> str:
    return bom + "\n".join(lines) + ("\n" if tail else "")


def _parts(raw: str) -> tuple[str, str, str]:
    """(indentation, body, end) of a raw line: the body keeps no comment; end is "\\r" or ""."""
    end = "\r" if raw.endswith("\r") else ""
    raw = raw[: len(raw) - len(end)]
    return raw[: len(raw) - len(raw.lstrip())], raw.strip(), end


def replace_line(text: str, no: int, body: str) -> str:
    bom, lines, tail = _split(text)
    ind, _, end = _parts(lines[no - 1])
    lines[no - 1] = ind + body + end
    return _join(bom, lines, tail)


def delete_line(text: str, no: int) -> str:
    bom, lines, tail = _split(text)
    del lines[no - 1]
    return _join(bom, lines, tail)


def insert_after(text: str, no: int, body: str, like: int) -> str:
    """Insert `body` as line no + 1, indented (and ended) like line `like`."""
    bom, lines, tail = _split(text)
    ind, _, end = _parts(lines[like - 1])
    lines.insert(no, ind + body + end)
    return _join(bom, lines, tail)


# ---- choosing a candidate ----------------------------------------------------------------------------

Candidate = tuple[str, int, str, str, bool]  # mutant, line, rule, note, settle


SETTLED = (["score"], ["totals"], ["winner"])


def settle(text: str) -> str:
    """Rewrite `score` values, `totals` and `winner` to what the replayed hands give (the defect's
    consequences; a game that no longer reaches the target loses its `winner` line): one line a pass,
    so as many passes as the log has such lines (a whole game has many)."""
    for _ in range(2 + sum(1 for raw in text.split("\n") if raw.lstrip("\ufeff").split()[:1] in SETTLED)):
        rp = replay(text)
        fixes = [f for f in rp.findings if f.rule in ("score.values", "score.totals", "game.winner")]
        if not fixes:
            return text
        f = fixes[0]
        ln = rp.lines[f.line - 1]
        if f.rule == "score.values":
            p = ln.words[1]
            text = replace_line(text, f.line, f"score {p} {hand_value(_hand_at(rp, f.line, p))}")
        elif f.rule == "score.totals":
            text = replace_line(text, f.line, "totals " + " ".join(f"{p} {n}" for p, n in _totals_at(text, f.line)))
        elif rp.game_over:  # the game ends where it did: the lower total wins
            low = min(rp.players, key=lambda p: dict(_totals_at(text, f.line))[p])
            text = replace_line(text, f.line, f"winner {low}")
        else:  # a lower total: the game has not ended yet, an unfinished game has no `winner`
            text = delete_line(text, f.line)
    return text


def _hand_at(rp: Replay, line: int, p: str) -> list[str]:
    return rp.lines[line - 1].hands.get(p, [])


def _totals_at(text: str, line: int) -> list[tuple[str, int]]:
    """The running totals of the written scores up to `line`."""
    rp = replay(text)
    totals = {p: 0 for p in rp.players}
    for ln in rp.lines[: line - 1]:
        if ln.kind == "score":
            totals[ln.words[1]] += int(ln.words[2])
    return list(totals.items())


def stands(text: str, line: int, rule: str) -> bool:
    """The replayer finds exactly one error in `text`: `rule` at `line`."""
    errs = errors(replay(text))
    return len(errs) == 1 and errs[0].line == line and errs[0].rule == rule


def first(name: str, rng: random.Random, cands: list[Candidate]) -> Mutation | None:
    rng.shuffle(cands)
    for text, line, rule, note, fix in cands[:TRIES]:
        if fix:
            text = settle(text)
        if stands(text, line, rule):
            return Mutation(
                name, text, KIND[rule], rule, line, note + ("; score, totals and winner follow" if fix else "")
            )
    return None


def _next_event(rp: Replay, no: int, skip: tuple[str, ...] = ()) -> int:
    """The first line after `no` with words (not of a kind in `skip`), or the last line + 1."""
    for ln in rp.lines[no:]:
        if ln.kind and ln.kind not in skip:
            return ln.no
    return rp.nlines + 1


def _plays(rp: Replay, roles: tuple[str, ...]) -> list:
    return [ln for ln in rp.lines if ln.kind == "play" and ln.role in roles]


ORDINARY = ("play", "again-play")


def later(rp: Replay, no: int, player: str | None = None, kinds: tuple[str, ...] = ("play",)) -> set[str]:
    """The cards of the round's lines after `no` of those kinds (plays: by `player`; draws: anyone's)."""
    out: set[str] = set()
    for ln in rp.lines[no:]:
        if ln.kind in ("round", "score"):
            break
        if ln.kind in kinds and (player is None or ln.player == player):
            out |= {base(c) for c in ln.words[1:]}
    return out


# ---- illegal plays -----------------------------------------------------------------------------------


def op_play_match(text: str, rng: random.Random) -> Mutation | None:
    """A one-card play replaced by another card of the player's that matches neither colour nor number."""
    rp = replay(text)
    cands = []
    for ln in _plays(rp, ORDINARY):
        if len(ln.words) != 2 or is_wild(ln.words[1]):
            continue
        for y in sorted(set(ln.hands[ln.player]) - later(rp, ln.no, ln.player)):
            if not is_wild(y) and not matches(y, ln.top) and face(y).isdigit():
                cands.append(
                    (replace_line(text, ln.no, f"play {y}"), ln.no, "play.match", f"play {y} on {ln.top}", True)
                )
    return first("play_match", rng, cands)


def op_wild_colour(text: str, rng: random.Random) -> Mutation | None:
    """A played or turned-up wild that names no colour (`play W`, `start W+4`)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind in ("play", "start") and len(ln.words) == 2 and is_wild(ln.words[1]):
            new = f"{ln.kind} {base(ln.words[1])}"
            cands.append((replace_line(text, ln.no, new), ln.no, "wild.colour", new, False))
    return first("wild_colour", rng, cands)


def op_run_order(text: str, rng: random.Random) -> Mutation | None:
    """A run whose Reverse is not first: several cards that are no run (`play.one`)."""
    rp = replay(text)
    cands = []
    for ln in _plays(rp, ("run",)):
        cards = ln.words[1:]
        if len(cards) > 2 and matches(cards[1], ln.top) and face(cards[1]) != "R":
            new = "play " + " ".join([cards[1], cards[0], *cards[2:]])
            cands.append((replace_line(text, ln.no, new), ln.no, "play.one", new, False))
    return first("run_order", rng, cands)


def op_run_partial(text: str, rng: random.Random) -> Mutation | None:
    """A run that leaves a card of its colour in the hand (all or nothing, `reverse.all`)."""
    rp = replay(text)
    cands = []
    for ln in _plays(rp, ("run", "start-run")):
        cards = ln.words[1:]
        for i in range(1, len(cards) - 1):
            new = "play " + " ".join(cards[:i] + cards[i + 1 :])
            cands.append((replace_line(text, ln.no, new), ln.no, "reverse.all", f"{cards[i]} left out", True))
    return first("run_partial", rng, cands)


def op_run_colour(text: str, rng: random.Random) -> Mutation | None:
    """A run with a card of another colour in it (`reverse.colour`)."""
    rp = replay(text)
    cands = []
    for ln in _plays(rp, ("run",)):
        cards = ln.words[1:]
        keep = later(rp, ln.no, ln.player) | {cards[-1]}
        others = sorted({c for c in ln.hands[ln.player] if colour(c) not in (None, cards[0][0])} - keep)
        for y in others:
            new = "play " + " ".join([*cards[:-1], y, cards[-1]])
            cands.append((replace_line(text, ln.no, new), ln.no, "reverse.colour", f"{y} in a run", True))
    return first("run_colour", rng, cands)


def op_drawn_unplayable(text: str, rng: random.Random) -> Mutation | None:
    """A drawn card that does not match is played all the same."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.role != "draw:one" or ln.player is None or ln.drawer != ln.player:
            continue
        nxt = rp.lines[_next_event(rp, ln.no) - 1] if _next_event(rp, ln.no) <= rp.nlines else None
        if nxt is not None and nxt.kind == "play":
            continue
        drawn = nxt.hands[ln.player][-1] if nxt is not None else None
        if drawn and not is_wild(drawn) and not matches(drawn, ln.top) and drawn not in later(rp, ln.no, ln.player):
            cands.append((insert_after(text, ln.no, f"play {drawn}", ln.no), ln.no + 1, "play.match", f"{drawn}", True))
    return first("drawn_unplayable", rng, cands)


def op_drawn_other(text: str, rng: random.Random) -> Mutation | None:
    """After the draw, another card than the drawn one is played (`draw.drawn-only`)."""
    rp = replay(text)
    cands = []
    for ln in _plays(rp, ("drawn-play",)):
        if len(ln.words) != 2:
            continue
        for y in sorted(set(ln.hands[ln.player]) - {base(ln.words[1])} - later(rp, ln.no, ln.player)):
            if not is_wild(y) and matches(y, ln.top) and face(y).isdigit():
                new = f"play {y}"
                cands.append((replace_line(text, ln.no, new), ln.no, "draw.drawn-only", new, True))
    return first("drawn_other", rng, cands)


def op_not_held(text: str, rng: random.Random) -> Mutation | None:
    """A one-card play of a card the player does not hold (one still unseen, matching the top)."""
    rp = replay(text)
    cands = []
    seen = set(full_deck())
    for ln in _plays(rp, ORDINARY):
        if len(ln.words) != 2 or is_wild(ln.words[1]):
            continue
        x = ln.words[1]
        for y in sorted(seen - set(ln.hands[ln.player])):
            if not is_wild(y) and face(y) == face(x) and y != x:
                cands.append((replace_line(text, ln.no, f"play {y}"), ln.no, "play.held", f"play {y}, not held", True))
    return first("not_held", rng, cands)


def _draw_block(rp: Replay, ln) -> list[int] | None:
    """The lines of one owed draw beginning at `ln` (None when a reshuffle lies among them)."""
    block = [ln.no]
    for nxt in rp.lines[ln.no :]:
        if not nxt.kind:
            continue
        if nxt.kind == "draw" and nxt.role == ln.role and nxt.drawer == ln.drawer:
            block.append(nxt.no)
            continue
        if nxt.kind == "reshuffle":
            return None
        break
    return block


def _answer_instead(text: str, rng: random.Random, name: str, role: str, rule: str) -> Mutation | None:
    """Facing a total or a WD4, a number card is played instead of the owed draw (whose lines go)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind != "draw" or ln.role != role or ln.phase != "start" or ln.player is None:
            continue
        block = _draw_block(rp, ln)
        if block is None:
            continue
        used = later(rp, ln.no, ln.player)
        if any(base(c) in used for no in block for c in _draw_cards(rp, rp.lines[no - 1])):
            continue
        for y in sorted(set(ln.hands[ln.player]) - used):
            if face(y).isdigit() and matches(y, ln.top):
                new = text
                for no in reversed(block[1:]):
                    new = delete_line(new, no)
                cands.append((replace_line(new, ln.no, f"play {y}"), ln.no, rule, f"play {y}", True))
    return first(name, rng, cands)


def op_stack_other(text: str, rng: random.Random) -> Mutation | None:
    """Facing a Draw 2 total, a card that is no Draw 2 is played (`volley.stack`)."""
    return _answer_instead(text, rng, "stack_other", "draw:volley.draw", "volley.stack")


def op_wd4_answer(text: str, rng: random.Random) -> Mutation | None:
    """Facing a WD4, a card is played instead of drawing 4 or challenging (`wd4.answer`)."""
    return _answer_instead(text, rng, "wd4_answer", "draw:wd4.draw", "wd4.answer")


# ---- draws -------------------------------------------------------------------------------------------


def _draw_cards(rp: Replay, ln) -> list[str]:
    named = len(ln.words) > 1 and ln.words[1] in rp.players
    return ln.words[2:] if named else ln.words[1:]


def _with_cards(rp: Replay, ln, cards: list[str]) -> str:
    named = len(ln.words) > 1 and ln.words[1] in rp.players
    return " ".join(["draw", *([ln.words[1]] if named else []), *cards])


def _draw_short(text: str, rng: random.Random, name: str, roles: dict[str, str]) -> Mutation | None:
    """The last card of an owed draw left out: reported at the first other event line (Owed draws)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind != "draw" or ln.role not in roles or ln.known:
            continue  # from a pile whose order is known the short cards are taken as made (READINGS R3)
        nxt = _next_event(rp, ln.no)
        after = rp.lines[nxt - 1] if nxt <= rp.nlines else None
        if after is not None and (after.kind == "reshuffle" or (after.kind == "draw" and after.role == ln.role)):
            continue  # not the completing line
        cards = _draw_cards(rp, ln)
        if cards and base(cards[-1]) in later(rp, ln.no, ln.drawer):
            continue
        if len(cards) >= 2:
            new = replace_line(text, ln.no, _with_cards(rp, ln, cards[:-1]))
            cands.append((new, nxt, roles[ln.role], f"{cards[-1]} not drawn", True))
        elif cards or ln.words == ["draw"] or len(ln.words) == 2:
            prev = [x for x in rp.lines[: ln.no - 1] if x.kind][-1]
            if prev.kind == "draw" and prev.role == ln.role:
                cands.append((delete_line(text, ln.no), nxt - 1, roles[ln.role], "last card not drawn", True))
    return first(name, rng, cands)


def op_volley_short(text: str, rng: random.Random) -> Mutation | None:
    """A Draw 2 total drawn one card short (`volley.draw`)."""
    return _draw_short(text, rng, "volley_short", {"draw:volley.draw": "volley.draw"})


def op_outcome_short(text: str, rng: random.Random) -> Mutation | None:
    """After a challenge, the 4 or 6 drawn one short (`wd4.outcome`)."""
    return _draw_short(text, rng, "outcome_short", {"draw:wd4.outcome": "wd4.outcome"})


def op_penalty_short(text: str, rng: random.Random) -> Mutation | None:
    """A caught player draws 1 card of the 2 (`uno.penalty`)."""
    return _draw_short(text, rng, "penalty_short", {"draw:uno.penalty": "uno.penalty"})


def op_volley_extra(text: str, rng: random.Random) -> Mutation | None:
    """A Draw 2 total drawn with one card too many, on the completing line (`volley.draw`)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind != "draw" or ln.role != "draw:volley.draw" or ln.known:
            continue
        nxt = _next_event(rp, ln.no)
        after = rp.lines[nxt - 1] if nxt <= rp.nlines else None
        if after is not None and (after.kind == "reshuffle" or (after.kind == "draw" and after.role == ln.role)):
            continue
        cards = _draw_cards(rp, ln)
        if not cards:
            continue
        drawn_later = later(rp, ln.no, None, ("draw", "reshuffle"))
        pool = sorted(set(full_deck()) - drawn_later)
        for y in rng.sample(pool, min(6, len(pool))):
            if face(y).isdigit():
                new = replace_line(text, ln.no, _with_cards(rp, ln, [*cards, y]))
                cands.append((new, ln.no, "volley.draw", f"{y} drawn too many", True))
    return first("volley_extra", rng, cands)


def op_draw_swap(text: str, rng: random.Random) -> Mutation | None:
    """Two cards drawn from a known pile written in the wrong order (`draw.top`, or `draft.under`)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind != "draw" or not ln.known:
            continue
        cards = _draw_cards(rp, ln)
        if len(cards) >= 2 and cards[0] != cards[1]:
            new = replace_line(text, ln.no, _with_cards(rp, ln, [cards[1], cards[0], *cards[2:]]))
            for rule in ("draw.top", "draft.under"):
                cands.append((new, ln.no, rule, "the two top cards swapped", False))
    return first("draw_swap", rng, cands)


def op_reshuffle_missing(text: str, rng: random.Random) -> Mutation | None:
    """A reshuffle left out: the next draw finds the pile empty (`reshuffle.when`, at the draw)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind != "reshuffle":
            continue
        nxt = next((x for x in rp.lines[ln.no :] if x.kind == "draw"), None)
        if nxt is not None:
            cands.append((delete_line(text, ln.no), nxt.no - 1, "reshuffle.when", "reshuffle left out", False))
    return first("reshuffle_missing", rng, cands)


def op_reshuffle_early(text: str, rng: random.Random) -> Mutation | None:
    """A bare reshuffle while the draw pile still holds cards (`reshuffle.when`; not carried out)."""
    rp = replay(text)
    cands = [
        (
            insert_after(text, t.start, "reshuffle", t.start + 1 if t.lines else t.start),
            t.start + 1,
            "reshuffle.when",
            "reshuffle too early",
            False,
        )
        for t in rp.turns
        if t.lines
    ]
    return first("reshuffle_early", rng, cands)


def op_draft_order(text: str, rng: random.Random) -> Mutation | None:
    """A pick written in the other order than the pile's (`draft.pick`; with a deck only)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind == "draft" and ln.words[3] != ln.words[5]:
            w = ln.words
            new = " ".join([w[0], w[1], w[4], w[5], w[2], w[3]])
            cands.append((replace_line(text, ln.no, new), ln.no, "draft.pick", new, False))
    return first("draft_order", rng, cands)


# ---- challenges, calls, turns ------------------------------------------------------------------------


def op_bad_challenge(text: str, rng: random.Random) -> Mutation | None:
    """A `challenge` where no WD4 the opponent played is faced (`wd4.challenge`; not carried out)."""
    rp = replay(text)
    cands = []
    for t in rp.turns:
        first_line = rp.lines[t.lines[0] - 1] if t.lines else None
        if first_line is None or first_line.kind == "challenge":
            continue
        new = insert_after(text, t.start, "challenge", t.lines[0])
        cands.append((new, t.start + 1, "wd4.challenge", "challenge with no WD4 faced", False))
    return first("bad_challenge", rng, cands)


def op_bogus_catch(text: str, rng: random.Random) -> Mutation | None:
    """A catch of a player who does not hold 1 card, or called (`uno.catch`; not carried out)."""
    rp = replay(text)
    cands = []
    for t in rp.turns:
        if not t.lines:
            continue
        ln = rp.lines[t.lines[0] - 1]
        for q in rp.players:
            if len(ln.hands.get(q, [])) != 1:
                new = insert_after(text, t.start, f"catch {q} by {rp.other(q)}", t.lines[0])
                cands.append((new, t.start + 1, "uno.catch", f"catch {q}", False))
    return first("bogus_catch", rng, cands)


def op_wrong_turn(text: str, rng: random.Random) -> Mutation | None:
    """The other player named on a `turn` line; its lines stay the due player's (`turn.order`)."""
    rp = replay(text)
    cands = []
    for t in rp.turns[1:]:
        new = replace_line(text, t.start, f"turn {rp.other(t.player)}")
        cands.append((new, t.start, "turn.order", "turn of the wrong player", False))
    return first("wrong_turn", rng, cands)


def op_skip_dropped(text: str, rng: random.Random) -> Mutation | None:
    """The action owed after a Skip left out (`skip.again`, at the next turn; `skip-again must`)."""
    rp = replay(text)
    cands = []
    for t in rp.turns:
        acts = [rp.lines[n - 1] for n in t.lines if rp.lines[n - 1].kind == "play"]
        last = acts[-1] if acts else None
        if last is None or last.role != "again-play" or len(last.words) != 2 or t.after > rp.nlines:
            continue
        tail = [n for n in t.lines if n >= last.no]
        if any(rp.lines[n - 1].kind != "play" and n != last.no for n in tail):
            continue
        cands.append((delete_line(text, last.no), t.after - 1, "skip.again", f"{last.words[1]} left out", True))
    return first("skip_dropped", rng, cands)


# ---- scores ------------------------------------------------------------------------------------------


def op_wrong_score(text: str, rng: random.Random) -> Mutation | None:
    """A `score` line with the wrong value (`score.values`); totals follow the score as written."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind == "score":
            n = int(ln.words[2])
            m = n + rng.randint(1, 9) if n < 10 or rng.random() < 0.5 else n - rng.randint(1, min(n, 9))
            new = replace_line(text, ln.no, f"score {ln.words[1]} {m}")
            for tl in rp.lines[ln.no :]:
                if tl.kind == "totals":
                    w = tl.words
                    i = w.index(ln.words[1]) + 1
                    w = [*w[:i], str(int(w[i]) + m - n), *w[i + 1 :]]
                    new = replace_line(new, tl.no, " ".join(w))
            cands.append((new, ln.no, "score.values", f"score {m}, not {n}", False))
    return first("wrong_score", rng, cands)


def op_wrong_totals(text: str, rng: random.Random) -> Mutation | None:
    """A `totals` line that does not add up (`score.totals`)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind == "totals":
            w = list(ln.words)
            i = 2 * rng.randrange((len(w) - 1) // 2) + 2
            w[i] = str(int(w[i]) + rng.randint(1, 30))
            cands.append((replace_line(text, ln.no, " ".join(w)), ln.no, "score.totals", " ".join(w), False))
    return first("wrong_totals", rng, cands)


def op_wrong_winner(text: str, rng: random.Random) -> Mutation | None:
    """The higher total named as the winner (`game.winner`)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind == "winner":
            new = f"winner {rp.other(ln.words[1])}"
            cands.append((replace_line(text, ln.no, new), ln.no, "game.winner", new, False))
    return first("wrong_winner", rng, cands)


# ---- syntax ------------------------------------------------------------------------------------------


def op_show_line(text: str, rng: random.Random) -> Mutation | None:
    """A DOS `show` line, which `uno-duo 1` does not have (`notation.line`; the line is skipped)."""
    rp = replay(text)
    cands = []
    for t in rp.turns:
        if t.lines:
            hand = rp.lines[t.lines[0] - 1].hands.get(t.player) or ["R1"]
            new = insert_after(text, t.start, f"show {t.player} {hand[0]}", t.lines[0])
            cands.append((new, t.start + 1, "notation.line", "show line", False))
    return first("show_line", rng, cands)


def op_card_for_name(text: str, rng: random.Random) -> Mutation | None:
    """An invalid card word where a call names its player (`uno R10`: `notation.card`; the call is lost)."""
    rp = replay(text)
    cands = []
    for ln in rp.lines:
        if ln.kind == "uno":
            bad = rng.choice(("R10", "RD", "W+2", "W2", "G#"))
            cands.append((replace_line(text, ln.no, f"uno {bad}"), ln.no, "notation.card", f"uno {bad}", False))
    return first("card_for_name", rng, cands)


OPERATORS: dict[str, Callable[[str, random.Random], Mutation | None]] = {
    name[3:]: fn for name, fn in sorted(globals().items()) if name.startswith("op_") and callable(fn)
}


def mutate(text: str, operator: str, rng: random.Random) -> Mutation | None:
    """Apply one operator by name."""
    return OPERATORS[operator](text, rng)
