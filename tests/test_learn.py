"""Training the learned agent (issue 29, item 2): a tiny self-play run on the JAX engine writes
weights in the documented format that load back and play, is reproducible for its seed, and
lowers its loss on a fixed batch.

Needs the ``train`` extra (jax, optax). CI installs it, so there a missing library fails the
run instead of skipping it.
"""

from __future__ import annotations

from pathlib import Path

import jax
import numpy as np
import optax
import pytest

from durak import Rules, new_game, next_actor, view
from durak.agent import LearnedBot, load_network, save_network
from durak.jax import Env
from durak.learn import Config, init_params, main, q_values, to_network, train

TINY = {"batch": 8, "horizon": 48, "hidden": (16,), "minibatch": 128}


def test_issue29_a_tiny_training_run_writes_weights_that_load_and_play(tmp_path: Path) -> None:
    out = tmp_path / "w.npz"
    lines: list[str] = []
    result = train(Config(seed=3, iterations=3, **TINY), str(out), log=lines.append)
    assert result.iterations == 3 and result.steps == 3 * 8 * 48
    assert len(result.losses) == 3 and all(np.isfinite(result.losses))
    assert 0 < result.samples <= result.steps
    assert lines[0].startswith("iteration 1: 384 steps")
    net = load_network(out)
    assert net.rules == Rules() and net.meta["iterations"] == 3 and net.meta["seed"] == 3
    np.testing.assert_allclose(
        net.weights[0][0], np.asarray(result.network.weights[0][0], np.float16), atol=0
    )
    again = train(Config(seed=3, iterations=3, **TINY), None, log=lambda _: None)
    np.testing.assert_array_equal(again.network.weights[-1][0], result.network.weights[-1][0])
    state = new_game(Rules(), seed=1)
    actor = next_actor(state)
    assert actor is not None
    bot = LearnedBot(1, weights=str(out))
    assert bot.choose(view(state, actor)) in view(state, actor).legal_actions


def test_issue29_the_command_line_trains_and_writes_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.npz"
    # The first test's configuration: compiled once.
    argv = ["--players", "2", "--iterations", "1", "--batch", "8", "--horizon", "48"]
    argv += ["--hidden", "16", "--minibatch", "128", "--seed", "3", "--out", str(out)]
    assert main(argv) == 0
    assert "done: 1 iterations, 384 steps" in capsys.readouterr().out
    assert load_network(out).meta["iterations"] == 1


def test_issue29_adam_on_monte_carlo_targets_lowers_the_loss() -> None:
    # The regression the training does, on a fixed batch: the loss falls.
    key = jax.random.PRNGKey(0)
    params = init_params(key, [10, 16, 5])
    obs = jax.random.uniform(jax.random.PRNGKey(1), (64, 10))
    action = jax.random.randint(jax.random.PRNGKey(2), (64,), 0, 5)
    target = jnp_sign(obs[:, 0] - 0.5)

    def loss(p: object) -> jax.Array:
        q = q_values(p, obs)  # type: ignore[arg-type]
        return ((q[np.arange(64), action] - target) ** 2).mean()

    opt = optax.adam(1e-2)

    @jax.jit
    def step(p: object, state: object) -> tuple[object, object]:
        updates, state = opt.update(jax.grad(loss)(p), state, p)
        return optax.apply_updates(p, updates), state

    state = opt.init(params)
    first = float(loss(params))
    for _ in range(100):
        params, state = step(params, state)
    assert float(loss(params)) < first / 2


def jnp_sign(x: jax.Array) -> jax.Array:
    return jax.numpy.where(x > 0, 1.0, -1.0)


def test_issue29_training_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        train(Config(), None)
    with pytest.raises(ValueError, match="positive"):
        train(Config(iterations=0), None)


def test_issue29_training_against_the_rule_bot_goes_on_from_given_weights(
    tmp_path: Path,
) -> None:
    first = tmp_path / "first.npz"
    train(Config(seed=3, iterations=1, **TINY), str(first), log=lambda _: None)
    lines: list[str] = []
    result = train(
        Config(seed=4, iterations=2, opponent="rule", start=str(first), **TINY),
        str(tmp_path / "second.npz"),
        log=lines.append,
    )
    # Each iteration reports the network's durak rate among its finished games.
    assert len(result.training_durak) == 2
    assert all(0.0 <= rate <= 1.0 for rate in result.training_durak)
    assert "against the rule" in lines[0]
    # Only the network's own actions are trained on: at most one seat's share of the steps.
    assert 0 < result.samples <= result.steps * 0.75
    net = load_network(tmp_path / "second.npz")
    assert net.meta["opponent"] == "rule" and net.meta["start"] == "first.npz"
    assert "against the rule of thumb" in net.meta["algorithm"]
    # It went on from the given weights: one Adam pass moves them only a little.
    start = load_network(first)
    moved = np.abs(net.weights[0][0].astype(np.float32) - start.weights[0][0].astype(np.float32))
    fresh = train(Config(seed=4, iterations=1, opponent="rule", **TINY), None, log=lambda _: None)
    apart = np.abs(np.asarray(fresh.network.weights[0][0]) - start.weights[0][0].astype(np.float32))
    assert moved.mean() < apart.mean() / 4


def test_issue29_training_refuses_a_bad_opponent_or_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="opponent"):
        Config(opponent="search")

    def weights_file(name: str, rules: Rules, hidden: int) -> str:
        env = Env(rules, observe_on_step=False)
        sizes = [env.observation_shape[0], hidden, env.num_actions]
        params = init_params(jax.random.PRNGKey(0), sizes)
        path = str(tmp_path / name)
        save_network(path, to_network(params, Config(rules=rules), {}))
        return path

    narrow = weights_file("narrow.npz", Rules(), 8)
    with pytest.raises(ValueError, match=r"start: .* has layers"):
        train(Config(iterations=1, start=narrow, **TINY), None)
    four = weights_file("four.npz", Rules(players=4), 16)
    with pytest.raises(ValueError, match=r"start: .* other rules"):
        train(Config(iterations=1, start=four, **TINY), None)
