"""R15.1 Jokers (setting ``jokers``: 0, 1 or 2 per 52-card deck; Shchelkovsky durak).

A joker is a card outside the 52 (:func:`~durak.cards.special_card`), written ``Jk`` and, for
its further copies, ``Jk#2``, ``Jk#3`` ... (R1.3). It has no suit and is never trump.

- Beating: a joker beats any attack card, trumps and strict suits (R8) included; no card beats
  a joker, not even another one, so a joker led or thrown in must be taken.
- Throwing in: a joker's rank is its own, so it leads at any time and may be thrown in only
  while another joker lies on the table (R4.3 as it stands: a special card matches only cards
  of its own text).
- A joker is never a transfer card (R9); it counts for no suit in a misdeal (R12.2).
- Trump: a joker turned up for trump (R2.4) goes into the stock after the first half (rounded
  down) of the face-down cards, and the next card is turned, again while it is a joker. With no
  card left to turn, the last dealt card that is not a joker shows trump.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from durak.actions import Action, Transfer
from durak.cards import Card, Suit, special_card
from durak.errors import RulesError
from durak.messages import message
from durak.rules.modules import RuleModule, Violation

if TYPE_CHECKING:
    from durak.rules.settings import Rules
    from durak.state import GameState

__all__ = ["JOKER", "Jokers", "is_joker", "jokers_of"]

#: The joker's text (R15.1).
JOKER = "Jk"

# Registered at once, so that records, rules files and views read ``Jk`` before any deck with
# jokers has been built.
special_card(JOKER)


def jokers_of(rules: Rules) -> tuple[Card, ...]:
    """The jokers of ``rules``' deck(s): ``jokers`` per deck, copies ``Jk``, ``Jk#2`` ..."""
    return tuple(special_card(JOKER, k) for k in range(rules.jokers * rules.decks))


def is_joker(card: Card) -> bool:
    """Whether ``card`` is a joker (any copy)."""
    return card.special and str(card).partition("#")[0] == JOKER


class Jokers(RuleModule):
    """R15.1: jokers join the deck; a joker beats anything and nothing beats it."""

    name = "jokers"
    setting = "jokers"
    description = "Jokers: a joker beats any card and nothing beats it (R15.1)"
    rule = "R15.1"
    checks = (Transfer,)  # what check judges: the rest it never forbids

    def applies(self, rules: Rules) -> bool:
        return rules.jokers > 0

    def deck(self, rules: Rules, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return (*cards, *jokers_of(rules))

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if is_joker(attack):
            return False  # nothing beats a joker, not even a joker
        if is_joker(card):
            return True  # a joker beats any card, trump and strict suits included
        return default

    def check(self, state: GameState, action: Action) -> Violation | None:
        if isinstance(action, Transfer) and any(is_joker(c) for c in action.cards):
            return self.rule, message("joker-no-transfer")
        return None

    def turn_trump(
        self, rules: Rules, rest: tuple[Card, ...], dealt: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], Card]:
        """R2.4 with R15.1: a turned-up joker goes into the face-down stock after the first
        ``m // 2`` of its ``m`` cards and the next card is turned (a joker put back is not
        turned again); with none left, the last dealt card that is not a joker shows trump."""
        down = list(rest)
        put_back: set[Card] = set()
        while True:
            top = next((c for c in down if c not in put_back), None)
            if top is None:
                break
            down.remove(top)
            if not top.special:
                return (*down, top), top
            down.insert(len(down) // 2, top)
            put_back.add(top)
        # Nothing left to turn: the stock is empty (a full deal) or holds jokers alone, which
        # stay in it face down; the last dealt card that is not a joker shows trump.
        shown = next((c for c in reversed(dealt) if not c.special), None)
        if shown is None:  # every card dealt and left is a joker: no deck of R15.1 deals so
            raise RulesError("jokers", "no card that is not a joker is left to show trump (R15.1)")
        return tuple(down), shown
