"""One answer about a position, as `dosverify moves` prints it and `POST /v1/moves` sends it: the
position, its legal next lines, the prefix's verdict and, for a tried line, the referee's verdict.
The command line and the service build it here, so the two say the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..hints import plural

if TYPE_CHECKING:
    from .table import Table

#: how many legal lines an answer lists by default (`--max-moves`, `?max_moves=`); the rest are counted
DEFAULT_MAX_MOVES = 500


def answer(table: Table, tried: str | None = None, max_moves: int | None = DEFAULT_MAX_MOVES) -> dict[str, Any]:
    """The JSON object (docs/moves.md): `game`, `after`, `to_move`, `moves`, `prefix`, `try`, ...
    `max_moves` None or 0 lists them all."""
    try:
        listing = table.legal_moves()
        refused = None
    except ValueError as exc:  # a view that cannot list (a table's view of face-down cards)
        listing, refused = [], str(exc)
    shown = listing[:max_moves] if max_moves else listing
    out: dict[str, Any] = {
        "game": table.game,
        "after": table.after,
        "round": table.rounds,
        "turn": table.turns,
        "to_move": table.to_move if refused is None else None,
        "round_over": table.round_over,
        "game_over": table.game_over,
        "scores": table.scores,
        "moves": [m.to_dict() for m in shown],
        "moves_total": len(listing),
        "moves_left_out": len(listing) - len(shown),
        "prefix": table.prefix.to_dict(),
    }
    if refused is not None:
        out["moves_refused"] = refused
    if tried is not None:
        out["try"] = table.explain(tried).to_dict()
    return out


def exit_status(out: dict[str, Any]) -> int:
    """0 when nothing was tried or the tried line is legal, 1 when it is illegal."""
    tried = out.get("try")
    return 1 if tried is not None and not tried["legal"] else 0


def render(table: Table, out: dict[str, Any], name: str, colour: bool = False) -> str:
    """The answer for people: the position, the legal lines grouped by actor, the verdicts with
    the findings as `check` renders them (the line as written, a caret, the hint)."""
    head = f"{name}: {table.pack.title}, after line {out['after']}"
    if out["round"]:
        # check's count, the game's turns so far (a finding's `turn` counts within its round)
        head += f" (round {out['round']}, {plural(out['turn'], 'turn')} so far)"
    lines = [head]
    state = "game over" if out["game_over"] else "round over" if out["round_over"] else f"{out['to_move']} to move"
    scores = ", ".join(f"{p} {n}" for p, n in out["scores"].items())
    lines.append(f"  {state}; scores: {scores}" if scores else f"  {state}")
    if out["prefix"]["findings"]:
        lines += [
            "",
            f"the lines so far are {out['prefix']['verdict']}:",
            _findings(table, table.prefix.findings, None, name, colour),
        ]
    lines.append("")
    if "moves_refused" in out:
        lines.append(f"no listing: {out['moves_refused']}")
    else:
        lines.append(f"legal next lines ({out['moves_total']}):" if out["moves_total"] else "no line may come next")
        by_actor: dict[str, list[dict]] = {}
        for m in out["moves"]:
            by_actor.setdefault(m["actor"], []).append(m)
        for actor, moves in by_actor.items():
            lines.append(f"  {actor}:")
            for m in moves:
                p = m["probability"]
                lines.append(f"    {m['line']}" + (f"  (p = {p:.4g})" if p is not None and p < 1 else ""))
        if out["moves_left_out"]:
            lines.append(f"  ... and {out['moves_left_out']} more (`--max-moves 0` lists them all)")
    if "try" in out:
        lines += ["", _verdict_text(table, out["try"], name, colour)]
    return "\n".join(lines).rstrip() + "\n"


def _verdict_text(table: Table, tried: dict[str, Any], name: str, colour: bool) -> str:
    if tried["legal"]:
        return f"`{tried['line']}` is legal here" + (
            f" (as `{tried['canonical']}`)" if tried["canonical"] != tried["line"].strip() else ""
        )
    verdict = table.explain(tried["line"])
    head = f"`{tried['line']}` is not legal here"
    if not verdict.findings:
        return head + ": it is not one of the lines listed above"
    said = " (the referee says so once a later line arrives)" if verdict.deferred else ""
    return head + said + ":\n" + _findings(table, verdict.findings, tried["line"], name, colour)


def _findings(table: Table, findings: list, tried: str | None, name: str, colour: bool) -> str:
    """The findings rendered as `check` renders them, over the lines judged (and the tried one)."""
    from ..report import Report, render_text

    lines = table.judged_lines() + ([tried] if tried is not None else [])
    spec = table.pack.spec()
    report = Report(
        file=name,
        verdict="illegal",
        ruleset=table.ruleset,
        spec_version=spec.version,
        findings=findings,
        game=table.game,
    )
    text = render_text(report, "\n".join(lines) + "\n", colour=colour)
    return text.rsplit("\n", 1)[0].rstrip()  # without check's summary line


__all__ = ["DEFAULT_MAX_MOVES", "answer", "exit_status", "render"]
