"""The benchmark corpora, built on demand into ``bench/out/`` (gitignored) and cached by seed.

- The DOS corpus: legal games from the project's own generator (``dosverify.games.dos.simulate``) in
  three sizes (``small``: one round, ``medium``: three rounds, ``large``: a whole game to the
  ruleset's target), for 2, 3 and 4 players, with ``deck`` lines and without (``hand`` and
  ``center`` lines instead); each game in the text notation (``.dos``) and the JSON form
  (``.json``).
- The peer corpus: random legal chess games from python-chess (seeded; random legal moves
  until the game is over or a ply limit), written as one PGN file of about the same number
  of bytes as the DOS text corpus.

A cache directory is named by the seed, the mode and a fingerprint of the generator's source
(so a changed generator never reuses a stale corpus); ``manifest.json`` is written last, so a
half-written directory is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"

SIZES = {
    "small": dict(rounds=1),
    "medium": dict(rounds=3),
    "large": dict(rounds=None, game=True),
}
PLAYERS = (2, 3, 4)
DECK = (True, False)
#: games per (size, players, deck) cell
PER_CELL = {
    "full": {"small": 48, "medium": 20, "large": 8},
    "quick": {"small": 12, "medium": 5, "large": 2},
}
CHESS_MAX_PLIES = 240


@dataclass
class Game:
    name: str
    size: str
    players: int
    deck: bool
    text: bytes  # the text notation, as the CLI and the service receive it
    json: bytes  # the same game in the JSON form
    lines: int
    path: Path  # the .dos file


def _fingerprint(*files: Path) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:10]


def _generator_files() -> list[Path]:
    dos = ROOT / "dosverify" / "games" / "dos"
    # a module may become a package of the same name (simulate did): either counts
    mods = [
        dos / f"{m}.py" if (dos / f"{m}.py").is_file() else dos / m
        for m in ("simulate", "notation", "jsonform", "events")
    ]
    return [*mods, ROOT / "spec" / "dos"]


def _dos_fingerprint() -> str:
    files = []
    for f in _generator_files():
        files.extend(
            sorted(p for p in f.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if f.is_dir() else [f]
        )
    return _fingerprint(*files)


def game_seed(seed: int, size: str, players: int, deck: bool, i: int) -> int:
    # every cell gets its own stream of seeds: adding games to one cell leaves the others alone
    return seed * 1_000_000 + list(SIZES).index(size) * 100_000 + players * 10_000 + (0 if deck else 5_000) + i


def dos_corpus(seed: int = 2024, mode: str = "full", verbose: bool = True) -> list[Game]:
    """Load the DOS corpus for (seed, mode), building it first if it is not cached."""
    d = OUT / f"dos-s{seed}-{mode}-{_dos_fingerprint()}"
    manifest = d / "manifest.json"
    if not manifest.is_file():
        from dosverify.games.dos.jsonform import dump_json
        from dosverify.games.dos.notation import parse
        from dosverify.games.dos.simulate import simulate_text

        if d.exists():
            shutil.rmtree(d)
        for old in OUT.glob(f"dos-s{seed}-{mode}-*"):  # corpora of an older generator
            shutil.rmtree(old, ignore_errors=True)
        d.mkdir(parents=True)
        if verbose:
            print(f"building the DOS corpus in {d.relative_to(ROOT)} ...", flush=True)
        entries = []
        for size, kw in SIZES.items():
            for players in PLAYERS:
                for deck in DECK:
                    for i in range(PER_CELL[mode][size]):
                        s = game_seed(seed, size, players, deck, i)
                        text = simulate_text(players, s, deck=deck, **kw)
                        parsed = parse(text)
                        if parsed.malformed or parsed.log is None or parsed.findings:
                            raise RuntimeError(f"the generator wrote a log that does not parse cleanly (seed {s})")
                        js = dump_json(parsed.log)
                        name = f"{size}-{players}p-{'deck' if deck else 'nodeck'}-{i:03d}"
                        (d / f"{name}.dos").write_text(text, encoding="utf-8")
                        (d / f"{name}.json").write_text(js, encoding="utf-8")
                        entries.append(dict(name=name, size=size, players=players, deck=deck, seed=s))
        manifest.write_text(json.dumps(dict(seed=seed, mode=mode, games=entries), indent=1), encoding="utf-8")
    m = json.loads(manifest.read_text(encoding="utf-8"))
    games = []
    for e in m["games"]:
        text = (d / f"{e['name']}.dos").read_bytes()
        games.append(
            Game(
                e["name"],
                e["size"],
                e["players"],
                e["deck"],
                text,
                (d / f"{e['name']}.json").read_bytes(),
                text.count(b"\n"),
                d / f"{e['name']}.dos",
            )
        )
    return games


def _random_chess_game(rng: random.Random, n: int) -> str:
    import chess
    import chess.pgn

    board = chess.Board()
    while not board.is_game_over(claim_draw=False) and board.ply() < CHESS_MAX_PLIES:
        moves = list(board.legal_moves)
        board.push(moves[rng.randrange(len(moves))])
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "dosverify bench"
    game.headers["Site"] = "random legal moves"
    game.headers["Date"] = "2024.01.01"
    game.headers["Round"] = str(n)
    game.headers["White"] = f"random-{2 * n}"
    game.headers["Black"] = f"random-{2 * n + 1}"
    return str(game)


def pgn_corpus(target_bytes: int, seed: int = 2024, verbose: bool = True) -> tuple[str, int]:
    """A PGN file of random legal chess games, about `target_bytes` long; returns (text, games)."""
    import chess

    # round the size so that small drifts of the DOS corpus reuse the cached file
    want = max(16_384, -(-target_bytes // 16_384) * 16_384)
    f = OUT / f"chess-s{seed}-{want}-py{chess.__version__}-{CHESS_MAX_PLIES}.pgn"
    if not f.is_file():
        if verbose:
            print(f"building the PGN corpus ({want} bytes) in {f.relative_to(ROOT)} ...", flush=True)
        rng = random.Random(seed)
        parts, total, n = [], 0, 0
        while total < want:
            g = _random_chess_game(rng, n)
            parts.append(g)
            total += len(g) + 2
            n += 1
        OUT.mkdir(parents=True, exist_ok=True)
        tmp = f.with_suffix(".tmp")
        tmp.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
        tmp.replace(f)
    text = f.read_text(encoding="utf-8")
    return text, text.count("[Event ")
