"""R15.3 The reverse show (setting ``show_sends_back``, needs ``transfer_by_showing_trump``;
Shchelkovsky durak: "show the trump of the same value ... back to the player counterclockwise").

A show (R9.5) sends the attack to the previous active player counterclockwise (in team play the
previous active opponent, R10.2) instead of the next one clockwise; R9.2 is checked against
him. Transfers by card still go clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from durak.actions import Action, ShowTrump
from durak.rules import seating
from durak.rules.modules import RuleModule

if TYPE_CHECKING:
    from durak.rules.bout import Bout
    from durak.rules.settings import Rules

__all__ = ["ReverseShow", "previous_opponent"]


def previous_opponent(rules: Rules, active: Sequence[bool], seat: int) -> int | None:
    """The previous active opponent counterclockwise from ``seat`` (R15.3, R10.2), or
    ``None``: players who are out or finished are passed over, partners too."""
    n = len(active)
    for step in range(1, n):
        other = (seat - step) % n
        if active[other] and rules.opponents(seat, other):
            return other
    return None


class ReverseShow(RuleModule):
    """R15.3: a shown trump sends the attack counterclockwise."""

    name = "show-sends-back"
    setting = "show_sends_back"
    description = "A shown trump sends the attack back counterclockwise (R15.3)"
    rule = "R15.3"

    def applies(self, rules: Rules) -> bool:
        return rules.show_sends_back

    def transfer_target(self, bout: Bout, action: Action) -> int | None:
        s = bout.s
        if isinstance(action, ShowTrump):
            return previous_opponent(s.rules, bout.active, s.defender)
        return seating.next_opponent(s.rules, bout.active, s.defender)  # R9.1 as it stands
