"""Beating (R4.7) and the strict-suit rule (R8): which card beats which.

The answer depends only on the trump suit and the strict suits, so it is precomputed once per
pair into a table indexed by the cards' integer values; the engine asks :func:`beats`.
"""

from __future__ import annotations

from functools import lru_cache

from durak.cards import Card, Suit

__all__ = ["beat_table", "beats"]


@lru_cache(maxsize=64)
def beat_table(trump: Suit, strict_suits: frozenset[Suit] = frozenset()) -> bytes:
    """A 64x64 table: ``table[(attack & 63) * 64 + (card & 63)]`` is 1 when ``card`` beats
    ``attack``. Copies do not matter: identical cards never beat each other (R1.2, R4.7).

    - a higher card of the same suit beats (R4.7);
    - any trump beats a card that is not trump (R4.7), unless the attack card's suit is strict
      and not trump (R8.1);
    - a trump is beaten only by a higher trump (R4.7).
    """
    table = bytearray(64 * 64)
    for a in range(64):
        a_rank, a_suit = a & 15, a >> 4
        if not 2 <= a_rank <= 14:
            continue
        for c in range(64):
            c_rank, c_suit = c & 15, c >> 4
            if not 2 <= c_rank <= 14:
                continue
            if c_suit == a_suit:
                ok = c_rank > a_rank
            else:
                ok = c_suit == trump and Suit(a_suit) not in strict_suits
            table[a * 64 + c] = ok
    return bytes(table)


def beats(
    card: Card, attack: Card, trump: Suit, strict_suits: frozenset[Suit] = frozenset()
) -> bool:
    """Whether ``card`` beats ``attack`` with that trump suit and strict suits (R4.7, R8.1).

    >>> from durak.cards import Card, Suit
    >>> beats(Card.parse("7h"), Card.parse("Ah"), Suit.HEARTS)
    False
    >>> beats(Card.parse("6h"), Card.parse("As"), Suit.HEARTS)
    True
    >>> beats(Card.parse("6h"), Card.parse("Ac"), Suit.HEARTS, frozenset({Suit.CLUBS}))
    False
    """
    return bool(beat_table(trump, strict_suits)[(attack & 63) * 64 + (card & 63)])
