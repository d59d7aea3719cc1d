"""Side by side: random two-player games of this library and of the PyPI package ``durakgame``.

``durakgame`` (a small two-player Durak simulator with mutable lists and simpler rules: no
throw-ins by a second player, no transfers) is the pure-Python peer this library is compared
with. It is not a dependency of the project; install it into the same environment first::

    python -m pip install durakgame
    python benchmarks/bench_peers.py                  # about 20 s
    python benchmarks/bench_peers.py --games 300 --runs 7

Both play whole games with a random player, seeds ``0 .. games-1``, on one core, the deal
included:

- this library through its public immutable API: ``new_game``, then ``legal_actions(state)``
  (every player's actions) and ``apply`` of a random one, until the game is over;
- ``durakgame``: its ``Game`` with two random players choosing from ``generateOptions()``.
  After a take it can hand cards back twice and grow without end (and then list combinations
  of an ever larger hand), so each of its games stops after ``--max-moves`` moves,
  ``--max-seconds`` seconds, or once its hands hold more cards than the deck; the games it
  could not finish are counted and left out of its rate.

Each rate is the median of ``--runs`` runs over CPU time (``time.process_time``), the steadier
figure on a shared machine; the ratio is this library's rate over the peer's.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import durak
from durak import Rules, apply, legal_actions, new_game


def library_games(games: int) -> tuple[float, int]:
    """CPU seconds for ``games`` random games of Podkidnoy, two players, and their moves."""
    rules = Rules(players=2)
    moves = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while state.result is None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
            moves += 1
    return time.process_time() - start, moves


def peer_games(
    durakgame: Any, games: int, max_moves: int, max_seconds: float
) -> tuple[float, int, int]:
    """CPU seconds spent on the finished games of ``games`` random ``durakgame`` games, their
    moves, and the number of games that hit a bound and were left out."""

    class SeededRandom(durakgame.Player):  # type: ignore[misc, name-defined]
        def __init__(self, rng: random.Random) -> None:
            super().__init__()
            self.rng = rng

        def nextMove(self, state: Any, options: Sequence[Any]) -> int:
            return self.rng.randrange(len(options))

    spent = 0.0
    moves = 0
    unfinished = 0
    for seed in range(games):
        rng = random.Random(seed)
        start = time.process_time()
        deck = durakgame.standardDeck()
        rng.shuffle(deck)
        game = durakgame.game.Game(deck, SeededRandom(rng), SeededRandom(rng))
        made = 0
        finished = True
        while not game.isFinished:
            if (
                made >= max_moves
                or time.process_time() - start > max_seconds
                or len(game.player1.hand) + len(game.player2.hand) > len(deck)
            ):  # the bounds; more cards in hand than the deck has: it duplicated cards
                finished = False
                break
            options = game.generateOptions()
            if not options:  # the peer can reach a position without moves
                finished = False
                break
            game.process(options[game.currentPlayer.nextMove(game.state, options)])
            made += 1
        took = time.process_time() - start
        if finished:
            spent += took
            moves += made
        else:
            unfinished += 1
    return spent, moves, unfinished


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument(
        "--max-moves", type=int, default=5000, help="move bound of a durakgame game"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=2.0, help="time bound of a durakgame game"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.runs < 1:
        parser.error("--games and --runs must be at least 1")
    try:
        import durakgame
        import durakgame.game
    except ImportError:
        print("durakgame is not installed: python -m pip install durakgame", file=sys.stderr)
        return 2

    print(f"durak {durak.__version__}; durakgame (PyPI)")
    print(f"build: {'compiled (DURAK_COMPILE=1)' if durak.compiled else 'pure Python'}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()})")
    print(f"{args.games} random two-player games per run, {args.runs} runs, CPU time\n")
    ours: list[float] = []
    theirs: list[float] = []
    our_moves = their_moves = unfinished = 0
    for _ in range(args.runs):  # alternate, so both see the same machine
        seconds, our_moves = library_games(args.games)
        ours.append(args.games / seconds)
        seconds, their_moves, unfinished = peer_games(
            durakgame, args.games, args.max_moves, args.max_seconds
        )
        finished = args.games - unfinished
        theirs.append(finished / seconds if seconds else 0.0)
    mine, peer = statistics.median(ours), statistics.median(theirs)
    print(
        f"  durak      {mine:>8,.0f} games/s  (median; min {min(ours):,.0f}, max {max(ours):,.0f};"
        f" {our_moves / args.games:.1f} moves a game)"
    )
    finished = args.games - unfinished
    print(
        f"  durakgame  {peer:>8,.0f} games/s  (median; min {min(theirs):,.0f}, "
        f"max {max(theirs):,.0f}; {their_moves / max(1, finished):.1f} moves a game; "
        f"{unfinished} of {args.games} games unfinished within the bounds)"
    )
    if peer:
        print(f"\n  ratio durak / durakgame: {mine / peer:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
