"""A simulated game written out: as the event model (a Log) or as notation v1 text in the
simulator's own writer (which the notation's writer must agree with)."""

from __future__ import annotations

from .. import events as ev
from .state import Event, SimState


def header_lines(sim: SimState) -> list[str]:
    """The header: `dos 1`, the players, the ruleset, and the options and target as they were given."""
    out = ["dos 1", "players " + " ".join(sim.names), f"ruleset {sim.ruleset_name}"]
    out.extend(f"option {k} {v}" for k, v in sim.options_given.items())
    if sim.target_given is not None:
        out.append(f"target {sim.target_given}")
    return out


def to_log(sim: SimState) -> ev.Log:
    """The game as the event model."""
    rounds = []
    for r in sim.rounds:
        setup: list[ev.SetupEvent] = []
        for s in r["setup"]:
            if s[0] == "dealer":
                setup.append(ev.Dealer(player=s[1]))
            elif s[0] == "deck":
                setup.append(ev.Deck(cards=s[1]))
            elif s[0] == "hand":
                setup.append(ev.Hand(player=s[1], cards=s[2]))
            else:
                setup.append(ev.Center(cards=s[1]))
        turns = [ev.Turn(player=p, events=[_event_model(e) for e in evs]) for p, evs in r["turns"]]
        rounds.append(
            ev.Round(
                number=r["number"],
                setup=setup,
                turns=turns,
                score=ev.Score(player=r["score"][0], points=r["score"][1]) if r["score"] else None,
                totals=ev.Totals(entries=[ev.Total(player=q, points=n) for q, n in r["totals"]])
                if r["totals"]
                else None,
            )
        )
    return ev.Log(
        players=sim.names,
        ruleset=sim.ruleset_name,
        options=dict(sim.options_given),
        target=sim.target_given,
        rounds=rounds,
        winner=ev.Winner(player=sim.winner) if sim.winner else None,
    )


def to_text(sim: SimState) -> str:
    """The game in the simulator's own canonical writer."""
    out = header_lines(sim)
    for r in sim.rounds:
        out.append("")
        out.append(f"round {r['number']}")
        for s in r["setup"]:
            if s[0] == "dealer":
                out.append(f"dealer {s[1]}")
            elif s[0] == "deck":
                out.append("deck " + " ".join(s[1]))
            elif s[0] == "hand":
                out.append(f"hand {s[1]} " + " ".join(s[2]))
            else:
                out.append("center " + " ".join(s[1]))
        for p, evs in r["turns"]:
            out.append(f"turn {p}")
            out.extend("  " + _event_text(e) for e in evs)
        if r["score"]:
            out.append(f"score {r['score'][0]} {r['score'][1]}")
        if r["totals"]:
            out.append("totals " + " ".join(f"{q} {n}" for q, n in r["totals"]))
    if sim.winner:
        out.append(f"winner {sim.winner}")
    return "\n".join(out) + "\n"


def _event_model(e: Event) -> ev.TurnEvent:
    kind = e[0]
    if kind == "match":
        return ev.Match(target=e[1], cards=e[2])
    if kind == "draw":
        return ev.Draw(player=e[1], cards=e[2])
    if kind == "refill":
        return ev.Refill(cards=e[1])
    if kind == "place":
        return ev.Place(card=e[1])
    if kind == "pass":
        return ev.Pass()
    if kind == "dos":
        return ev.Dos(player=e[1])
    if kind == "catch":
        return ev.Catch(player=e[1], by=e[2])
    if kind == "reshuffle":
        return ev.Reshuffle(cards=e[1])
    raise ValueError(kind)


def _event_text(e: Event) -> str:
    kind = e[0]
    if kind == "match":
        return f"match {e[1]} with " + " + ".join(e[2])
    if kind == "draw":
        return " ".join(["draw"] + ([e[1]] if e[1] else []) + list(e[2]))
    if kind == "refill":
        return " ".join(["refill"] + list(e[1]))
    if kind == "place":
        return f"place {e[1]}"
    if kind == "pass":
        return "pass"
    if kind == "dos":
        return "dos" + (f" {e[1]}" if e[1] else "")
    if kind == "catch":
        return f"catch {e[1]} by {e[2]}"
    if kind == "reshuffle":
        return " ".join(["reshuffle"] + list(e[1]))
    raise ValueError(kind)


# ---- public entry points -------------------------------------------------------------------
