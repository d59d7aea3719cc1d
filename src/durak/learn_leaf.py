"""Training the leaf values of :mod:`durak.leaf` (needs the ``train`` extra: jax and optax).

The target is what the search bot's playouts compute: the outcome for one seat when every seat
plays the rule of thumb seeing every hand. The data are positions of games played that way
from random deals, on the reference engine (the values are read on its states, so they are
made on them too), each labelled with the game's outcome for one seat chosen at random. So
that the positions after a candidate the rule of thumb would not play are covered too, each
game first plays a random number of actions (below ``cut``) with a random legal action a
fraction ``explore`` of the time; only the positions from there on are kept (a fraction
``keep`` of them), and from there on the game is the rule of thumb's alone, so every label is
the exact outcome of the play-out the value stands for.

The network (:class:`durak.leaf.ValueNetwork`) is fitted by logistic regression (binary
cross-entropy on the logistic output, a draw counting as one half) with Adam (optax) in
minibatches, for ``epochs`` passes over the data, a held-out part measured after each.

From the command line (the shipped weights; docs/research.md gives the time they take)::

    python -m durak.learn_leaf --players 2 --out leaf-podkidnoy-2p.npz
    python -m durak.learn_leaf --players 4 --games 200000 --keep 0.12 --epochs 6 --jobs 2 \
        --out leaf-podkidnoy-4p.npz

Seeded: the positions depend only on the seed and the game's index (not on ``--jobs``), the
weights on the seed and the device's arithmetic.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import optax

from durak.bots import _DEFAULT_WEIGHTS, _Game, outcome
from durak.engine import apply, legal_actions, new_game, next_actor
from durak.leaf import ValueNetwork, feature_size, features, rule_steps, save_value_network
from durak.rules.settings import Rules

__all__ = ["Config", "generate", "main", "train"]

#: A game longer than this many actions is dropped from the data (none has been seen).
MAX_ACTIONS = 2000


@attrs.frozen
class Config:
    """The training's settings.

    Attributes:
        rules: the rules to learn the values of.
        games: the games played for data.
        keep: the fraction of a game's positions kept (from ``cut`` on).
        explore: before ``cut``, the fraction of actions chosen at random among the legal ones.
        cut: each game's exploring prefix is a random length below this.
        widths: the hidden layers' widths.
        epochs: passes over the data.
        batch: the minibatch size.
        learning_rate: Adam's step size.
        seed: seeds the games and the network's initial weights.
        jobs: processes playing the games.
    """

    rules: Rules = attrs.field(factory=lambda: Rules(players=2))
    games: int = 300_000
    keep: float = 0.2
    explore: float = 0.15
    cut: int = 40
    widths: tuple[int, ...] = (128, 128)
    epochs: int = 8
    batch: int = 2048
    learning_rate: float = 1e-3
    seed: int = 1
    jobs: int = 1


def _games(args: tuple[Config, int, int]) -> tuple[np.ndarray, np.ndarray]:
    cfg, first, count = args
    rules = cfg.rules
    rows: list[np.ndarray] = []
    labels: list[float] = []
    for index in range(first, first + count):
        rng = random.Random(f"{cfg.seed}:{index}")
        s = new_game(rules, seed=rng.getrandbits(63))
        game = _Game(s, _DEFAULT_WEIGHTS)
        cut = rng.randrange(cfg.cut)
        n = 0
        while s.result is None and n < cut:
            p = next_actor(s)
            assert p is not None
            if rng.random() < cfg.explore:
                s = apply(s, rng.choice(legal_actions(s, p)))
            else:
                s, _ = rule_steps(s, game, None, 1)
            n += 1
        kept: list[tuple[Any, int]] = []
        while s.result is None and n < MAX_ACTIONS:
            if rng.random() < cfg.keep:
                kept.append((s, rng.randrange(rules.players)))
            s, _ = rule_steps(s, game, None, 1)
            n += 1
        if s.result is None:  # pragma: no cover - the rule of thumb ends its games
            continue
        for position, me in kept:
            rows.append(features(position, me).astype(np.float16))
            labels.append(outcome(s.result, me))
    width = feature_size(rules.players, rules.deck_size)
    if not rows:
        return np.zeros((0, width), np.float16), np.zeros(0, np.float32)
    return np.stack(rows), np.asarray(labels, dtype=np.float32)


def generate(cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """The data: positions ``float16[N, feature_size]`` and their labels ``float32[N]`` (the
    outcome for the seat each row is seen from), in the games' order whatever ``cfg.jobs``."""
    chunk = max(1, min(5000, cfg.games // max(1, cfg.jobs * 4) or 1))
    parts = [(cfg, first, min(chunk, cfg.games - first)) for first in range(0, cfg.games, chunk)]
    if cfg.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(cfg.jobs) as pool:
            done = pool.map(_games, parts)
    else:
        done = [_games(p) for p in parts]
    return np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done])


def _logits(params: Sequence[tuple[jax.Array, jax.Array]], x: jax.Array) -> jax.Array:
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return (x @ w + b)[:, 0]


