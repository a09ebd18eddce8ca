"""`dosverify profile` over a folder of both games (issue 35 item 3): each game's logs are profiled
by their own pack (never called malformed by the other's), the printed command names only what
differs from the defaults, each option qualified by its game, and that command judges the folder
legal."""

from __future__ import annotations

import json
import re

from dosverify.cli import main
from dosverify.games.dos.simulate import simulate_text
from dosverify.games.uno_duo.simulate import simulate


def _folder(tmp_path):
    for s in range(2):  # programs that write no `option` lines: DOS under at-once DCM draws, UNO Duo on 108 cards
        dos = simulate_text(2 + s, s, options={"dcm-draws": "at-once"})
        uno = simulate(seed=s, options={"deck": "108"}, whole_game=False, target=150)
        (tmp_path / f"d{s}.log").write_text(re.sub(r"(?m)^option .*\n", "", dos), encoding="utf-8")
        (tmp_path / f"u{s}.log").write_text(re.sub(r"(?m)^option .*\n", "", uno), encoding="utf-8")
    return tmp_path


def test_each_game_is_profiled_by_its_own_pack(tmp_path, capsys):
    folder = _folder(tmp_path)
    assert main(["profile", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "== DOS logs ==" in out and "== UNO Duo logs ==" in out and "malformed" not in out
    assert "2 DOS logs profiled" in out and "2 UNO Duo logs profiled" in out
    commands = [ln.removeprefix("check with: ") for ln in out.splitlines() if ln.startswith("check with: ")]
    assert commands == [
        f"dosverify check --option dos:dcm-draws=at-once {folder}",
        f"dosverify check --option uno-duo:deck=108 {folder}",
    ]
    both = ["check", "--option", "dos:dcm-draws=at-once", "--option", "uno-duo:deck=108", str(folder)]
    assert main(both) == 0  # the two commands' options together judge the whole folder legal
    capsys.readouterr()
    assert main(["check", str(folder)]) == 1  # under the defaults it is not


def test_json_is_one_object_keyed_by_game(tmp_path, capsys):
    folder = _folder(tmp_path)
    assert main(["profile", "--format", "json", str(folder)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(doc["games"]) == ["dos", "uno-duo"]
    assert doc["games"]["dos"]["inferred"]["dcm-draws"] == "at-once" and doc["games"]["dos"]["logs"] == 2
    assert doc["games"]["uno-duo"]["other_games_left_out"] == 2
    assert main(["profile", "--format=json", str(folder)]) == 0  # the flag in either spelling
    assert json.loads(capsys.readouterr().out) == doc


def test_one_games_folder_needs_no_flag_for_defaults(tmp_path, capsys):
    (tmp_path / "g.log").write_text(simulate_text(3, 1), encoding="utf-8")
    assert main(["profile", str(tmp_path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"check with: dosverify check {tmp_path}"  # every option at its default: no flag
