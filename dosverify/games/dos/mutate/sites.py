"""What the operator families share: the line edits they make, and the questions they ask of a site
(the state after a line, a turn's runs of one role, its bonus counts)."""

from __future__ import annotations

import random

from ....spec import load_spec
from ..simulate.matches import is_wild
from .analysis import Analysis, Line, TurnInfo, base_of


def _lines(text: str) -> list[str]:
    out = text.split("\n")
    return out[:-1] if text.endswith("\n") else out


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _indent(raw: str) -> str:
    return raw[: len(raw) - len(raw.lstrip())]


def replace_line(text: str, no: int, new: str) -> str:
    ls = _lines(text)
    ls[no - 1] = _indent(ls[no - 1]) + new
    return _join(ls)


def delete_lines(text: str, nos: list[int]) -> str:
    drop = set(nos)
    return _join([ln for i, ln in enumerate(_lines(text), 1) if i not in drop])


def insert_after(text: str, no: int, new: str, like: int | None = None) -> str:
    ls = _lines(text)
    ref = ls[(like or no) - 1]
    ind = _indent(ref) or ("  " if (like or no) and ref.split() and ref.split()[0] == "turn" else "")
    ls.insert(no, ind + new)
    return _join(ls)


def _plain(code: str) -> bool:
    return not is_wild(base_of(code))


def _num(code: str) -> int:
    return int(base_of(code)[1:])


def _choose(rng: random.Random, items: list):
    return rng.choice(items) if items else None


def _after(a: Analysis, t: TurnInfo, removed: int = 0) -> int:
    """The first event line after turn t, in a text where `removed` lines before it were deleted."""
    return t.after - removed


def _after_line_state(a: Analysis, ln: Line) -> Line | None:
    nxt = [x for x in a.lines[ln.no :] if x.kind]
    return nxt[0] if nxt else None


def _last_event(a: Analysis, t: TurnInfo) -> Line:
    """The last event line of a turn that has one (callers ask `t.lines` first)."""
    return a.line(t.lines[-1])


def _bonus_counts(a: Analysis, t: TurnInfo) -> tuple[int, int, int]:
    """(bonus cards placed, bonus cards owed, bonus cards allowed) in turn t: under
    single-color-bonus=optional only the Double Color Matches' cards are owed."""
    placed = sum(a.line(n).role == "bonus" for n in t.lines)
    colour = [a.line(n) for n in t.lines if a.line(n).role.startswith("match-") and a.line(n).colour]
    optional = load_spec("dos").ruleset(a.ruleset).options["single-color-bonus"] == "optional"
    owed = sum(ln.role == "match-double" for ln in colour) if optional else len(colour)
    return placed, owed, len(colour)


def _after_reshuffle(a, no: int) -> bool:
    return no > 1 and a.line(no - 1).kind == "reshuffle"


def _blocks(a: Analysis, t: TurnInfo) -> list[tuple[str, list[int]]]:
    """The turn's lines grouped in runs of one role (reshuffles break runs)."""
    out: list[tuple[str, list[int]]] = []
    for n in t.lines:
        r = a.line(n).role
        key = r if r != "dcm" else f"dcm:{a.line(n).player}"
        if out and out[-1][0] == key:
            out[-1][1].append(n)
        else:
            out.append((key, [n]))
    return out