def train(
    cfg: Config, rows: np.ndarray, labels: np.ndarray, log: Any = print
) -> tuple[ValueNetwork, dict[str, Any]]:
    """Fit a :class:`~durak.leaf.ValueNetwork` to the data; returns it and its figures (the
    held-out mean squared error after each epoch and that of always answering the mean)."""
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(rows))
    held = max(1, min(50_000, len(rows) // 20))
    xv = jnp.asarray(rows[order[:held]], dtype=jnp.float32)
    yv = jnp.asarray(labels[order[:held]])
    train_idx = order[held:]
    sizes = [rows.shape[1], *cfg.widths, 1]
    key = jax.random.PRNGKey(cfg.seed)
    params = []
    for a, b in itertools.pairwise(sizes):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (a, b)) * np.sqrt(2.0 / a), jnp.zeros(b)))
    opt = optax.adam(cfg.learning_rate)
    state = opt.init(params)

    def loss(ps: Any, x: jax.Array, t: jax.Array) -> jax.Array:
        value: jax.Array = optax.sigmoid_binary_cross_entropy(_logits(ps, x), t).mean()
        return value

    @jax.jit
    def step(ps: Any, st: Any, x: jax.Array, t: jax.Array) -> tuple[Any, Any, jax.Array]:
        value, grads = jax.value_and_grad(loss)(ps, x, t)
        updates, st = opt.update(grads, st, ps)
        return optax.apply_updates(ps, updates), st, value

    @jax.jit
    def held_mse(ps: Any) -> jax.Array:
        return ((jax.nn.sigmoid(_logits(ps, xv)) - yv) ** 2).mean()

    baseline = float(((yv - labels[train_idx].mean()) ** 2).mean())
    log(f"{len(train_idx):,} positions to train on, {held:,} held out; "
        f"answering the mean: mse {baseline:.4f}")
    errors = []
    batch = max(1, min(cfg.batch, len(train_idx)))
    for epoch in range(cfg.epochs):
        shuffled = rng.permutation(train_idx)
        for i in range(0, len(shuffled) - batch + 1, batch):
            idx = np.sort(shuffled[i : i + batch])
            x = jnp.asarray(rows[idx], dtype=jnp.float32)
            params, state, _ = step(params, state, x, jnp.asarray(labels[idx]))
        errors.append(float(held_mse(params)))
        log(f"epoch {epoch + 1}: held-out mse {errors[-1]:.4f}")
    weights = tuple((np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in params)
    figures = {"held_out_mse": errors, "mean_mse": baseline, "positions": len(rows)}
    return ValueNetwork(cfg.rules, weights), figures


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m durak.learn_leaf``: play the games, fit the values, write the weights."""
    default = Config()
    parser = argparse.ArgumentParser(
        prog="python -m durak.learn_leaf", description="Train the leaf values of durak.leaf."
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6))
    parser.add_argument("--games", type=int, default=default.games)
    parser.add_argument("--epochs", type=int, default=default.epochs)
    parser.add_argument("--keep", type=float, default=default.keep)
    parser.add_argument("--widths", default="128,128", help="hidden widths, comma-separated")
    parser.add_argument("--seed", type=int, default=default.seed)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    parser.add_argument("--out", required=True, help="the weights file to write")
    args = parser.parse_args(argv)
    if args.games < 1 or args.epochs < 1 or not 0 < args.keep <= 1 or args.jobs < 1:
        parser.error("--games, --epochs and --jobs must be positive, --keep in (0, 1]")
    try:
        widths = tuple(int(w) for w in args.widths.split(","))
    except ValueError:
        parser.error(f"--widths: {args.widths!r} is not a list of integers")
    if any(w < 1 for w in widths) or len(widths) > 15:
        parser.error("--widths: at most 15 hidden layers, every width positive")
    if not 0 <= args.seed < 2**32:
        parser.error(f"--seed: {args.seed} is not in 0 to 2**32 - 1")
    folder = Path(args.out).resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        parser.error(f"--out: cannot write in {folder} (no such folder, or not writable)")
    cfg = Config(
        rules=Rules(players=args.players),
        games=args.games,
        keep=args.keep,
        widths=widths,
        epochs=args.epochs,
        seed=args.seed,
        jobs=args.jobs,
    )
    start = time.perf_counter()
    rows, labels = generate(cfg)
    played = time.perf_counter() - start
    print(f"{cfg.games:,} games played, {len(rows):,} positions kept in {played:.0f} s")
    if len(rows) < 2:
        print("too few positions to train on: raise --games or --keep", file=sys.stderr)
        return 2
    network, figures = train(cfg, rows, labels)
    meta = {
        "algorithm": "regression on rule-of-thumb play-outs (durak.learn_leaf)",
        "seed": cfg.seed,
        "games": cfg.games,
        "keep": cfg.keep,
        "explore": cfg.explore,
        "cut": cfg.cut,
        "epochs": cfg.epochs,
        "widths": list(cfg.widths),
        "seconds_games": round(played, 1),
        "seconds": round(time.perf_counter() - start, 1),
        **figures,
    }
    network = attrs.evolve(network, meta=meta)
    save_value_network(args.out, network)
    print(f"wrote {args.out} ({meta['seconds']:.0f} s in all)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
