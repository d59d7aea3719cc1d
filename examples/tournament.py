"""Run a small tournament: seat-rotated games, durak rates with 95% confidence intervals.

Run: python examples/tournament.py
"""

from __future__ import annotations

from durak import Rules
from durak.tournament import run_tournament

result = run_tournament(Rules(players=3), ["rule", "random", "random"], games=90, seed="demo")
for name, stats in zip(["rule", "random (1)", "random (2)"], result.stats, strict=True):
    low, high = stats.durak_interval
    print(
        f"{name:<11} durak in {stats.durak:>3} of {stats.decided} decided games "
        f"({stats.durak_rate:.0%}, 95% CI {low:.0%}-{high:.0%})"
    )
