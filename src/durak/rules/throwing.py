"""Who may add attack cards, in which order, and how many (R4.4, R4.5, R4.6, R9.6)."""

from __future__ import annotations

from collections.abc import Sequence

from durak.rules.seating import next_opponent
from durak.rules.settings import FirstBoutScope, Rules, Throwers

__all__ = ["attack_cap", "first_bout_applies", "throwers"]


def throwers(rules: Rules, active: Sequence[bool], attacker: int, defender: int) -> tuple[int, ...]:
    """The seats that may throw in against ``defender`` (R4.4), in clockwise order from the main
    attacker. The main attacker is always among them (R4.4); the defender and his partners never
    are (R10.2)."""
    n = len(active)
    if rules.throwers is Throwers.ATTACKER:
        return (attacker,)
    if rules.throwers is Throwers.NEIGHBOURS:
        after = next_opponent(rules, active, defender)
        if after is None or after == attacker:
            return (attacker,)
        return (attacker, after)
    opponents = rules.opponents
    return tuple(
        seat
        for seat in ((attacker + step) % n for step in range(n))
        if opponents(seat, defender) and (active[seat] or seat == attacker)
    )


def first_bout_applies(rules: Rules, bouts: int, defences: int) -> bool:
    """Whether the first-bout restriction of R4.6 holds: in the game's first bout, or, with
    ``first_bout_scope = until_first_discard``, until the first successful defence."""
    if rules.first_bout_scope is FirstBoutScope.UNTIL_FIRST_DISCARD:
        return defences == 0
    return bouts == 0


def attack_cap(rules: Rules, bouts: int, defences: int) -> int:
    """The bout's ``cap`` of R4.6: ``first_bout_max`` while the first-bout restriction applies
    (unless it is ``None``), else ``max_attack``."""
    if rules.first_bout_max is not None and first_bout_applies(rules, bouts, defences):
        return rules.first_bout_max
    return rules.max_attack
