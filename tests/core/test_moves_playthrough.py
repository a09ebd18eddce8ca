"""Golden playthroughs of the move API (fixtures/<game>/playthroughs/, dosverify.moves.playthrough):
each is recorded afresh and must equal the stored file step for step; its game is legal by `check`;
what it stores is what an outside engine compares against (counts and hashes of the listing).
When a change of a move generator moves them on purpose: `python -m dosverify.moves.playthrough --update`."""

from __future__ import annotations

import json

import pytest

from dosverify.api import check
from dosverify.moves import playthrough
from dosverify.moves.playthrough import FULL_EVERY, Spec, compare, listing_hash, log_of, record
from dosverify.moves.table import Table


def stored(spec: Spec) -> list[dict]:
    return [json.loads(line) for line in spec.path().read_text(encoding="utf-8").splitlines()]


STORED = playthrough.stored()


def test_the_stored_playthroughs_are_found_by_their_files():
    assert [s.name for s in STORED] == ["dos_2p_official_seed1", "dos_3p_official_seed2", "uno_duo_2p_official_seed1"]
    assert all(s.path().is_file() for s in STORED)


@pytest.mark.parametrize("spec", STORED, ids=lambda s: s.name)
def test_playthrough_unchanged(spec):
    assert spec.path().exists(), f"{spec.name}: none stored; run `python -m dosverify.moves.playthrough --update`"
    assert compare(spec) is None, compare(spec)


@pytest.mark.parametrize("spec", STORED, ids=lambda s: s.name)
def test_playthrough_is_a_legal_game_with_its_deals_written(spec):
    records = stored(spec)
    log = log_of(records)
    report = check(log)
    assert report.verdict == "legal", [(f.line, f.rule, f.message) for f in report.findings]
    assert any(line.startswith("deck ") for line in log.splitlines())  # seeded deals, written out
    assert records[-1]["played"] is None and "end" in records[-1]
    assert [r["step"] for r in records[1:]] == list(range(len(records) - 1))


@pytest.mark.parametrize("spec", STORED, ids=lambda s: s.name)
def test_stored_listings_agree_with_their_counts_and_hashes(spec):
    """What an outside engine compares against is self-consistent: the hash is of the full listing's
    sorted lines, the count its length, the line played one of them; full every FULL_EVERY steps."""
    for r in stored(spec)[1:]:
        assert ("moves" in r) == (r["step"] % FULL_EVERY == 0 or r["played"] is None)
        if "moves" in r:
            lines = [m["line"] for m in r["moves"]]
            assert r["count"] == len(lines) and r["hash"] == listing_hash(lines)
            assert r["played"] is None or r["played"] in lines


@pytest.mark.parametrize("spec", STORED, ids=lambda s: s.name)
def test_a_log_read_back_lists_what_the_playthrough_stored(spec):
    """An engine's way in: the log so far, read with `from_log`, lists the stored count and hash at
    every step whose full listing is stored (the generator's two entries agree)."""
    records = stored(spec)
    head, steps = records[0], records[1:]
    for r in steps:
        if "moves" not in r or r["step"] == 0:
            continue
        cut = log_of([head, *steps[: r["step"]]])
        listing = [m.line for m in Table.from_log(cut).legal_moves()]
        assert (len(listing), listing_hash(listing)) == (r["count"], r["hash"]), (spec.name, r["step"])


def test_the_generator_command_writes_the_stored_file(capsys):
    spec = STORED[0]
    assert playthrough.main(["--game", spec.game, "--players", str(spec.players), "--seed", str(spec.seed)]) == 0
    assert capsys.readouterr().out == spec.path().read_text(encoding="utf-8")


def test_a_change_is_reported_with_the_first_differing_step_and_both_listings(tmp_path):
    spec = STORED[0]
    records, _ = record(spec)
    path = spec.path(tmp_path)
    for moved in (FULL_EVERY, FULL_EVERY + 1):  # a step with its full listing stored, one without
        changed = [dict(r) for r in records]
        step = changed[moved + 1]
        step.update(count=step["count"] + 1, hash="0" * 16)
        if "moves" in step:
            step["moves"] = [*step["moves"], {"line": "turn zed", "actor": "table", "kind": "turn"}]
        path.write_text(playthrough.render(changed), encoding="utf-8")
        msg = compare(spec, tmp_path)
        assert msg and f"step {moved} differs" in msg and "stored listing" in msg and "now listing" in msg
        assert f"hash {records[moved + 1]['hash']}" in msg  # the fresh listing, in full
        assert ("only stored: ['turn zed']" in msg) == ("moves" in step)
    assert playthrough.main(["--dir", str(tmp_path)]) == 1
    assert playthrough.main(["--dir", str(tmp_path), "--update"]) == 0
    assert playthrough.main(["--dir", str(tmp_path)]) == 0
