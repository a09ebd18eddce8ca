"""What the store's tests share: the two databases every test runs against (SQLite in a temporary
folder, and a real PostgreSQL server started by pgserver), and logs to submit (simulated games,
the rule fixtures' illegal logs, and bytes that are no log)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from pgserver import PgServer, pg_bin

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ("sqlite", "postgresql")


def need_postgres() -> None:
    if pg_bin() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed (CI installs it: see .ci/run)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql); CI runs these tests")


@pytest.fixture(scope="session")
def pg_server():
    need_postgres()
    server = PgServer()
    yield server
    server.close()


@pytest.fixture(params=[pytest.param(b, marks=pytest.mark.postgres) if b == "postgresql" else b for b in BACKENDS])
def db_url(request, tmp_path) -> str:
    """A fresh, empty database of each kind: a file in tmp_path, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'events.db'}"
    server = request.getfixturevalue("pg_server")
    return server.new_database("t" + uuid.uuid4().hex[:12])


def game_logs(n: int, *, whole: bool = False, start: int = 0, players: int = 2) -> list[bytes]:
    """``n`` distinct legal logs of simulated DOS games (one round each, or whole games)."""
    from dosverify.games import find_game

    pack = find_game("dos")
    return [pack.simulate(seed=start + i, players=players, whole_game=whole).encode() for i in range(n)]


def uno_logs(seeds, *, whole: bool = False) -> list[bytes]:
    """Legal logs of simulated UNO Duo games (one round each, or whole games), one per seed."""
    from dosverify.games import find_game

    pack = find_game("uno-duo")
    return [pack.simulate(seed=s, whole_game=whole).encode() for s in seeds]


def expected_ranking(logs: list[bytes], better: str) -> list[str]:
    """The players in the default order (more wins, the better points, then the name), read from
    the logs' own text (each one's last `totals` line and its `winner`), not by the store: every
    game legal, so illegal counts nothing."""
    wins: dict[str, int] = {}
    points: dict[str, int] = {}
    for data in logs:
        last: dict[str, int] = {}
        for line in data.decode().splitlines():
            words = line.split()
            if words[:1] == ["players"]:
                for p in words[1:]:
                    wins.setdefault(p, 0)
                    points.setdefault(p, 0)
            elif words[:1] == ["totals"]:
                last = {words[i]: int(words[i + 1]) for i in range(1, len(words), 2)}
            elif words[:1] == ["winner"]:
                wins[words[1]] += 1
        for p, n in last.items():
            points[p] += n
    sign = -1 if better == "higher" else 1
    return sorted(wins, key=lambda p: (-wins[p], sign * points[p], p))


def illegal_logs() -> list[bytes]:
    rules = ROOT / "fixtures" / "dos" / "rules"
    return [p.read_bytes() for p in sorted(rules.glob("*/illegal.log"))[:6]]


MALFORMED = b"dos 1\nplayers ann\nthis is no log\n"
