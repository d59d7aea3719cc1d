"""R15.4 Pogony (setting ``pogony``; "epaulettes", "the fool in uniform").

When a game ends with a durak who was the defender of the last bout and took, he receives one
epaulette per six among that bout's attack cards (trump sixes included), at most two. The
count is the result's fact ``epaulettes`` (0 when he earned none); a match (R11,
:mod:`durak.match`) adds them up per player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from durak.cards import Rank
from durak.rules.modules import RuleModule

if TYPE_CHECKING:
    from durak.rules.settings import Rules
    from durak.state import GameState, Result

__all__ = ["MAX_EPAULETTES", "Pogony", "epaulettes"]

#: At most two epaulettes, one per shoulder (R15.4).
MAX_EPAULETTES = 2


def epaulettes(result: Result) -> int:
    """The durak's epaulettes in a game's result (R15.4): 0 without pogony or without any."""
    value = result.fact("epaulettes", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class Pogony(RuleModule):
    """R15.4: a durak finished off with sixes wears them as epaulettes."""

    name = "pogony"
    setting = "pogony"
    description = "Epaulettes: a durak who took sixes in the last bout wears them (R15.4)"
    rule = "R15.4"

    def applies(self, rules: Rules) -> bool:
        return rules.pogony

    def result(self, state: GameState, result: Result) -> Result:
        count = 0
        if result.durak is not None and result.durak == state.defender and state.taken:
            sixes = sum(1 for a, _ in state.table if not a.special and a.rank == Rank.SIX)
            count = min(MAX_EPAULETTES, sixes)
        extra = tuple(sorted({**dict(result.extra), "epaulettes": count}.items()))
        return attrs.evolve(result, extra=extra)
