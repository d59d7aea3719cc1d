"""OpenSpiel's ISMCTS against the library's search bot at equal time per move (not a test).

Two-player Podkidnoy through the OpenSpiel game ``python_durak``: ``ismcts.ISMCTSBot`` (random
rollouts, UCT constant 2, OpenSpiel's defaults otherwise) against ``SearchBot`` under a
wall-clock ``time_limit``. ISMCTS takes a number of simulations, not a time; the script sets it
before each move from the wall time its simulations took so far (an exponential mean), so its
mean time per searched move tracks ``--ms`` times ``--ismcts-factor``. Both bots' mean wall
milliseconds per searched move are printed beside the rates: compare them.

Game ``i`` deals from a generator seeded with ``i``; ISMCTS sits in seat ``i mod 2`` (seat
rotation). Each line: games, the bot's durak count among decided games, the durak rate with its
95% Wilson interval and its mean wall ms per searched move (a move with one legal action costs
nothing and is not counted).

Usage::

    python benchmarks/bench_openspiel.py --games 100 --ms 50
    python benchmarks/bench_openspiel.py --games 100 --ms 50 --ismcts-factor 4

The adapters' steps per second are measured by ``benchmarks/bench_rl.py``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from durak.rl.openspiel_game import LibraryBot
from durak.tournament import wilson_interval


class TimedISMCTS:
    """ISMCTS with about ``seconds`` of wall time per move, through its simulation count."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        self.bot = ismcts.ISMCTSBot(
            game, rollouts, 2.0, max_simulations=10, random_state=np.random.RandomState(seed)
        )
        self.seconds = seconds
        self.per_simulation = 0.002
        self.searched = 0
        self.wall = 0.0

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        simulations = max(2, round(self.seconds / self.per_simulation))
        self.bot._max_simulations = simulations
        start = time.perf_counter()
        action = int(self.bot.step(state))
        took = time.perf_counter() - start
        self.per_simulation = 0.7 * self.per_simulation + 0.3 * took / simulations
        self.searched += 1
        self.wall += took
        return action


class Timed:
    """A library bot with its wall time per searched move counted."""

    def __init__(self, name: str, seed: int) -> None:
        self.bot = LibraryBot(name, seed)
        self.searched = 0
        self.wall = 0.0

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        start = time.perf_counter()
        action = self.bot.step(state)
        self.wall += time.perf_counter() - start
        self.searched += 1
        return action


def play(game: Any, bots: list[Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def line(name: str, durak: int, decided: int, wall: float, searched: int) -> str:
    low, high = wilson_interval(durak, decided)
    rate = durak / decided if decided else 0.0
    ms = 1000.0 * wall / searched if searched else 0.0
    return (
        f"{name:<36} durak {durak:>4} of {decided:>4} decided  {rate:6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  {ms:7.1f} ms/move"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ms", type=float, default=50.0, help="search bot ms per move")
    parser.add_argument("--ismcts-factor", type=float, default=1.0, help="ISMCTS time x this")
    parser.add_argument("--search", default="search", help="the library bot (name, options)")
    parser.add_argument("--every", type=int, default=0, help="print running counts every N games")
    args = parser.parse_args()
    game = pyspiel.load_game("python_durak")
    seconds = args.ms / 1000.0
    name = f"{args.search}:time_limit={seconds}"
    durak = [0, 0]
    decided = 0
    ism = TimedISMCTS(game, seconds * args.ismcts_factor, 0)
    lib = Timed(name, 0)
    for i in range(args.games):
        ism_seat = i % 2
        bots = [ism, lib] if ism_seat == 0 else [lib, ism]
        returns = play(game, bots, i)
        if returns[0] != returns[1]:
            decided += 1
            loser = returns.index(-1.0)
            durak[0 if loser == ism_seat else 1] += 1
        if args.every and (i + 1) % args.every == 0 and i + 1 < args.games:
            print(f"after {i + 1} games: ismcts durak {durak[0]}, {name} durak {durak[1]}")
    print(f"{args.games} games of two-player Podkidnoy, seat-rotated")
    print(line(f"ismcts (x{args.ismcts_factor:g} time)", durak[0], decided, ism.wall, ism.searched))
    print(line(name, durak[1], decided, lib.wall, lib.searched))


if __name__ == "__main__":
    main()
