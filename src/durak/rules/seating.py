"""Seating (R2.2, R4.1, R6): clockwise order, the next active player, the defender."""

from __future__ import annotations

from collections.abc import Sequence

from durak.rules.settings import Rules

__all__ = ["clockwise_from", "next_active", "next_opponent"]


def next_active(active: Sequence[bool], seat: int) -> int | None:
    """The next active seat strictly clockwise after ``seat``, or ``None`` if no other seat is
    active (R2.2)."""
    n = len(active)
    for step in range(1, n):
        other = (seat + step) % n
        if active[other]:
            return other
    return None


def next_opponent(rules: Rules, active: Sequence[bool], seat: int) -> int | None:
    """The next active opponent strictly clockwise after ``seat`` (R4.1, R9.1, R10.2): without
    teams simply the next active seat; ``None`` if there is none."""
    n = len(active)
    for step in range(1, n):
        other = (seat + step) % n
        if active[other] and rules.opponents(seat, other):
            return other
    return None


def clockwise_from(seat: int, n: int) -> list[int]:
    """All ``n`` seats clockwise, starting with ``seat`` itself."""
    return [(seat + step) % n for step in range(n)]
