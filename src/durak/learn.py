"""Training the learned agent (:mod:`durak.agent`) by self-play on the JAX engine (needs the
``train`` extra: ``pip install 'durak-engine[train]'``, jax and optax).

The algorithm is deep Monte-Carlo (DMC), as DouZero plays DouDizhu: an action-value network
``Q(observation) -> value per action id`` over the shared encoding
(:mod:`durak.rl.encoding`), trained by regression on Monte-Carlo returns. Every seat plays the
same network, epsilon-greedy over its legal ids; the target of an action is the final reward of
the seat that played it (+1 a win, -1 the durak, 0 a draw: :attr:`durak.jax.State.rewards`).
No critic, no bootstrapping, no importance weights: the returns of a shedding game are short
and the targets unbiased, which is why DMC works there.

One iteration is one compiled function: ``horizon`` steps of ``batch`` games at once
(``lax.scan`` over steps, ``vmap`` over games, a finished game replaced by a new deal), the
returns filled in by a reverse scan, then one pass of Adam (optax) over the samples in
minibatches. Samples of a game still running at the end of an iteration are left out (their
return is not known yet). Python only loops over iterations: to stop at the time budget, to
print progress and to evaluate.

From the command line (the shipped weights; see docs/research.md for the time it takes)::

    python -m durak.learn --players 2 --seconds 900 --seed 1 --out agent-podkidnoy-2p.npz

The same command runs unchanged on a GPU (jax picks the device). Seeded: with a step budget
(``--iterations``) the weights depend only on the seed and the device's arithmetic.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import optax

from durak.agent import Network, load_network, save_network
from durak.jax import Env
from durak.jax.policy import rule_policy
from durak.rules.settings import Rules
from durak.tournament import run_tournament

__all__ = ["OPPONENTS", "Config", "TrainResult", "init_params", "main", "q_values", "train"]

Params = list[tuple[jax.Array, jax.Array]]

#: The opponents the network may train against (:attr:`Config.opponent`).
OPPONENTS = ("self", "rule")


@attrs.frozen
class Config:
    """The training's settings.

    Attributes:
        rules: the rules played (the JAX engine's covered settings).
        seed: seeds the network's initial weights and every deal and exploration draw.
        seconds: the wall-time budget (``None``: none); training stops after the iteration
            that passes it.
        iterations: the most iterations (``None``: none). One of the two budgets is needed.
        batch: games played at once.
        horizon: steps per iteration (each step: one action in each of the ``batch`` games).
        hidden: the hidden layers' widths.
        learning_rate: Adam's step size.
        epsilon: the probability of a random legal action in self-play.
        minibatch: samples per Adam step.
        eval_every: evaluate (and save) every this many seconds (``None``: only at the end).
        eval_games: games of each evaluation, the agent against the rule bot in the reference
            engine (0: none).
        opponent: ``"self"`` (every seat plays the network: self-play) or ``"rule"`` (in each
            game one seat plays the network, the seat of game ``i`` of the batch being
            ``i % players``, and the others the rule bot's rule of thumb inside the batch,
            :func:`durak.jax.policy.rule_policy`; only the network's own actions are trained
            on, and each iteration reports the network's durak rate in its finished games).
        start: a weights file (:func:`durak.agent.load_network`) to go on training from instead
            of random weights (``None``); its rules and layer widths must be these.
    """

    rules: Rules = attrs.field(factory=Rules)
    seed: int = 0
    seconds: float | None = None
    iterations: int | None = None
    batch: int = 128
    horizon: int = 256
    hidden: tuple[int, ...] = (256, 256, 256)
    learning_rate: float = 3e-4
    epsilon: float = 0.05
    minibatch: int = 4096
    eval_every: float | None = None
    eval_games: int = 0
    opponent: str = attrs.field(default="self")
    start: str | None = None

    @opponent.validator
    def _check_opponent(self, _attribute: Any, value: str) -> None:
        if value not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, not {value!r}")


@attrs.frozen
class TrainResult:
    """What :func:`train` made.

    Attributes:
        network: the trained network (numpy).
        iterations: iterations run.
        steps: environment steps played (actions, over all games).
        samples: samples trained on (actions of finished games).
        seconds: wall time.
        losses: the mean loss of each iteration.
        evaluations: ``(steps, durak rate of the agent against the rule bot)`` per evaluation.
        training_durak: with ``opponent = "rule"``, per iteration the network's durak rate
            among its finished games of that iteration (exploration included), else empty.
    """

    network: Network
    iterations: int
    steps: int
    samples: int
    seconds: float
    losses: tuple[float, ...]
    evaluations: tuple[tuple[int, float], ...]
    training_durak: tuple[float, ...] = ()


def init_params(key: jax.Array, sizes: Sequence[int]) -> Params:
    """A dense ReLU network's initial weights (He-uniform, zero biases) for layer widths
    ``sizes`` (inputs first, outputs last)."""
    params = []
    for n_in, n_out in itertools.pairwise(sizes):
        key, sub = jax.random.split(key)
        bound = math.sqrt(6.0 / n_in)
        w = jax.random.uniform(sub, (n_in, n_out), jnp.float32, -bound, bound)
        params.append((w, jnp.zeros(n_out, jnp.float32)))
    last_w, last_b = params[-1]
    params[-1] = (last_w * 0.1, last_b)  # small initial values: the rewards are in [-1, 1]
    return params


def q_values(params: Params, obs: jax.Array) -> jax.Array:
    """The action values ``[..., A]`` of observations ``[..., L]`` (as
    :meth:`durak.agent.Network.values` computes them with numpy)."""
    x = obs
    for k, (w, b) in enumerate(params):
        x = x @ w + b
        if k < len(params) - 1:
            x = jax.nn.relu(x)
    return x


@lru_cache(maxsize=8)
def _iteration(cfg: Config) -> Callable[..., Any]:
    """The compiled iteration: self-play ``horizon`` steps, then one pass of Adam (compiled
    once per configuration: the budgets and the seed do not change it)."""
    env = Env(cfg.rules)
    optimizer = _optimizer(cfg)
    batch, horizon, players = cfg.batch, cfg.horizon, env.num_players
    samples = batch * horizon
    minibatches = max(1, samples // cfg.minibatch)
    size = samples // minibatches
    against_rule = cfg.opponent == "rule"
    rule = jax.vmap(rule_policy(cfg.rules)) if against_rule else None
    learner = jnp.arange(batch) % players  # with opponent = "rule": the network's seat per game

    def play(
        params: Params, state: Any, key: jax.Array
    ) -> tuple[Any, tuple[jax.Array, ...], tuple[jax.Array, jax.Array]]:
        def step(s: Any, k: jax.Array) -> tuple[Any, tuple[jax.Array, ...]]:
            k_explore, k_pick, k_deal = jax.random.split(k, 3)
            mask = s.legal_action_mask
            q = q_values(params, s.observation)
            greedy = jnp.argmax(jnp.where(mask, q, -jnp.inf), axis=-1)
            noise = jax.random.uniform(k_pick, mask.shape)
            random_legal = jnp.argmax(jnp.where(mask, noise, -1.0), axis=-1)
            explore = jax.random.uniform(k_explore, (batch,)) < cfg.epsilon
            action = jnp.where(explore, random_legal, greedy)
            if rule is not None:
                action = jnp.where(s.current_player == learner, action, rule(s))
            after = jax.vmap(env.step)(s, action)
            fresh = jax.vmap(env.init)(jax.random.split(k_deal, batch))
            done = after.terminated

            def pick(new: jax.Array, old: jax.Array) -> jax.Array:
                return jnp.where(done.reshape(done.shape + (1,) * (old.ndim - 1)), new, old)

            nxt = jax.tree_util.tree_map(pick, fresh, after)
            return nxt, (s.observation, action, s.current_player, after.rewards, done)

        state, trace = jax.lax.scan(step, state, jax.random.split(key, horizon))
        obs, action, player, rewards, done = trace
        # the network's finished games and how many it lost (its reward -1: the durak)
        mine = jnp.take_along_axis(rewards, jnp.broadcast_to(learner, done.shape)[..., None], -1)
        finished = jnp.sum(done)
        lost = jnp.sum(done & (mine[..., 0] < 0))

        def back(
            carry: tuple[jax.Array, jax.Array], x: tuple[jax.Array, jax.Array]
        ) -> tuple[tuple[jax.Array, jax.Array], tuple[jax.Array, jax.Array]]:
            final, known = carry
            r, d = x
            final = jnp.where(d[:, None], r, final)
            known = known | d
            return (final, known), (final, known)

        start = (jnp.zeros((batch, players), jnp.float32), jnp.zeros(batch, jnp.bool_))
        _, (final, known) = jax.lax.scan(back, start, (rewards, done), reverse=True)
        target = jnp.take_along_axis(final, player[..., None], axis=-1)[..., 0]
        if against_rule:
            known = known & (player == learner)  # the rule's own actions are not trained on
        flat = (
            obs.reshape(samples, -1),
            action.reshape(samples),
            target.reshape(samples),
            known.reshape(samples).astype(jnp.float32),
        )
        return state, flat, (finished, lost)

    def loss_fn(
        params: Params, obs: jax.Array, action: jax.Array, target: jax.Array, weight: jax.Array
    ) -> jax.Array:
        q = q_values(params, obs)
        chosen = jnp.take_along_axis(q, action[:, None], axis=-1)[:, 0]
        return jnp.sum(weight * (chosen - target) ** 2) / jnp.maximum(jnp.sum(weight), 1.0)

    grad_fn = jax.value_and_grad(loss_fn)

    def iteration(params: Params, opt: Any, state: Any, key: jax.Array) -> tuple[Any, ...]:
        k_play, k_perm = jax.random.split(key)
        state, (obs, action, target, weight), (finished, lost) = play(params, state, k_play)
        order = jax.random.permutation(k_perm, samples)[: minibatches * size]
        order = order.reshape(minibatches, size)

        def update(
            carry: tuple[Params, Any], idx: jax.Array
        ) -> tuple[tuple[Params, Any], jax.Array]:
            p, o = carry
            loss, grads = grad_fn(p, obs[idx], action[idx], target[idx], weight[idx])
            updates, o = optimizer.update(grads, o, p)
            return (optax.apply_updates(p, updates), o), loss

        (params, opt), losses = jax.lax.scan(update, (params, opt), order)
        return params, opt, state, jnp.mean(losses), jnp.sum(weight), finished, lost

    return jax.jit(iteration)


def _start_from(cfg: Config, sizes: Sequence[int]) -> Params:
    """The weights of ``cfg.start`` as parameters.

    Raises:
        ValueError: the file's rules or layer widths are not ``cfg``'s.
    """
    assert cfg.start is not None
    network = load_network(cfg.start)
    if network.rules != cfg.rules:
        raise ValueError(f"start: {cfg.start} was trained on other rules")
    widths = [network.weights[0][0].shape[0]] + [w.shape[1] for w, _ in network.weights]
    if widths != list(sizes):
        raise ValueError(f"start: {cfg.start} has layers {widths}, not {list(sizes)}")
    return [(jnp.asarray(w, jnp.float32), jnp.asarray(b, jnp.float32)) for w, b in network.weights]


def _optimizer(cfg: Config) -> optax.GradientTransformation:
    return optax.adam(cfg.learning_rate)


def to_network(params: Params, cfg: Config, meta: dict[str, Any]) -> Network:
    """The numpy :class:`~durak.agent.Network` of ``params``."""
    weights = tuple(
        (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in params
    )
    return Network(cfg.rules, weights, meta)


def evaluate(network: Network, games: int, seed: int | str, path: str) -> float:
    """The agent's durak rate over ``games`` seat-rotated games against rule bots in the
    reference engine (``network`` saved to ``path`` first)."""
    save_network(path, network)
    names = [f"durak.agent:LearnedBot:weights={path}"] + ["rule"] * (network.rules.players - 1)
    result = run_tournament(network.rules, names, games, seed)
    stats = result.stats[0]
    return stats.durak / max(1, games)


def train(
    cfg: Config,
    out: str | None = None,
    log: Callable[[str], None] = print,
) -> TrainResult:
    """Train a network under ``cfg`` and (if ``out`` is given) save it there in the format of
    :mod:`durak.agent`.

    Raises:
        ValueError: no budget (``seconds`` or ``iterations``), or a budget that is not positive.
        RulesError: rules the JAX engine does not play (named).
    """
    if cfg.seconds is None and cfg.iterations is None:
        raise ValueError("training needs a seconds or an iterations budget")
    if (cfg.seconds is not None and cfg.seconds <= 0) or (
        cfg.iterations is not None and cfg.iterations <= 0
    ):
        raise ValueError("the seconds and iterations budgets must be positive")
    env = Env(cfg.rules)
    key = jax.random.PRNGKey(cfg.seed)
    key, k_init, k_deal = jax.random.split(key, 3)
    sizes = [env.observation_shape[0], *cfg.hidden, env.num_actions]
    params = init_params(k_init, sizes)
    if cfg.start is not None:
        params = _start_from(cfg, sizes)
    opt = _optimizer(cfg).init(params)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(k_deal, cfg.batch))
    run = _iteration(
        attrs.evolve(cfg, seed=0, seconds=None, iterations=None, eval_every=None, eval_games=0)
    )
    start = time.perf_counter()
    last_eval = start
    losses: list[float] = []
    evaluations: list[tuple[int, float]] = []
    training_durak: list[float] = []
    samples = 0
    done = 0
    eval_path = (out or "agent-eval") + ".eval.npz"

    def meta() -> dict[str, Any]:
        return {
            "algorithm": "deep Monte-Carlo self-play (durak.learn)"
            if cfg.opponent == "self"
            else "deep Monte-Carlo against the rule of thumb (durak.learn)",
            "seed": cfg.seed,
            "iterations": done,
            "steps": done * cfg.batch * cfg.horizon,
            "samples": samples,
            "seconds": round(time.perf_counter() - start, 1),
            "batch": cfg.batch,
            "horizon": cfg.horizon,
            "hidden": list(cfg.hidden),
            "learning_rate": cfg.learning_rate,
            "epsilon": cfg.epsilon,
            "opponent": cfg.opponent,
            "start": None if cfg.start is None else Path(cfg.start).name,
            "device": jax.devices()[0].platform,
        }

    while True:
        key, sub = jax.random.split(key)
        params, opt, state, loss, used, finished, lost = run(params, opt, state, sub)
        done += 1
        losses.append(float(loss))
        samples += int(used)
        elapsed = time.perf_counter() - start
        steps = done * cfg.batch * cfg.horizon
        against = ""
        if cfg.opponent == "rule":
            rate = int(lost) / max(1, int(finished))
            training_durak.append(rate)
            against = f", durak in {rate:.3f} of {int(finished)} games against the rule"
        log(
            f"iteration {done}: {steps} steps, {samples} samples, loss {float(loss):.4f}"
            f"{against}, {elapsed:.0f} s"
        )
        finished = (cfg.iterations is not None and done >= cfg.iterations) or (
            cfg.seconds is not None and elapsed >= cfg.seconds
        )
        due = cfg.eval_every is not None and time.perf_counter() - last_eval >= cfg.eval_every
        if cfg.eval_games and (due or finished):
            rate = evaluate(
                to_network(params, cfg, meta()), cfg.eval_games, "train-eval", eval_path
            )
            evaluations.append((steps, rate))
            log(f"  against the rule bot: durak rate {rate:.3f} over {cfg.eval_games} games")
            last_eval = time.perf_counter()
        if out is not None and (due or finished):
            save_network(out, to_network(params, cfg, meta()))
        if finished:
            break
    return TrainResult(
        to_network(params, cfg, meta()),
        done,
        done * cfg.batch * cfg.horizon,
        samples,
        time.perf_counter() - start,
        tuple(losses),
        tuple(evaluations),
        tuple(training_durak),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m durak.learn --players 2 --seconds 900 --out FILE``."""
    parser = argparse.ArgumentParser(prog="python -m durak.learn", description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="wall-time budget")
    parser.add_argument("--iterations", type=int, default=None, help="iteration budget")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--horizon", type=int, default=256)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--hidden", default="256,256,256", help="hidden layer widths")
    parser.add_argument("--minibatch", type=int, default=4096)
    parser.add_argument("--eval-every", type=float, default=None, help="seconds")
    parser.add_argument("--eval-games", type=int, default=0)
    parser.add_argument(
        "--opponent", choices=OPPONENTS, default="self", help="self-play, or against the rule bot"
    )
    parser.add_argument("--out", required=True, help="the weights file to write")
    parser.add_argument("--start", default=None, help="a weights file to go on training from")
    args = parser.parse_args(argv)
    cfg = Config(
        rules=Rules(players=args.players),
        seed=args.seed,
        seconds=args.seconds,
        iterations=args.iterations,
        batch=args.batch,
        horizon=args.horizon,
        learning_rate=args.learning_rate,
        epsilon=args.epsilon,
        hidden=tuple(int(n) for n in args.hidden.split(",") if n.strip()),
        minibatch=args.minibatch,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        opponent=args.opponent,
        start=args.start,
    )
    result = train(cfg, args.out, log=lambda text: print(text, flush=True))
    print(
        f"done: {result.iterations} iterations, {result.steps} steps, {result.samples} samples, "
        f"{result.seconds:.0f} s; weights in {args.out}",
        flush=True,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    raise SystemExit(main())
