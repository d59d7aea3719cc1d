"""Beating (R4.7), narrowed by rule modules such as the strict-suit rule (R8).

Which card beats which depends only on the trump suit and the rules, so the engine precomputes
one table per pair and looks beats up by the cards' integer values.
"""

from __future__ import annotations

from functools import lru_cache

from durak.cards import Card, Suit
from durak.rules.modules import RuleModule, plan_for
from durak.rules.settings import Rules

__all__ = ["base_beats", "beat_table", "beat_table_of", "beats", "forbidder"]


def base_beats(card: Card, attack: Card, trump: Suit) -> bool:
    """R4.7 alone: a higher card of the same suit beats; any trump beats a card that is not
    trump; a trump is beaten only by a higher trump; identical cards never beat each other."""
    if card.special or attack.special:
        return False  # cards outside the 52: their modules' beats hooks decide
    if card.suit == attack.suit:
        return card.rank > attack.rank
    return card.suit == trump


def forbidder(
    card: Card, attack: Card, trump: Suit, rules: Rules, modules: tuple[RuleModule, ...]
) -> RuleModule | None:
    """The rule module whose :meth:`~RuleModule.beats` hook forbids ``card`` on ``attack``
    (folded in plan order as the beat table is), or ``None`` where R4.7 alone forbids it (or
    nothing does). A module forbids when it turns what the rules so far allow into a refusal
    (R8: a trump on a strict suit), or when it refuses whatever they say (R15.1: a card on a
    joker): the first such module is the rule a refusal cites."""
    ok = base_beats(card, attack, trump)
    for module in modules:
        verdict = module.beats(card, attack, trump, rules, ok)
        if not verdict and (ok or not module.beats(card, attack, trump, rules, True)):
            return module
        ok = verdict
    return None


def beat_table(trump: Suit, rules: Rules) -> bytes:
    """A 64x64 table: ``table[(attack & 63) * 64 + (card & 63)]`` is 1 when ``card`` beats
    ``attack`` under R4.7 and every active rule module's :meth:`beats` hook. Copies of a card do
    not matter (R1.2)."""
    table: bytes = plan_for(rules).tables[trump]
    return table


@lru_cache(maxsize=256)
def beat_table_of(
    trump: Suit, rules: Rules, modules: tuple[RuleModule, ...], specials: tuple[Card, ...] = ()
) -> bytes:
    """The table of :func:`beat_table` folded from R4.7 and the ``beats`` hooks of
    ``modules``, over the 52 cards and the deck's cards outside them (``specials``, first
    copies); the plan builds it once per rules object."""
    cards = [Card.of(rank, suit) for suit in Suit for rank in range(2, 15)]
    cards += specials
    table = bytearray(64 * 64)
    for attack in cards:
        for card in cards:
            ok = base_beats(card, attack, trump)
            for module in modules:
                ok = module.beats(card, attack, trump, rules, ok)
            table[(attack & 63) * 64 + (card & 63)] = ok
    return bytes(table)


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
