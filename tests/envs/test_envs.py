"""The PettingZoo environments (issue 34, docs/moves.md "PettingZoo"): PettingZoo's own API and seed
tests, the mask held to the table's listing, random games' logs judged by `check`, the docs' loop,
and observations that never show another seat's hidden cards."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test
from tiers import count

from dosverify.api import check
from dosverify.envs import dos_v0, uno_duo_v0
from dosverify.envs.base import IllegalAction

DOCS = Path(__file__).resolve().parents[2] / "docs" / "moves.md"
GAMES = count("DOSVERIFY_ENV_GAMES", full=12, quick=2)
CYCLES = count("DOSVERIFY_ENV_CYCLES", full=1000, quick=200)

ENVS = {
    "dos-2": lambda **kw: dos_v0.env(players=2, **kw),
    "dos-3": lambda **kw: dos_v0.env(players=3, **kw),
    "dos-4": lambda **kw: dos_v0.env(players=4, **kw),
    "uno-duo": lambda **kw: uno_duo_v0.env(**kw),
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_api_test(name):
    api_test(ENVS[name](), num_cycles=CYCLES)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_seed_test(name):
    seed_test(ENVS[name], num_cycles=CYCLES)


def _random_game(env, seed: int, each_step=None) -> None:
    """Play `env` to its end with masked random actions; `each_step(raw)` before each action."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if each_step is not None:
            each_step(env.unwrapped, agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _mask_is_the_listing(raw, agent) -> None:
    """Every masked action stands for lines the table lists; every listed line of the deciding
    agent (on turn, or out of turn) for exactly one action."""
    listed = raw.table.legal_moves()
    assert raw._choices, f"{agent} has an empty mask"
    for action, lines in raw._choices.items():
        assert all(m in listed for m in lines), (action, lines)
        if action not in (raw.codec.NOOP, raw.codec.END, raw.codec.DRAW):
            assert lines, f"action {action} stands for no listed line"
    if getattr(raw, "run", None):
        return  # a run's later cards: the lines the cards chosen so far can still become
    mine = [m for m in listed if m.actor == agent]
    for m in mine:
        holders = [a for a, lines in raw._choices.items() if m in lines]
        assert len(holders) == 1, (m, holders)
        assert holders == [raw.codec.action_of(raw, agent, m)]


@pytest.mark.parametrize("name", ENVS)
def test_the_mask_is_the_tables_listing_and_the_log_is_legal(name):
    for seed in range(GAMES):
        env = ENVS[name](render_mode="ansi")
        _random_game(env, seed, _mask_is_the_listing)
        assert env.unwrapped.table.game_over
        report = check(env.render())
        assert report.verdict == "legal", [f.message for f in report.findings][:3]


@pytest.mark.parametrize("name", ENVS)
def test_rewards_are_zero_sum_and_add_up_to_the_scores(name):
    env = ENVS[name]()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    got = Counter()
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        got[agent] += reward
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert abs(sum(got.values())) < 1e-6
    lines = env.unwrapped.table.log().splitlines()
    scored = [line.split() for line in lines if line.startswith("score ")]
    assert scored, "a whole game has a score line"
    sign = 1 if name.startswith("dos") else -1  # DOS: the winner gains; UNO Duo: the charged loses
    assert got[scored[0][1]] * sign > 0 or int(scored[0][2]) == 0 or len(scored) > 1


def _hidden_changed(raw, agent) -> None:
    """The acting seat's observation is the same when every other seat's hand (and the draw pile's
    order) is swapped for other cards of the same count."""
    before = raw.codec.encode(raw, agent)
    pos = raw.table.position
    others = [q for q in raw.possible_agents if q != agent]
    if hasattr(pos, "tb"):  # DOS
        saved = {q: pos.tb.hands[q] for q in others}
        pile = pos.tb.pile
        for q in others:
            pos.tb.hands[q] = ["W2"] * len(saved[q])
        pos.tb.pile = None if pile is None else ["R1"] * len(pile)
        after = raw.codec.encode(raw, agent)
        pos.tb.hands.update(saved)
        pos.tb.pile = pile
    else:  # UNO Duo
        st = pos.st
        if st is None:
            return
        saved = {q: st.hands[q] for q in others}
        for q in others:
            st.hands[q] = Counter({"W+4": sum(saved[q].values())})
        after = raw.codec.encode(raw, agent)
        st.hands.update(saved)
    assert np.array_equal(before, after), f"{agent}'s observation shows another seat's cards"


@pytest.mark.parametrize("name", ENVS)
def test_no_observation_shows_another_seats_hidden_cards(name):
    for seed in range(GAMES):
        _random_game(ENVS[name](), 100 + seed, _hidden_changed)


@pytest.mark.parametrize("name", ENVS)
def test_one_seed_deals_every_round_the_same_whatever_the_agents_choose(name):
    """Two agents playing one seed see the same cards dealt in every round both reach (issue 34,
    item 5): a round's deck comes from the seed and the round's number, never from what was played
    (who deals follows the rules: in DOS the last round's winner, V4)."""
    deals = []
    for choice_seed in (1, 2):
        env = ENVS[name]()
        env.reset(seed=5)
        rng = np.random.default_rng(choice_seed)
        for _agent in env.agent_iter(max_iter=4000):
            obs, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        by_round: dict[int, list[str]] = {}
        number = 0
        for line in env.unwrapped.table.log().splitlines():
            if line.startswith("round "):
                number = int(line.split()[1])
            elif line.startswith(("deck", "hand", "start", "turned", "draw-pile")):  # not `dealer`: a rule's (V4)
                by_round.setdefault(number, []).append(line)
        deals.append(by_round)
    both = sorted(set(deals[0]) & set(deals[1]))
    assert len(both) >= 2, f"{name}: fewer than two rounds reached by both games ({both})"
    for number in both:
        assert deals[0][number] == deals[1][number], f"{name}: round {number} dealt differently"
    assert deals[0] != deals[1] or len(both) > 1


def test_the_dos_actions_are_the_generators_matches():
    """dos_v0's matches (derived from spec/dos/deck.toml) are exactly the lines the DOS move
    generator can list, one per (Center Row kind, hand kinds, bonus)."""
    from dosverify.games.dos.moves.matchgen import double_moves, single_moves

    names, index = dos_v0.actions()
    kinds = dos_v0.kinds()
    assert len(kinds) == 41
    listed = set()
    for t in kinds:
        for i, a in enumerate(kinds):
            listed.update(line for line, _ in single_moves(t, a))
            for b in kinds[i:]:
                listed.update(line for line, _ in double_moves(t, a, b))
    assert {n for n in names if n.startswith("match ")} == listed
    assert len(names) == len(set(names)) == 6159
    assert all(names[i] == line for line, i in ((names[i], i) for i in index.values()))


def test_an_illegal_action_is_refused_with_the_referees_findings():
    env = dos_v0.env(players=2, explain_illegal=True)
    env.reset(seed=4)
    obs, *_ = env.last()
    agent = env.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])  # a double match the hand cannot make
    log = env.unwrapped.table.log()
    env.step(illegal)
    assert env.agent_selection == agent and env.unwrapped.table.log() == log
    said = env.infos[agent]["illegal"]
    assert said["action"] == illegal and said["line"].startswith("match ")
    assert said["findings"] and said["findings"][0]["rule"]
    raw = dos_v0.raw_env(players=2)
    raw.reset(seed=4)
    with pytest.raises(IllegalAction, match="not legal"):
        raw.step(illegal)


def test_a_uno_duo_run_is_played_one_card_per_step():
    """Over random games some run of several cards is built up, the same agent acting again."""
    seen = []

    def watch(raw, agent):
        if raw.run:
            seen.append((agent, list(raw.run)))

    for seed in range(GAMES + 4):
        _random_game(uno_duo_v0.env(), seed, watch)
        if seen:
            break
    assert seen, "no run of several cards in these games"
    assert all(len(run) >= 1 for _, run in seen)


def test_the_docs_random_agent_loop_runs():
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## PettingZoo") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "docs/moves.md's PettingZoo section has a python block"
    exec(compile(code.group(1), str(DOCS), "exec"), {})


def test_render_is_the_log_so_far():
    env = uno_duo_v0.env(render_mode="ansi")
    env.reset(seed=2)
    assert env.render().startswith("uno-duo 1\n")
    with pytest.raises(ValueError, match="ansi"):
        uno_duo_v0.raw_env(render_mode="human")
