"""The single-agent Gymnasium environment durak/Durak-v0 (durak.rl.gymnasium_env, extra ``rl``).

CI installs the extra, so there a missing library fails the run instead of skipping it.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from durak import IllegalActionError, PlayerView, Rules, Take, view
from durak.actions import Action
from durak.bots import RandomBot
from durak.rl import encoding as enc
from durak.rl.gymnasium_env import ENV_ID, DurakEnv


def play(env: DurakEnv, seed: int, rng: np.random.Generator) -> tuple[float, dict[str, Any], int]:
    """A random masked episode: the last reward, the last info and the agent's steps."""
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0, "the agent is asked only when he can act"
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        if terminated or truncated:
            return reward, info, steps
        assert reward == 0.0


@pytest.mark.parametrize(
    ("preset", "opponents"),
    [("podkidnoy", "rule"), ("german-classic", "random"), ("pairs", ["rule", "random", "rule"])],
)
def test_check_env_passes(preset: str, opponents: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(DurakEnv(preset, opponents=opponents))
        check_env(gymnasium.make(ENV_ID, preset=preset, opponents=opponents).unwrapped)


def test_make_imports_the_module_from_the_id() -> None:
    env = gymnasium.make("durak.rl.gymnasium_env:durak/Durak-v0", preset="perevodnoy", seat=1)
    obs, info = env.reset(seed=1)
    assert info["seat"] == 1
    assert env.unwrapped.rules.transfer_by_card
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("preset", ["podkidnoy", "polish", "pairs-3x2"])
def test_rewards_follow_the_result_from_the_agents_seat(preset: str) -> None:
    env = DurakEnv(preset, opponents="rule")
    rng = np.random.default_rng(2)
    seats = set()
    for seed in range(6):
        reward, info, _ = play(env, seed, rng)
        result = env.game.result
        assert result is not None
        seat = env.seat
        seats.add(seat)
        expected = 0.0 if result.draw else 1.0 if seat in result.winners else -1.0
        assert reward == expected
        assert info["durak"] == (result.durak == seat) and info["place"] == result.places[seat]
    assert len(seats) > 1, "seat=None draws the agent's seat"


def test_the_same_seed_gives_the_same_episode() -> None:
    env = DurakEnv(opponents="search:playouts=8,time_limit=none")
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=11)
        trace = [info["seat"], obs["observation"].tobytes()]
        rng = np.random.default_rng(0)
        for _ in range(15):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            trace.append(obs["observation"].tobytes())
            if terminated or truncated:
                break
        runs.append(trace)
    assert runs[0] == runs[1]


def test_opponents_may_be_bots_callables_and_lists() -> None:
    seen: list[PlayerView] = []

    def taker(v: PlayerView) -> Action:
        seen.append(v)
        takes = [a for a in v.legal_actions if isinstance(a, Take)]
        return takes[0] if takes else v.legal_actions[0]

    env = DurakEnv(players=3, seat=0, opponents=[RandomBot(1), taker])
    rng = np.random.default_rng(4)
    play(env, 0, rng)
    assert seen and all(v.player == 2 for v in seen), "each opponent sees its own view (R13)"
    with pytest.raises(ValueError, match="2 other seats"):
        DurakEnv(players=3, opponents=["rule"])
    with pytest.raises(ValueError, match="unknown bot"):
        DurakEnv(opponents="nobody")
    with pytest.raises(TypeError, match="opponent"):
        DurakEnv(opponents=[42])
    with pytest.raises(ValueError, match="seat"):
        DurakEnv(seat=2)


def test_an_illegal_action_loses_or_raises() -> None:
    env = DurakEnv(seat=0)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert env.game == before and not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    strict = DurakEnv(seat=0, illegal="raise")
    strict.reset(seed=3)
    before = strict.game
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.game == before
    with pytest.raises(ValueError, match="outside"):
        strict.step(10_000)


def test_masks_observations_and_truncation() -> None:
    env = DurakEnv(seat=1, max_moves=9)
    obs, _ = env.reset(seed=5)
    assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
    assert obs["action_mask"].tolist() == enc.view_mask(view(env.game, 1)).astype(int).tolist()
    assert (obs["observation"] == enc.observation(view(env.game, 1))).all()
    rng = np.random.default_rng(0)
    truncated = terminated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
    assert truncated and reward == 0.0 and env.moves == 9


def test_human_render_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = DurakEnv(seat=0, render_mode="human", rules=Rules(deck_size=24))
    env.reset(seed=1)
    assert "the agent is player_0" in capsys.readouterr().out
    ansi = DurakEnv(seat=0, render_mode="ansi")
    ansi.reset(seed=1)
    text = ansi.render()
    assert isinstance(text, str) and "player_1" in text
