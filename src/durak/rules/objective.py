"""The end of the game and its result (R7.2, R7.3, R7.4)."""

from __future__ import annotations

from collections.abc import Sequence

from durak.rules.settings import Objective, OnLastCleared, Rules
from durak.state import Result

__all__ = ["game_result"]


def game_result(
    rules: Rules, places: Sequence[int | None], newly_out: Sequence[int], defender: int
) -> Result | None:
    """The result if the game ends at this bout end, else ``None``.

    Args:
        places: every seat's place after this bout's outs were recorded (R7.2).
        newly_out: the seats that went out at this bout end.
        defender: the defender of the bout that just ended.
    """
    n = len(places)
    seats = range(n)
    if rules.objective is Objective.FIRST_OUT:
        if not newly_out:
            return None
        winners = tuple(p for p in seats if places[p] is not None)
        losers = tuple(p for p in seats if places[p] is None)
        return Result(
            durak=None,
            draw=False,
            places=tuple(1 if places[p] is not None else len(winners) + 1 for p in seats),
            winners=winners,
            losers=losers,
        )
    left = [p for p in seats if places[p] is None]
    if len(left) > 1:
        return None
    if len(left) == 1:
        durak = left[0]
        final = tuple(n if p == durak else places[p] or n for p in seats)
        return Result(
            durak=durak,
            draw=False,
            places=final,
            winners=tuple(p for p in seats if p != durak),
            losers=(durak,),
        )
    if rules.on_last_cleared is OnLastCleared.DEFENDER_LOSES and defender in newly_out:
        final = tuple(n if p == defender else places[p] or n for p in seats)
        return Result(
            durak=defender,
            draw=False,
            places=final,
            winners=tuple(p for p in seats if p != defender),
            losers=(defender,),
        )
    return Result(
        durak=None,
        draw=True,
        places=tuple(places[p] or n for p in seats),
        winners=tuple(seats),
        losers=(),
    )
