"""R15.2 Suit throw-ins (setting ``throw_in_by_suit``; *parnomastny*).

A card may also be thrown in when its suit equals the suit of any card on the table in this
bout, attack or beating card (a joker has no suit), within R4.6. A transfer (R9.1) still needs
every attack card to share one rank.

``docs/writing-a-variant.md`` walks through this module line by line (the ``--8<--`` comments
mark the parts it shows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from durak.actions import Action, ShowTrump, Transfer
from durak.cards import Card
from durak.messages import message
from durak.rules.modules import RuleModule, Violation

if TYPE_CHECKING:
    from durak.rules.bout import Bout
    from durak.rules.settings import Rules
    from durak.state import GameState

__all__ = ["SuitThrowIns", "one_rank_for_transfers"]


#: The kinds of a transfer: by card (R9.1) and by a shown trump (R9.5).
_TRANSFER_KINDS = (Transfer, ShowTrump)


# --8<-- [start:one-rank]
def one_rank_for_transfers(state: GameState, action: Action, rule: str) -> Violation | None:
    """R9.1: a transfer (by card or by a shown trump) needs every attack card on the table to
    share one rank; a table with mixed ranks (R15.2, R15.5) gives none."""
    if isinstance(action, _TRANSFER_KINDS) and state.table:
        ranks = {a & 15 for a, _ in state.table}
        if len(ranks) > 1:
            return rule, message("transfer-mixed-ranks")
    return None


# --8<-- [end:one-rank]


# --8<-- [start:class]
class SuitThrowIns(RuleModule):
    """R15.2: a card matches the table by its rank (R4.3) or by its suit."""

    name = "throw-in-by-suit"
    setting = "throw_in_by_suit"
    description = "A card of a suit on the table may be thrown in (R15.2)"
    rule = "R15.2"
    checks = _TRANSFER_KINDS  # check judges transfers alone

    def applies(self, rules: Rules) -> bool:
        return rules.throw_in_by_suit

    # --8<-- [end:class]

    # --8<-- [start:may-throw]
    def may_throw(self, bout: Bout, card: Card, default: bool) -> bool:
        if default or card.special:
            return default  # matched by rank already, or a joker, which has no suit
        suit = (card >> 4) & 3
        return any(
            c is not None and not c.special and (c >> 4) & 3 == suit
            for pair in bout.s.table
            for c in pair
        )

    # --8<-- [end:may-throw]

    # --8<-- [start:check]
    def check(self, state: GameState, action: Action) -> Violation | None:
        return one_rank_for_transfers(state, action, self.rule)

    # --8<-- [end:check]
