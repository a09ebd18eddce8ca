"""Packs are found, not listed: the entry-point group `dosverify.games` names them, a broken pack is
said by name on first use of its game and in `--version` without stopping the others, a pack of
another pack API is refused on load, and two distributions claiming one header word stop
everything with both named."""

from __future__ import annotations

import sys
import types

import pytest

from dosverify import api, games, registry
from dosverify.cli import main
from dosverify.games import GamePack, PackUnavailable, find_game
from dosverify.registry import REGISTRY, Registered


@pytest.fixture()
def extra(monkeypatch):
    """Register extra entry points beside the installed ones, for one test."""
    found = registry._cached_scan()

    def with_(*regs: Registered) -> None:
        monkeypatch.setattr(registry, "_cached_scan", lambda: [*found, *regs])
        REGISTRY.reload()
        games._LOADED.clear()
        games.default_game.cache_clear()

    yield with_
    monkeypatch.undo()
    REGISTRY.reload()
    games._LOADED.clear()
    games.default_game.cache_clear()


def test_the_installed_games_are_found_by_entry_point():
    found = {r.name: r for r in registry._scan()}
    assert {"dos", "uno-duo"} <= set(found)
    assert found["dos"].dist == "dosverify"
    for name in found:
        pack = find_game(name)
        assert pack.name == name and pack.api_version in games.SUPPORTED_PACK_API
        assert pack.capabilities <= games.CAPABILITIES


def test_a_broken_pack_is_said_by_name_and_stops_nothing(extra, capsys, tmp_path):
    extra(Registered("brokengame", "no_such_module_for_dosverify:PACK", "dosverify-brokengame"))
    assert "brokengame" in REGISTRY
    with pytest.raises(
        PackUnavailable, match=r"`brokengame`.*dosverify-brokengame.*failed to load.*ModuleNotFoundError"
    ):
        find_game("brokengame")
    report = api.check("brokengame 1\nplayers a b\n", name="x.log")
    assert report.verdict == "malformed"
    [f] = report.findings
    assert "dosverify-brokengame" in f.message and f.line == 1
    assert api.check((tmp_path / "x").as_posix() and "dos 1\n").verdict in ("legal", "illegal", "malformed")
    dos = api.check(find_game("dos").simulate(seed=1))
    assert dos.verdict == "legal"  # the other games go on
    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    assert "brokengame: unavailable:" in out and "dos: DOS" in out


def test_a_pack_of_another_api_is_refused_on_load(extra):
    mod = types.ModuleType("dosverify_future_pack")

    class Future(GamePack):
        api_version = 99
        name = "future"
        title = "Future"
        folder = "future"

    mod.PACK = Future()  # type: ignore[attr-defined]
    sys.modules["dosverify_future_pack"] = mod
    try:
        extra(Registered("future", "dosverify_future_pack:PACK", "dosverify-future"))
        with pytest.raises(PackUnavailable, match="pack API 99; this dosverify speaks pack API 1"):
            find_game("future")
    finally:
        del sys.modules["dosverify_future_pack"]


def test_two_packs_claiming_one_game_stop_with_both_named(extra, capsys):
    extra(Registered("dos", "other.dos:PACK", "dosverify-other-dos"))
    with pytest.raises(registry.PackConflict, match=r"`dos`: dosverify \(.*\) and dosverify-other-dos"):
        list(REGISTRY)
    assert main(["rules"]) == 2
    err = capsys.readouterr().err
    assert "two packs claim the game `dos`" in err and "dosverify-other-dos" in err and "Traceback" not in err


def test_the_default_game_is_the_packs_choice(extra):
    assert games.default_game() == min((find_game(n).default_rank, n) for n in REGISTRY)[1]


def test_the_service_answers_a_log_of_a_broken_pack_with_its_report(extra):
    """A log naming a registered game whose pack cannot load is a malformed report saying why
    (as on the command line), never a 500 (the service's own look at the log's game once raised),
    and a ruleset asked is judged as for a log naming no game."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    extra(Registered("brokengame", "no_such_module_for_dosverify:PACK", "dosverify-brokengame"))
    with TestClient(create_app()) as client:
        r = client.post(
            "/v1/check",
            params={"ruleset": "official"},
            content=b"brokengame 1\n",
            headers={"content-type": "text/plain"},
        )
    assert r.status_code == 200, r.text
    # the pool's worker is another process, which reads the installed entry points itself (here
    # without the broken one): the report is malformed either way; its wording is test_a_broken_pack_...'s
    assert r.json()["verdict"] == "malformed" and len(r.json()["findings"]) == 1
