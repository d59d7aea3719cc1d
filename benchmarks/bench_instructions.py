"""Machine instructions per random game, counted by callgrind: the figure to compare versions.

A timing on a shared machine varies by a third from run to run; an instruction count does not.
This script plays the games of ``bench_engine.py``'s (a) (a random player, every player's legal
actions at every step, seeds ``0 .. N-1``, the deal included) under
``valgrind --tool=callgrind``, once with ``--few`` games and once with ``--many``, and prints
``(many - few) / (many - few games)``: the instructions of one game without the start-up of
Python and of the library. ``PYTHONHASHSEED=0`` and a bytecode cache of its own make the count
repeat whatever else the machine is doing. The sources' place on disk moves it by up to about
2%, so count the versions you compare from the same directory (check one out after the
other), or treat smaller differences as noise.

Needs ``valgrind`` (Debian: ``apt-get install valgrind``). It runs about fifty times slower
than Python alone: a few minutes for the defaults.

Usage::

    python benchmarks/bench_instructions.py                       # Podkidnoy, 2 and 4 players
    python benchmarks/bench_instructions.py --presets perevodnoy --players 2
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence

#: The loop that is counted: bench_engine.py's random games, nothing else.
LOOP = """
import random, sys
from durak import legal_actions, apply, new_game
from durak.presets import get_preset
rules = get_preset(sys.argv[1]).rules(players=int(sys.argv[2]))
for seed in range(int(sys.argv[3])):
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while state.result is None:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
"""


def count(preset: str, players: int, games: int, workdir: str) -> int:
    """The instructions callgrind counts for the whole process playing ``games`` games."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": workdir}
    args = [sys.executable, "-c", LOOP, preset, str(players), str(games)]
    subprocess.run(args, env=env, check=True)  # fills the bytecode cache first
    out = os.path.join(workdir, f"callgrind.{preset}.{players}.{games}")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", nargs="+", default=["podkidnoy"], help="presets to count")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2, 4], help="player counts (default 2 4)"
    )
    parser.add_argument("--few", type=int, default=10, help="games of the first run (10)")
    parser.add_argument("--many", type=int, default=40, help="games of the second run (40)")
    args = parser.parse_args(argv)
    if not 0 <= args.few < args.many:
        parser.error("--few must be at least 0 and less than --many")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as workdir:
        for preset in args.presets:
            for players in args.players:
                few = count(preset, players, args.few, workdir)
                many = count(preset, players, args.many, workdir)
                per_game = (many - few) / (args.many - args.few)
                print(f"{preset}, {players} players: {per_game / 1e6:.2f} M instructions a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
