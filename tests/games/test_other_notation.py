"""A log in another game's notation (issue 35, item 2; READINGS R100 of DOS, R30 of UNO Duo): a text
log whose lines are another registered game's, under this game's header, is malformed with one
finding that names the game and its header, in both directions and for every pack that tells its
lines (capability ``recognize``: DOS, UNO Duo, and the test pack Tiny); a log of the header's own
game, legal or not, keeps its usual report.

The rule (dosverify.pipeline.other_notation): of the log's lines after its header (none blank or
a comment alone), the header's game cannot read at least half of those both games do not read,
and the other game reads at least 90% of them all."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tiers import count

from dosverify.api import check
from dosverify.games import REGISTRY, GamePack, _notations, find_game
from dosverify.pipeline import event_lines, other_notation

ROOT = Path(__file__).resolve().parents[2]
GAMES = count("DOSVERIFY_CONTRACT_GAMES", 12, 4)
TELLING = [find_game(n) for n in REGISTRY if "recognize" in find_game(n).capabilities]
NAMES = [p.name for p in TELLING]
PAIRS = [(a, b) for a in NAMES for b in NAMES if a != b]  # (the log's game, the header written)


def rehead(text: str, header: str) -> str:
    """`text` with its header line (the first with more than a comment) replaced by `header`."""
    lines = text.lstrip("\ufeff").split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.split("#", 1)[0].strip())
    lines[i] = header
    return "\n".join(lines)


def header_of(name: str) -> str:
    return f"{name} {max(find_game(name).versions)}"


def message(name: str) -> str:
    return f"this looks like a {find_game(name).title} log; its first line should be `{header_of(name)}`"


def assert_named(report, game: str, header_game: str) -> None:
    """The report of a log of `game` under `header_game`'s header: malformed, one finding, at the header."""
    assert report.verdict == "malformed", [f.message for f in report.findings[:3]]
    assert report.game == header_game and report.ruleset is None and report.rounds == 0
    [f] = report.findings
    assert f.message == message(game) and f.severity == "error" and f.kind == "syntax"
    assert f.rule in ("notation.version", "notation.line") and f.rule in find_game(header_game).spec().rules
    assert f.expected == f"`{header_of(game)}`" and f.found == header_of(header_game)
    assert f.line == event_lines(report.text)[0] and f.column == 1


def conformance(folder: str) -> list[Path]:
    return sorted((ROOT / "fixtures" / folder / "conformance").glob("*.log"))


def has_rounds(text: str) -> bool:
    return any(ln.split("#", 1)[0].split()[:1] == ["round"] for ln in text.splitlines())


# ---- the rule, at its edges (games made up: the core names none) ----------------------------------


@dataclass
class Fake:
    """A game whose recognizer reads the lines of `reads` (by index)."""

    name: str
    reads: set[int]
    title: str = ""
    versions: tuple[int, ...] = (1,)

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]:
        for line in lines:
            yield int(line.split()[1]) in self.reads


def _log(n: int) -> str:
    return "alpha 1\n" + "".join(f"line {i}\n" for i in range(n))


def _named(n: int, header: set[int], other: set[int]) -> str | None:
    got = other_notation("alpha", _log(n), lambda: [Fake("alpha", header, "Alpha"), Fake("beta", other, "Beta")])
    return None if got is None else got.game.name


def test_the_other_game_must_read_at_least_nine_lines_in_ten():
    assert _named(30, set(), set(range(27))) == "beta"  # 27 of 30: 90%
    assert _named(30, set(), set(range(26))) is None  # 26 of 30: below
    assert _named(25, set(), set(range(23))) == "beta"  # 23 of 25: 92%
    assert _named(25, set(), set(range(22))) is None  # 22 of 25: 88%


def test_the_header_game_must_fail_on_at_least_half_of_the_lines_not_read_by_both():
    other = set(range(27))  # 27 of 30, lines 27-29 the header game's alone
    # 6 lines not read by both: 3 the header's alone, 3 it cannot read: exactly half
    assert _named(30, set(range(24)) | {27, 28, 29}, other) == "beta"
    # 5 lines not read by both: 3 the header's alone, 2 it cannot read: below half
    assert _named(30, set(range(25)) | {27, 28, 29}, other) is None
    # 4 lines not read by both (26-29), 2 the header's alone: exactly half; 3 (27-29) and 1 unread: below
    assert _named(30, set(range(26)) | {27, 28}, other | {29}) == "beta"
    assert _named(30, set(range(29)), other | {29}) is None


