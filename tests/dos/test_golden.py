"""Golden playthroughs (fixtures/dos/golden/): each seeded game is simulated and replayed afresh,
and its log and the state after every turn must equal the stored ones. When a change of the
specification moves them on purpose: `python -m dosverify.games.dos.golden --update`."""

from __future__ import annotations

import json

import pytest

from dosverify.games.dos import golden
from dosverify.games.dos.golden import GAMES, GOLDEN_DIR, compare, paths, play


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playthrough_unchanged(game):
    log_path, st_path = paths(game)
    assert log_path.exists() and st_path.exists(), (
        f"{game.name}: no stored playthrough; run `python -m dosverify.games.dos.golden --update`"
    )
    text, states = play(game)
    assert text == log_path.read_text(encoding="utf-8"), compare(game)
    stored = st_path.read_text(encoding="utf-8").splitlines()
    for i, (a, b) in enumerate(zip(stored, states, strict=False)):
        if a != b:
            pytest.fail(compare(game) or f"state line {i + 1} differs")
    assert len(stored) == len(states), compare(game)


def test_states_hold_the_full_state():
    seen_rounds = set()
    for g in GAMES:
        lines = paths(g)[1].read_text(encoding="utf-8").splitlines()
        assert len(lines) >= 5
        for line in lines:
            s = json.loads(line)
            assert {"round", "turn", "player", "hands", "center", "draw_pile", "discard_pile", "totals"} <= set(s)
            assert set(s["hands"]) == set(s["totals"])
            seen_rounds.add((g.name, s["round"]))
        assert json.loads(lines[-1])["round_over"] or g.rounds == 1
    assert any(r > 1 for _, r in seen_rounds), "one golden game should play several rounds"
    assert {g.ruleset for g in GAMES} >= {"official", "italian", "bosnian"}
    assert {g.players for g in GAMES} == {2, 3, 4}


def test_a_change_is_reported_with_the_first_differing_turn(tmp_path):
    g = GAMES[0]
    golden.write(g, tmp_path)
    assert compare(g, tmp_path) is None
    st = paths(g, tmp_path)[1]
    lines = st.read_text().splitlines()
    s = json.loads(lines[2])
    player = sorted(s["hands"])[0]
    s["hands"][player] = s["hands"][player] + ["R7"]
    s["draw_pile"] += 1
    lines[2] = golden.state_line(s)
    st.write_text("\n".join(lines) + "\n")
    msg = compare(g, tmp_path)
    assert msg and "state line 3" in msg and f"hands.{player}" in msg and "draw_pile" in msg
    log = paths(g, tmp_path)[0]
    log.write_text(log.read_text().replace("turn ", "turn  ", 1))
    msg = compare(g, tmp_path)
    assert msg and "log differs" in msg and "@@" in msg
    assert golden.main(["--dir", str(tmp_path)]) == 1
    assert golden.main(["--dir", str(tmp_path), "--update"]) == 0
    assert golden.main(["--dir", str(tmp_path)]) == 0


def test_golden_dir_is_the_fixture_dir():
    assert GOLDEN_DIR.parts[-3:] == ("fixtures", "dos", "golden")
