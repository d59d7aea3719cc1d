"""The beat table folded from R4.7 and the rule modules' ``beats`` hooks (R8, R15.1 ...).

The lowest layer of beating: :class:`~durak.rules.modules.Plan` folds one table per trump suit
with :func:`beat_table_of` when rules are compiled; :mod:`durak.rules.beating` gives the same
answers for a rules object, and re-exports what is here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from durak.cards import Card, Suit

if TYPE_CHECKING:
    from durak.rules.hooks import RuleModule
    from durak.rules.settings import Rules

__all__ = ["base_beats", "beat_table_of", "forbidder"]


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