def test_junk_tells_for_neither_game():
    """Lines neither game reads are no evidence for the other game: it must read more lines alone than
    there are such lines (a DOS log of 300 rounds and 30 junk lines stays DOS's)."""
    assert _named(331, set(range(301)), set(range(300))) is None  # shared 300, the header's 1, junk 30
    assert _named(331, set(range(300)), set(range(320))) == "beta"  # the other's alone 20, junk 11
    assert _named(331, set(range(300)), set(range(310))) is None  # the other's alone 10, junk 21


def test_a_log_its_header_game_reads_whole_is_never_another_games():
    assert _named(30, set(range(30)), set(range(30))) is None
    assert _named(1, set(), {0}) == "beta"  # one line the other game alone reads
    assert _named(0, set(), set()) is None


def test_of_two_other_games_the_one_that_reads_more_and_an_unknown_header_names_none():
    both = [Fake("alpha", set(), "Alpha"), Fake("beta", set(range(27)), "Beta"), Fake("gamma", set(range(29)), "G")]
    assert other_notation("alpha", _log(30), lambda: both).game.name == "gamma"
    assert other_notation("delta", _log(30), lambda: both) is None  # the header's game cannot tell its lines


def test_the_lines_that_count_leave_out_the_header_blanks_and_comments():
    assert event_lines("# a comment\n\ndos 1  # the header\n  # more\nplayers ann bob\n\nround 1\n") == (
        3,
        ["players ann bob", "round 1"],
    )
    assert event_lines("players ann bob\nround 1\n") == (1, ["players ann bob", "round 1"])  # no header: all
    assert event_lines("\n# nothing\n") == (0, [])


# ---- every registered pack that tells its lines, both directions ----------------------------------


def test_the_built_in_games_and_the_test_pack_tell_their_lines():
    assert {"dos", "uno-duo", "tiny"} <= set(NAMES)
    assert [p.name for p in _notations()] == NAMES


@pytest.mark.parametrize(("game", "header"), [("uno-duo", "dos"), ("dos", "uno-duo")])
def test_every_conformance_log_under_the_other_header_is_named(game, header):
    """Every log of the conformance corpus (legal, illegal, malformed), under the other game's header:
    named, but a log of header lines alone (no round), which both notations read alike."""
    named, alike = 0, []
    for path in conformance(game):
        text = rehead(path.read_text(encoding="utf-8", errors="replace"), header_of(header))
        report = check(text, name=path.name)
        if has_rounds(text):
            assert_named(report, game, header)
            named += 1
        else:
            alike.append(path.name)
            assert not any("looks like" in f.message for f in report.findings)
    assert named > 200 and len(alike) <= 2


@pytest.mark.parametrize("game", ["dos", "uno-duo"])
def test_no_fixture_of_a_game_is_taken_for_another(game):
    """Every fixture log (rules, conformance, notation, games, ...) under its own header: its own."""
    seen = 0
    for path in sorted((ROOT / "fixtures" / game.replace("_", "-")).rglob("*.log")):
        text = path.read_text(encoding="utf-8", errors="replace")
        assert other_notation(game, text, _notations) is None, path
        seen += 1
    assert seen > 300


def test_a_dos_log_with_uno_duo_lines_in_it_stays_a_dos_log_with_its_findings():
    path = ROOT / "fixtures/dos/notation/example.log"
    text = path.read_text(encoding="utf-8")
    assert check(text).verdict == "legal"
    lines = text.split("\n")
    places = [i for i, ln in enumerate(lines) if ln.strip().startswith(("place", "refill"))]
    for typo in ("  play R5", "  uno", "draft ann keep R1 discard G2", "  challenge"):
        mutant = lines[:]
        mutant[places[0]] = typo
        report = check("\n".join(mutant))
        assert report.verdict in ("illegal", "malformed") and report.findings
        assert not any("looks like" in f.message for f in report.findings)
        assert any(f.line == places[0] + 1 for f in report.findings)  # the line is reported as it was


