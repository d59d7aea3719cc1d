"""JAX engine benchmark: one-actor steps per second of the reference engine and of durak.jax.

Prints, in one run on one machine (needs the ``jax`` extra; Pgx optional):

(a) the reference engine's one-actor steps per second: random games, at every step the actor of
    R13.2 (``next_actor``) picks one of his ``legal_actions`` at random and ``apply`` plays it;
(b) the JAX engine's steps per second at each batch size (``--batches``, default 1, 64, 1024
    and 4096): ``jax.lax.scan`` over ``--steps`` steps of the Pgx interface (``Env.step``,
    observation and legal mask included), each step a uniformly random legal action per game
    (one random number per game, hashed with each action id) and a finished game replaced by a
    fresh deal (auto-reset; the batch's fresh deals are made every ``--refresh`` steps, default
    32), all inside one compiled function; the compile time is reported apart and not counted;
(c) the memory one game takes in the batch (the bytes of its state's arrays);
(b') with ``--modes``, (b) and (c) for each way of making the observation: ``stored``
    (``Env()``, the Pgx form: ``State.observation`` made in every step and kept in the state),
    ``read`` (``Env(observe_on_step=False)`` and the policy asks ``Env.observe`` at every step
    and reads it before it picks: what a learner acting on observations costs) and ``none``
    (``Env(observe_on_step=False)``, no observation: the game alone, as the reference engine's
    figure (a) is the game alone); default all three;
(d) for scale, two Pgx games (``--pgx``, default connect_four and leduc_holdem) measured by the
    same loop at the largest batch, if Pgx is installed.

Each rate is the median of ``--runs`` timed runs, over wall-clock time and, in brackets, over
the process's CPU time (all its threads: JAX may use both cores). The device is JAX's default
(``JAX_PLATFORMS`` picks one; on a machine with a GPU the GPU). With several devices,
``--shard`` splits the batch over them (``jax.sharding``; the code is the same).

Usage::

    python benchmarks/bench_jax.py                       # about a minute after compiling
    python benchmarks/bench_jax.py --players 4 --batches 1024 4096 16384
    python benchmarks/bench_jax.py --preset perevodnoy --runs 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from durak import Rules, apply, legal_actions, new_game, next_actor
from durak.presets import get_preset


def reference_rate(rules: Rules, games: int, runs: int) -> tuple[float, float]:
    """One-actor steps per second (wall clock, CPU) of the reference engine over ``games``
    random games."""
    rates, cpu_rates = [], []
    for _ in range(runs):
        rng = random.Random(1)
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            s = new_game(rules, seed=seed)
            while s.result is None:
                actor = next_actor(s)
                assert actor is not None
                s = apply(s, rng.choice(legal_actions(s, actor)))
                steps += 1
        rates.append(steps / (time.perf_counter() - start))
        cpu_rates.append(steps / (time.process_time() - cpu))
    return statistics.median(rates), statistics.median(cpu_rates)


def _random_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """Per game, a random legal action id, each legal id equally likely: one random 32-bit
    number per game, mixed with each action id by a hash (the finalizer of MurmurHash3) into
    a priority, and the legal id of the highest priority (its low bits hold the id, so ties
    cannot happen). A cumulative sum over the ids (the ``k``-th legal id) or one random number
    per id (``jax.random.categorical``) costs more than a Durak step on a CPU, at 363 ids."""
    ids = mask.shape[-1]
    bits = max(1, (ids - 1).bit_length())
    seed = jax.random.bits(key, (*mask.shape[:-1], 1), dtype=jnp.uint32)
    index = jnp.arange(ids, dtype=jnp.uint32)
    x = seed + index * jnp.uint32(0x9E3779B9)
    x = (x ^ (x >> 16)) * jnp.uint32(0x85EBCA6B)
    x = (x ^ (x >> 13)) * jnp.uint32(0xC2B2AE35)
    x = x ^ (x >> 16)
    priority = (x & ~jnp.uint32((1 << bits) - 1)) | index
    best = jnp.where(mask, priority, 0).max(axis=-1)
    return (best & jnp.uint32((1 << bits) - 1)).astype(jnp.int32)


def _loop(
    env: Any, steps: int, refresh: int, read: bool = False
) -> Callable[[Any, jax.Array], tuple[Any, jax.Array]]:
    """A compiled function ``(state, key) -> (state, key)`` running ``steps`` batch steps of
    random legal actions, a finished game replaced by a fresh deal (auto-reset). With
    ``read``, each step first makes the actor's observation (``env.observe``) and the policy
    reads all of it (a sum that decides nothing, but the compiler cannot know it). The fresh
    deals are made for the whole batch once every ``refresh`` steps, not at every step as
    ``pgx.experimental.auto_reset`` makes them (a deal serves twice only if its slot's game
    ends twice within ``refresh`` steps: two-player games last about 140 steps)."""
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)
    observe = jax.vmap(env.observe)

    def one(carry: tuple[Any, Any, jax.Array], _: Any) -> tuple[tuple[Any, Any, jax.Array], None]:
        state, fresh, key = carry
        key, pick = jax.random.split(key)
        mask = state.legal_action_mask
        if read:
            mask = mask & (observe(state).sum(axis=-1, keepdims=True) >= 0)
        state = step(state, _random_legal(pick, mask))
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
            fresh,
            state,
        )
        return (state, fresh, key), None

    def block(carry: tuple[Any, jax.Array], _: Any) -> tuple[tuple[Any, jax.Array], None]:
        state, key = carry
        key, deal = jax.random.split(key)
        batch = state.legal_action_mask.shape[0]
        fresh = init(jax.random.split(deal, batch))
        (state, _, key), _ = jax.lax.scan(one, (state, fresh, key), None, length=refresh)
        return (state, key), None

    def run(state: Any, key: jax.Array) -> tuple[Any, jax.Array]:
        (state, key), _ = jax.lax.scan(block, (state, key), None, length=steps // refresh)
        return state, key

    return jax.jit(run, donate_argnums=0)  # the state is updated in place


def jax_rate(
    env: Any,
    batch: int,
    steps: int,
    runs: int,
    shard: bool,
    refresh: int = 32,
    read: bool = False,
) -> tuple[float, float, float, int]:
    """``(steps per second, steps per CPU second, compile seconds, bytes per game)`` of
    ``env`` at ``batch``, ``steps`` a multiple of ``refresh`` (``read``: see :func:`_loop`)."""
    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
    if shard and len(jax.devices()) > 1 and batch % len(jax.devices()) == 0:
        mesh = jax.sharding.Mesh(jax.devices(), ("games",))
        spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("games"))
        state = jax.device_put(state, spec)
    leaves = jax.tree_util.tree_leaves(state)
    per_game = sum(x.nbytes for x in leaves) // batch
    run = _loop(env, steps, refresh, read)
    start = time.perf_counter()
    run.lower(state, key).compile()
    compile_s = time.perf_counter() - start
    for _ in range(2):  # the second call meets the shardings the first one returns
        state, key = run(state, key)
        jax.block_until_ready(state)
    rates, cpu_rates = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        state, key = run(state, key)
        jax.block_until_ready(state)
        rates.append(batch * steps / (time.perf_counter() - start))
        cpu_rates.append(batch * steps / (time.process_time() - cpu))
    return statistics.median(rates), statistics.median(cpu_rates), compile_s, per_game


def _steps(args: argparse.Namespace, batch: int) -> int:
    """Steps per timed run: ``--steps``, or about 400,000 game steps (at least ``--refresh``,
    at most 2,000 batch steps), a multiple of ``--refresh``."""
    steps = args.steps or max(args.refresh, min(2000, 400_000 // batch))
    return max(args.refresh, steps // args.refresh * args.refresh)


#: The ways the benchmark makes the observation (``--modes``), as its report names them.
MODES = {
    "stored": "the observation made in each step and stored in the state (Pgx's form)",
    "read": "the observation made in each step for the policy, which reads it (not stored)",
    "none": "no observation (the game alone, as the reference engine's figure)",
}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batches", type=int, nargs="*", default=[1, 64, 1024, 4096])
    parser.add_argument("--steps", type=int, default=0, help="steps per timed run (0: auto)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--refresh", type=int, default=32, help="steps between the batch's fresh deals"
    )
    parser.add_argument("--games", type=int, default=200, help="reference games per run")
    parser.add_argument("--pgx", nargs="*", default=["connect_four", "leduc_holdem"])
    parser.add_argument("--shard", action="store_true", help="shard the batch over devices")
    parser.add_argument(
        "--modes",
        nargs="*",
        choices=list(MODES),
        default=list(MODES),
        help="the observation: stored in each step, read by the policy, or none",
    )
    args = parser.parse_args(argv)

    from durak.jax import Env

    rules = get_preset(args.preset).rules(players=args.players)
    print(f"python {platform.python_version()}, jax {jax.__version__}, devices {jax.devices()}")
    print(f"rules: preset {args.preset}, {args.players} players")
    ref, ref_cpu = reference_rate(rules, args.games, args.runs)
    print(
        f"reference engine: {ref:>12,.0f} steps/s [{ref_cpu:,.0f} per CPU s] "
        "(one actor, random legal moves)"
    )
    for mode in args.modes:
        env = Env(rules, observe_on_step=mode == "stored")
        print(f"durak.jax, {MODES[mode]}:")
        best = 0.0
        for batch in args.batches:
            steps = _steps(args, batch)
            rate, cpu, compile_s, per_game = jax_rate(
                env, batch, steps, args.runs, args.shard, args.refresh, mode == "read"
            )
            best = max(best, rate)
            print(
                f"  batch {batch:>6}: {rate:>12,.0f} steps/s [{cpu:,.0f} per CPU s] "
                f"({rate / ref:5.1f} x reference; compile {compile_s:.1f} s; "
                f"{per_game:,} bytes per game; {steps} steps a run)"
            )
        print(f"  best: {best:,.0f} steps/s, {best / ref:.1f} x the reference engine")
    if args.pgx:
        try:
            import pgx
        except ImportError:
            print("pgx not installed: pip install pgx (for the Pgx games)")
            return 0
        batch = max(args.batches)
        for name in args.pgx:
            game = pgx.make(name)
            steps = _steps(args, batch)
            rate, cpu, compile_s, per_game = jax_rate(
                game, batch, steps, args.runs, args.shard, args.refresh
            )
            print(
                f"pgx {name} batch {batch}: {rate:>12,.0f} steps/s [{cpu:,.0f} per CPU s] "
                f"(compile {compile_s:.1f} s; {per_game:,} bytes per game)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
