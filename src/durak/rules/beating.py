"""Beating (R4.7), narrowed by rule modules such as the strict-suit rule (R8).

Which card beats which depends only on the trump suit and the rules, so the engine precomputes
one table per pair and looks beats up by the cards' integer values (folded by
:mod:`durak.rules.folding`, whose functions this module re-exports).
"""

from __future__ import annotations

from durak.cards import Card, Suit
from durak.rules.folding import base_beats, beat_table_of, forbidder
from durak.rules.modules import plan_for
from durak.rules.settings import Rules

__all__ = ["base_beats", "beat_table", "beat_table_of", "beats", "forbidder"]


def beat_table(trump: Suit, rules: Rules) -> bytes:
    """A 64x64 table: ``table[(attack & 63) * 64 + (card & 63)]`` is 1 when ``card`` beats
    ``attack`` under R4.7 and every active rule module's :meth:`beats` hook. Copies of a card do
    not matter (R1.2)."""
    table: bytes = plan_for(rules).tables[trump]
    return table


def beats(card: Card, attack: Card, trump: Suit, rules: Rules | None = None) -> bool:
    """Whether ``card`` beats ``attack`` with that trump suit under ``rules`` (R4.7, R8.1).

    >>> from durak.cards import Card, Suit
    >>> from durak.rules import Rules
    >>> beats(Card.parse("7h"), Card.parse("Ah"), Suit.HEARTS)
    False
    >>> beats(Card.parse("6h"), Card.parse("As"), Suit.HEARTS)
    True
    >>> beats(Card.parse("6h"), Card.parse("Ac"), Suit.HEARTS, Rules(strict_suits=["c"]))
    False
    """
    table = beat_table(trump, rules if rules is not None else Rules())
    return bool(table[(attack & 63) * 64 + (card & 63)])