def _generated(pack: GamePack, seed: int) -> str:
    styles, counts = pack.styles(), pack.player_counts()
    return pack.simulate(
        seed=seed, players=counts[seed % len(counts)], whole_game=seed % 2 == 1, style=styles[seed % len(styles)]
    )


@pytest.mark.parametrize(("game", "header"), PAIRS)
def test_generated_games_under_another_header_are_named(game, header):
    """The property, over generated games of each game in each rendering (one round or a whole game,
    each player count): under another game's header, the log is named."""
    pack = find_game(game)
    for seed in range(GAMES):
        assert_named(check(rehead(_generated(pack, seed), header_of(header))), game, header)


@pytest.mark.parametrize("game", NAMES)
def test_generated_games_under_their_own_header_never_are(game):
    """And under its own header, legal or with one mistake (each mutation operator, on one-round
    games in the canonical rendering, where the operators place their mistakes), a generated log
    never is: it keeps its own report."""
    pack = find_game(game)
    ops = pack.operators() if "mutate" in pack.capabilities else {}
    counts = pack.player_counts()
    for seed in range(GAMES):
        assert check(_generated(pack, seed)).verdict == "legal"
        if seed % 2:
            continue
        text = pack.simulate(seed=seed, players=counts[seed % len(counts)])
        for name, op in sorted(ops.items()):
            mutant = op(text, random.Random(seed))
            if mutant is not None:
                report = check(mutant.text)
                assert not any("looks like" in f.message for f in report.findings), (name, seed)


@pytest.mark.parametrize("game", NAMES)
def test_a_games_own_lines_are_read_by_its_recognizer(game):
    """A recognizer reads every line of its game's legal generated logs (else a log of it could be
    taken for another's)."""
    pack = find_game(game)
    for seed in range(GAMES):
        _, lines = event_lines(_generated(pack, seed))
        assert all(pack.recognize(lines)), seed


# ---- every surface answers it as a malformed log ----------------------------------------------


@pytest.fixture(scope="module")
def uno_as_dos(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("other") / "uno.log"
    path.write_text(rehead(find_game("uno-duo").simulate(seed=3), "dos 1"), encoding="utf-8")
    return path


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dosverify", *args], capture_output=True, cwd=ROOT, timeout=120)


def test_the_command_line_exits_2_with_the_one_message(uno_as_dos):
    r = _cli("check", "--color", "never", str(uno_as_dos))
    out = r.stdout.decode()
    assert r.returncode == 2, out
    assert message("uno-duo") in out and out.count("error[") == 1 and "malformed" in out
    r = _cli("check", "--format", "json", str(uno_as_dos))
    assert r.returncode == 2
    report = json.loads(r.stdout)
    assert report["verdict"] == "malformed" and [f["message"] for f in report["findings"]] == [message("uno-duo")]
    r = _cli("check", "--format", "sarif", str(uno_as_dos))
    assert r.returncode == 2
    [run] = json.loads(r.stdout)["runs"]
    assert [res["message"]["text"] for res in run["results"]][0].startswith(message("uno-duo"))


def test_the_service_answers_it_as_a_malformed_log(uno_as_dos):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    body = uno_as_dos.read_bytes()
    text = {"content-type": "text/plain"}
    with TestClient(create_app()) as client:
        r = client.post("/v1/check", content=body, headers=text)
        assert r.status_code == 200, r.text
        assert r.json()["verdict"] == "malformed" and [f["message"] for f in r.json()["findings"]] == [
            message("uno-duo")
        ]
        legal = find_game("dos").simulate(seed=1)
        r = client.post("/v1/check/batch", json=[body.decode(), legal])
        assert r.status_code == 200
        assert [rep["verdict"] for rep in r.json()["reports"]] == ["malformed", "legal"]
        r = client.post("/v1/replay", content=body, headers=text)
        assert r.status_code == 200
        assert r.json()["report"]["verdict"] == "malformed" and r.json()["states"] == []


def test_an_events_audit_judges_it_malformed_without_a_result(uno_as_dos):
    from dosverify.store.judge import judge

    got = judge(uno_as_dos.read_bytes(), "table 1")
    assert got.verdict == "malformed" and got.result is None
    assert [f["message"] for f in got.report["findings"]] == [message("uno-duo")]
