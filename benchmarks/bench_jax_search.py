"""Experiment (issue 29, item 3): the search bot with its playouts on the JAX engine (not a test).

The bot here is :class:`durak.bots.SearchBot` (the same candidates, the trump-ace rule, the
endgame solver, sequential halving over the candidates) whose playouts run on ``durak.jax``
instead of the reference engine: each call samples ``per_call / C`` hidden-card worlds
(:func:`durak.views.determinize`), applies each of the ``C`` surviving candidates in each, and
plays all of them out at once in one compiled loop, every seat following
:func:`durak.jax.policy.rule_policy` (the reference search's playout policy, seeing every hand).
A call that would overrun the move's time is not started. The first calls of each batch shape
compile (seconds): the benchmark compiles them before the first game.

It plays this bot against today's search bot at equal CPU time per move (``--ms``, the process's
CPU time, all threads: XLA may use two), seat-rotated, and prints the bot's durak rate among
decided games with its 95% Wilson interval, and the playouts each bot made per searched move.

Usage::

    python benchmarks/bench_jax_search.py --games 200 --ms 50
    python benchmarks/bench_jax_search.py --games 100 --ms 50 --players 4
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from durak import PlayerView, Rules, apply, new_game, next_actor, view
from durak.actions import Action
from durak.bots import SearchBot, _Game
from durak.jax import Env
from durak.jax._convert import host_core
from durak.jax.policy import rule_policy
from durak.rl.encoding import encode
from durak.tournament import wilson_interval
from durak.views import determinize

#: Playouts longer than this many actions score as a draw (the reference's cap is 3,000, but
#: a rule-of-thumb game of two players lasts about 50 actions).
CAP = 400


@lru_cache(maxsize=32)
def evaluator(rules: Rules, candidates: int, worlds: int) -> Callable[..., Any]:
    """The compiled ``(cores[W], action ids[C], seat) -> scores[C, W]``: each candidate applied
    in each world, then every game played out by the rule of thumb; 1 a win (or out while the
    game goes on, under ``objective = durak``), 0 a loss, 0.5 a draw or a game past :data:`CAP`."""
    env = Env(rules, observe_on_step=False)
    policy = jax.vmap(rule_policy(rules))
    step = jax.vmap(env.step)
    wrap = jax.vmap(lambda c: env._wrap(c, jnp.int32(0)))
    out_wins = rules.objective.value == "durak"

    def run(cores: Any, actions: jax.Array, me: jax.Array) -> jax.Array:
        tiled = jax.tree_util.tree_map(
            lambda x: jnp.tile(x, (candidates,) + (1,) * (x.ndim - 1)), cores
        )
        state = step(wrap(tiled), jnp.repeat(actions, worlds))

        def going(carry: tuple[Any, jax.Array]) -> jax.Array:
            s, t = carry
            return (~s.terminated).any() & (t < CAP)

        def one(carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            s, t = carry
            return step(s, policy(s)), t + 1

        state, _ = jax.lax.while_loop(going, one, (state, jnp.int32(0)))
        c = state.core
        score = jnp.where(c.over & ~c.draw, c.winners[:, me].astype(jnp.float32), 0.5)
        if out_wins:
            score = jnp.where(c.places[:, me] > 0, 1.0, score)
        return score.reshape(candidates, worlds)

    return jax.jit(run)


class JaxPlayoutSearch(SearchBot):
    """:class:`~durak.bots.SearchBot` with its playouts on the JAX engine (module docstring)."""

    def __init__(self, seed: int | str | None = None, *, per_call: int = 64, **options: Any):
        super().__init__(seed, **options)
        self.per_call = per_call
        #: Seconds per call by batch shape (a moving average), to know what fits.
        self.cost: dict[tuple[Rules, int, int], float] = {}

    def compile(self, rules: Rules) -> None:
        """Compile and time every batch shape a move may use, outside any move's time."""
        s = new_game(rules, seed=0)
        actor = next_actor(s)
        assert actor is not None
        v = view(s, actor)
        lead = encode(v.legal_actions[0], v)
        for c in (8, 4, 2, 1):
            self._call(v, [lead] * c)  # compiles
            key = (rules, c, max(1, self.per_call // c))
            del self.cost[key]
            self._call(v, [lead] * c)  # times a playout of a whole game

    def _call(self, v: PlayerView, ids: Sequence[int]) -> np.ndarray[Any, Any]:
        worlds = max(1, self.per_call // len(ids))
        fn = evaluator(v.rules, len(ids), worlds)
        cores = [host_core(determinize(v, self._rng)) for _ in range(worlds)]
        stacked = jax.tree_util.tree_map(lambda *xs: np.stack(xs), *cores)
        start = self._clock()
        out = np.asarray(fn(stacked, jnp.asarray(ids, jnp.int32), v.player))
        took = self._clock() - start
        key = (v.rules, len(ids), worlds)
        self.cost[key] = took if key not in self.cost else 0.7 * self.cost[key] + 0.3 * took
        return out

    def _search(
        self,
        view: PlayerView,
        game: _Game,
        candidates: list[Action],
        start_time: float,
        bonus: list[float] | None = None,
    ) -> Action:
        n = len(candidates)
        ids = [encode(a, view) for a in candidates]
        totals = np.zeros(n)
        counts = np.zeros(n)
        limit = self.time_limit
        assert limit is not None
        end = start_time + limit
        phases = max(1, math.ceil(math.log2(n)))
        alive = list(range(n))
        calls = 0

        def mean(i: int) -> float:
            if not counts[i]:
                return -1.0
            return float(totals[i] / counts[i]) + (self.prior if i == 0 else 0.0)

        for phase in range(phases):
            deadline = start_time + limit * (phase + 1) / phases
            in_phase = 0
            out_of_time = False
            while True:
                width = 1 << math.ceil(math.log2(len(alive)))
                worlds = max(1, self.per_call // width)
                estimate = self.cost.get((view.rules, width, worlds), 0.0)
                now = self._clock()
                if now + estimate > end:
                    out_of_time = True
                    break
                if in_phase and now + estimate > deadline:
                    break
                padded = alive + [alive[0]] * (width - len(alive))
                scores = self._call(view, [ids[i] for i in padded])
                for j, i in enumerate(alive):
                    totals[i] += scores[j].sum()
                    counts[i] += worlds
                calls += 1
                in_phase += 1
            if out_of_time:
                break
            if phase < phases - 1:
                alive.sort(key=lambda i: (-mean(i), i))
                alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
        self.last_playouts = int(counts.sum())
        if not calls:
            return candidates[0]
        return candidates[max(range(n), key=lambda i: (mean(i), -i))]


def main(argv: Sequence[str] | None = None) -> int:
    """Play the duel and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ms", type=float, default=50.0, help="CPU ms per move, both bots")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--per-call", type=int, default=64, help="playouts per compiled call")
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    args = parser.parse_args(argv)
    rules = Rules(players=args.players)
    clock = time.process_time
    limit = args.ms / 1000
    print(f"python {sys.version.split()[0]}, jax {jax.__version__}, devices {jax.devices()}")
    mine = JaxPlayoutSearch(0, time_limit=limit, clock=clock, per_call=args.per_call)
    mine.compile(rules)
    durak = decided = 0
    ours: list[int] = []
    theirs: list[int] = []
    start = time.perf_counter()
    for g in range(args.first, args.first + args.games):
        seat = g % args.players
        bots: list[SearchBot] = [
            SearchBot(g * 7 + i, time_limit=limit, clock=clock) for i in range(args.players)
        ]
        bot = JaxPlayoutSearch(g, time_limit=limit, clock=clock, per_call=args.per_call)
        bot.cost = mine.cost
        bots[seat] = bot
        s = new_game(rules, seed=10_000 + g)
        while s.result is None:
            p = next_actor(s)
            assert p is not None
            bots[p].last_playouts = 0
            s = apply(s, bots[p].choose(view(s, p)))
            if bots[p].last_playouts:
                (ours if p == seat else theirs).append(bots[p].last_playouts)
        if s.result.durak is not None:
            decided += 1
            durak += s.result.durak == seat
        played = g - args.first + 1
        if played % 20 == 0 or played == args.games:
            print(f"{played} games: durak {durak}/{decided}, {time.perf_counter() - start:.0f} s")
    low, high = wilson_interval(durak, decided)
    print(
        f"JAX-playout search against search, {args.players} players, {args.ms:g} CPU ms a move: "
        f"durak {durak} of {decided} decided games, {durak / max(1, decided):.3f} "
        f"[{low:.3f}, {high:.3f}]"
    )
    print(
        f"playouts per searched move, median: JAX-playout search {statistics.median(ours):.0f}, "
        f"search {statistics.median(theirs):.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
