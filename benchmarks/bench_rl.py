"""Throughput of the RL adapters and of tournaments on each backend (not a test).

- steps/s of each adapter, random legal actions (masked), two-player Podkidnoy, observations
  built as the framework asks for them: OpenSpiel's ``rl_environment`` (information state
  tensors for every player at every step), a plain ``python_durak`` state (``legal_actions`` and
  ``apply_action`` only), the PettingZoo AEC environment (``last()`` then ``step``) and the
  Gymnasium environment (one seat against the random bot; its steps count the agent's actions
  only, the opponent's moves are inside them).
- tournament games/s: ``run_tournament`` of the rule bot against the random bot with
  ``jobs=1``, ``jobs=2`` and a local Ray instance of 2 CPUs (``RayExecutor``), the same games.

Usage::

    python benchmarks/bench_rl.py                      # everything
    python benchmarks/bench_rl.py --only adapters --steps 20000
    python benchmarks/bench_rl.py --only tournaments --games 400
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from durak import Rules


def rate(name: str, count: int, seconds: float, unit: str) -> None:
    print(f"{name:<44} {count:>7} {unit} in {seconds:6.2f} s = {count / seconds:>9,.0f} {unit}/s")


def openspiel_env(steps: int) -> tuple[int, float]:
    from open_spiel.python import rl_environment

    import durak.rl.openspiel_game  # noqa: F401

    env = rl_environment.Environment("python_durak")
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        step = env.reset()
        while not step.last() and done < steps:
            legal = step.observations["legal_actions"][step.observations["current_player"]]
            step = env.step([int(rng.choice(legal))])
            done += 1
    return done, time.perf_counter() - start


def openspiel_state(steps: int) -> tuple[int, float]:
    import pyspiel

    import durak.rl.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_durak")
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    return done, time.perf_counter() - start


def pettingzoo(steps: int) -> tuple[int, float]:
    from durak.rl.pettingzoo_env import env

    e = env()
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    seed = 0
    while done < steps:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
    return done, time.perf_counter() - start


def gymnasium_env(steps: int) -> tuple[int, float]:
    from durak.rl.gymnasium_env import DurakEnv

    env = DurakEnv(opponents="random")
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    seed = 0
    while done < steps:
        obs, _ = env.reset(seed=seed)
        seed += 1
        over = False
        while not over:
            obs, _, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            over = terminated or truncated
            done += 1
    return done, time.perf_counter() - start


def adapters(steps: int) -> None:
    benches: list[tuple[str, Callable[[int], tuple[int, float]]]] = [
        ("OpenSpiel rl_environment", openspiel_env),
        ("OpenSpiel python_durak state", openspiel_state),
        ("PettingZoo durak_v0 (AEC, wrapped)", pettingzoo),
        ("Gymnasium durak/Durak-v0 (vs random)", gymnasium_env),
    ]
    for name, bench in benches:
        count, seconds = bench(steps)
        rate(name, count, seconds, "steps")


def tournaments(games: int) -> None:
    from durak.tournament import RayExecutor, run_tournament

    names = ["rule", "random"]
    start = time.perf_counter()
    one = run_tournament(Rules(), names, games, seed="bench")
    rate("tournament, jobs=1", games, time.perf_counter() - start, "games")
    start = time.perf_counter()
    two = run_tournament(Rules(), names, games, seed="bench", jobs=2)
    rate("tournament, jobs=2 (process pool)", games, time.perf_counter() - start, "games")
    executor = RayExecutor(num_cpus=2)
    try:
        start = time.perf_counter()
        ray = run_tournament(Rules(), names, games, seed="bench", executor=executor)
        rate(
            "tournament, Ray (local, 2 CPUs, started)", games, time.perf_counter() - start, "games"
        )
    finally:
        executor.shutdown()
    assert one == two == ray, "every backend plays the same games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("adapters", "tournaments"))
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    if args.only in (None, "adapters"):
        adapters(args.steps)
    if args.only in (None, "tournaments"):
        tournaments(args.games)


if __name__ == "__main__":
    main()
