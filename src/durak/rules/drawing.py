"""Drawing after a bout (R5)."""

from __future__ import annotations

from collections.abc import Sequence

from durak.rules.settings import DrawOrder, Rules

__all__ = ["draw_order"]


def draw_order(
    rules: Rules, leader: int, joined: Sequence[int], defender: int, eligible: Sequence[bool]
) -> list[int]:
    """The order in which players draw after a bout (R5.1).

    The leader first; then the other players who put an attack card on the table (clockwise
    from the leader, or in ``joined`` order under ``draw_order = join_order``); then any other
    eligible player clockwise from the leader; the bout's final defender always last.

    Args:
        leader: who led the bout.
        joined: players who put attack cards on the table, in the order they first did.
        defender: the bout's final defender.
        eligible: per seat, whether that seat may draw (not out).
    """
    n = len(eligible)
    clockwise = [(leader + step) % n for step in range(n)]
    attackers = set(joined) | {leader}
    if rules.draw_order is DrawOrder.JOIN_ORDER:
        first = [leader] + [p for p in joined if p != leader]
    else:
        first = [p for p in clockwise if p in attackers]
    rest = [p for p in clockwise if p not in attackers]
    order = [p for p in first + rest if p != defender and eligible[p]]
    if eligible[defender]:
        order.append(defender)
    return order
