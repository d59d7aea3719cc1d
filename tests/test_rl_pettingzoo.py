"""The PettingZoo AEC environment durak_v1 (durak.rl.pettingzoo_env, extra ``rl``).

CI installs the extra, so there a missing library fails the run instead of skipping it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pettingzoo  # noqa: F401
import pytest
from pettingzoo.test import api_test, seed_test

from durak import IllegalActionError, Rules, view
from durak.presets import PRESETS
from durak.rl import encoding as enc
from durak.rl.pettingzoo_env import env, raw_env


def _quiet_api_test(e: Any, cycles: int) -> None:
    # The api test warns that a dict observation is not a Box: that is PettingZoo's own
    # convention for action masks, as in its classic games.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=cycles)


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("podkidnoy", 2, {}),
        ("perevodnoy-show-trump", 4, {"trump_six_exchange": True, "misdeal_suit_count": 4}),
        ("pairs", None, {}),
        ("polish", 3, {"deck_size": 52}),
    ],
)
def test_api_test_passes(preset: str, players: int | None, overrides: dict[str, Any]) -> None:
    _quiet_api_test(env(preset, players, **overrides), 300)


def test_seed_test_passes() -> None:
    seed_test(env, num_cycles=300)
    seed_test(lambda: env("perevodnoy", 3), num_cycles=300)


def _play(e: Any, rng: np.random.Generator) -> list[tuple[str, float]]:
    """Play random masked actions to the end; returns the final (agent, reward) pairs."""
    finals = []
    for agent in e.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            finals.append((agent, reward))
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))
    return finals


@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy", "polish", "pairs-3x2"])
def test_a_random_game_with_masks_terminates_with_the_result(preset: str) -> None:
    rng = np.random.default_rng(3)
    e = env(preset)
    for seed in range(3):
        e.reset(seed=seed)
        game = e.unwrapped
        finals = _play(e, rng)
        assert not e.agents
        result = game.game.result
        assert result is not None, "a random game ends long before max_moves"
        rewards = dict(finals)
        for seat in range(game.rules.players):
            expected = 0.0 if result.draw else 1.0 if seat in result.winners else -1.0
            assert rewards[f"player_{seat}"] == expected


def test_the_acting_agent_is_the_next_actor_and_only_it_has_a_mask() -> None:
    e = raw_env(players=3)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        state = e.game
        if state.is_over:
            break
        actor = int(e.agent_selection.split("_")[1])
        assert view(state, actor).next_actor == actor
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            seat = int(agent.split("_")[1])
            if seat == actor:
                assert (mask == enc.legal_mask(state, seat)).all() and mask.any()
            else:
                assert not mask.any()
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def test_observations_never_contain_another_players_hidden_card() -> None:
    e = raw_env("perevodnoy", 3, trump_six_exchange=True)
    e.reset(seed=12)
    rules = e.rules
    pieces = {p.name: p for p in enc.observation_layout(rules)}
    n = rules.cards
    rng = np.random.default_rng(1)
    while e.agents and not e.game.is_over:
        state = e.game
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            obs = e.observe(agent)["observation"]
            assert (obs == enc.observation(view(state, seat))).all()
            hidden = {
                enc.card_index(c, rules)
                for other, hand in enumerate(state.hands)
                if other != seat
                for c in set(hand) - state.known[other]
            }
            for name in ("hand", "known", "table_attack", "table_beating", "discard", "shown"):
                piece = pieces[name]
                flagged = set((np.flatnonzero(obs[piece.offset : piece.end]) % n).tolist())
                assert hidden.isdisjoint(flagged), (agent, name)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_reset_seed_fixes_the_deal_and_deal_seed_picks_a_durak_seed() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=99)
    b.reset(seed=99)
    assert a.game == b.game
    a.reset()
    b.reset()
    assert a.game == b.game, "resets without a seed continue the seeded sequence"
    b.reset(seed=100)
    assert a.game.hands != b.game.hands or a.game.stock != b.game.stock
    a.reset(options={"deal_seed": "table-7"})
    assert a.game.seed == "table-7"


def test_illegal_actions_end_the_game_in_the_wrapper_and_raise_in_the_raw_env() -> None:
    e = env()
    e.reset(seed=0)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1 and sum(e.rewards.values()) == -1

    raw = raw_env()
    raw.reset(seed=0)
    before = raw.game
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert raw.game is before
    with pytest.raises(ValueError, match="outside"):
        raw.step(10_000)


def test_max_moves_truncates_with_zero_rewards() -> None:
    e = raw_env(max_moves=5)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e._cumulative_rewards.values()) == {0.0}


def test_rules_and_options() -> None:
    assert raw_env("pairs").rules.players == 4
    assert raw_env(rules=Rules(deck_size=24), players=9).rules.players == 2
    assert raw_env("podkidnoy", 3, deck_size=52).rules.cards == 52
    assert raw_env("german-classic").action_space("player_0").n == 462
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_moves"):
        raw_env(max_moves=0)


def test_ansi_render_shows_the_table() -> None:
    e = env(render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str) and "player_0" in text and "trump" in text
    quiet = raw_env()
    quiet.reset(seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None


@pytest.mark.parametrize("preset", list(PRESETS))
def test_api_test_passes_for_every_preset(preset: str) -> None:
    _quiet_api_test(env(preset), 60)


def test_human_render_prints_the_table_after_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(render_mode="human")
    e.reset(seed=4)
    assert e.render() is None
    first = capsys.readouterr().out
    assert "player_0" in first and "trump" in first
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask)[0]))
    after = capsys.readouterr().out
    assert "player_1" in after and after != first


@pytest.mark.parametrize("preset", ["podkidnoy", "pairs"])
def test_state_is_every_seats_observation(preset: str) -> None:
    e = raw_env(preset)
    e.reset(seed=5)
    n = e.rules.players
    size = enc.observation_size(e.rules)
    for _ in range(12):
        state = e.state()
        assert state.shape == e.state_space.shape == (n * size,)
        assert e.state_space.contains(state)
        for seat in range(n):
            own = enc.observation(view(e.game, seat))
            assert (state[seat * size : (seat + 1) * size] == own).all()
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    state = e.state()
    hands = {c for hand in e.game.hands for c in hand}
    hand = {p.name: p for p in enc.observation_layout(e.rules)}["hand"]
    seen = set()
    for seat in range(n):
        base = seat * size + hand.offset
        flagged = np.flatnonzero(state[base : base + hand.length])
        seen |= {enc.index_card(int(i), e.rules) for i in flagged}
    assert seen == hands


def test_german_classic_leads_several_cards_through_the_environment() -> None:
    """R4.2: several-card leads are actions of the environment (group ids)."""
    e = env("german-classic")
    rng = np.random.default_rng(1)
    group_ids = 0
    for seed in range(3):
        e.reset(seed=seed)
        for _agent in e.agent_iter(10_000):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            group_ids += int(np.count_nonzero((legal >= 3 + 36) & (legal < 3 + 36 + 99)))
            e.step(int(rng.choice(legal)))
    assert group_ids > 0
