"""Going out, the end of the game and its result (R7.1-R7.4, R10.3).

One source for places: :func:`settle` gives the places every state, view, event and result
carries. While the game runs a seat's place is set when he goes out (R7.1) or leaves with a
winning partner (R10.3); once the game is over every seat has a place and the state's places
equal the result's (R7.2).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from durak.rules.settings import Objective, OnLastCleared, Rules, TeamWin
from durak.state import Result

__all__ = ["Settled", "out_wins", "settle"]

#: What :func:`settle` decides: the places, the seats that left holding cards, the result.
Settled = tuple[tuple[int | None, ...], frozenset[int], Result | None]


def settle(
    rules: Rules,
    places: Sequence[int | None],
    left: frozenset[int],
    newly_out: Sequence[int],
    defender: int,
) -> Settled:
    """Record this bout end's outs and decide whether the game is over.

    Args:
        places: every seat's place before this bout end (``None`` while in play).
        left: the seats that left earlier holding cards with a winning partner (R10.3).
        newly_out: the seats whose hands are empty with the stock empty at this bout end (R7.1).
        defender: the defender of the bout that just ended.

    Returns:
        ``(places, left, result)``. The places of R7.2: players out at this bout end share
        ``1 + the number placed before``; under ``team_win = first_out`` a player's partners
        leave with him and take his place (they join ``left``, R10.3). When the game ends here
        (R7.3, R10.3) ``result`` is its :class:`Result` and ``places`` equals
        ``result.places``, a place for every seat; else ``result`` is ``None``.
    """
    if not newly_out:  # nobody new is out: the sides in play are those of a running game
        return tuple(places), left, None
    n = len(places)
    new = list(places)
    gone = set(left)
    place = 1 + sum(1 for x in places if x is not None)
    for p in newly_out:
        if new[p] is None:
            new[p] = place
    if rules.teams is not None and rules.team_win is TeamWin.FIRST_OUT:
        for p in range(n):
            if new[p] is None and any(_partners(rules, p, q) for q in newly_out):
                new[p] = place
                gone.add(p)
    result = _result(rules, new, newly_out, defender)
    if (
        result is not None
        and result.durak == defender
        and defender in newly_out
        and rules.on_last_cleared is OnLastCleared.DEFENDER_LOSES
    ):
        # R7.3: the last defender is the durak, not a winner, so partners who left with him
        # at this bout end did not leave with a winner (R10.3): they lost holding cards and
        # share the last place (R7.2).
        losing = {p for p in gone - left if _partners(rules, p, defender)}
        if losing:
            gone -= losing
            result = attrs.evolve(
                result, places=tuple(n if p in losing else x for p, x in enumerate(result.places))
            )
    final = result.places if result is not None else tuple(new)
    return final, frozenset(gone), result


def out_wins(rules: Rules) -> bool:
    """Whether a player who goes out has won, whatever happens after (R7.3): true under
    ``objective = durak`` without teams (with teams his result is his team's, R10.3)."""
    return rules.teams is None and rules.objective is Objective.DURAK


def _partners(rules: Rules, a: int, b: int) -> bool:
    return not rules.opponents(a, b)


def _result(
    rules: Rules, places: list[int | None], newly_out: Sequence[int], defender: int
) -> Result | None:
    n = len(places)
    seats = range(n)
    if rules.objective is Objective.FIRST_OUT:
        if not newly_out:
            return None
        out = {p for p in seats if places[p] is not None}
        # With teams, a player's result is his team's (R10.3).
        won = {p for p in seats if any(_partners(rules, p, q) for q in out)}
        # R7.2: the others share place 1 + the number out; in team play the losing team's
        # members, all still holding cards, share the last place.
        lost = n if rules.teams is not None else len(won) + 1
        return Result(
            durak=None,
            draw=False,
            places=tuple(1 if p in won else lost for p in seats),
            winners=tuple(p for p in seats if p in won),
            losers=tuple(p for p in seats if p not in won),
        )
    left = [p for p in seats if places[p] is None]
    if len({rules.team_of(p) for p in left}) > 1:
        return None
    if left:
        # One player, or one team, is left: it loses and shares the last place (R7.2, R7.3).
        losers = {p for p in seats if _partners(rules, p, left[0])}
        durak = left[0] if len(left) == 1 else None
    elif rules.on_last_cleared is OnLastCleared.DEFENDER_LOSES:
        # R7.3: the last defender is the durak; he is not counted as out.
        losers = {p for p in seats if _partners(rules, p, defender)}
        durak = defender
        left = [defender]
    else:
        return Result(
            durak=None,
            draw=True,
            places=tuple(places[p] or n for p in seats),
            winners=tuple(seats),
            losers=(),
        )
    return Result(
        durak=durak,
        draw=False,
        places=tuple(n if p in left else places[p] or n for p in seats),
        winners=tuple(p for p in seats if p not in losers),
        losers=tuple(p for p in seats if p in losers),
    )
