"""Ranks, suits, cards and decks (rule book R1).

A :class:`Card` is a small immutable integer with a physical identity: in a game with several
decks (R1.2) the two queens of hearts are two distinct cards, ``Qh`` (the first copy) and
``Qh#2`` (the second copy). Cards are interned, hashable, picklable and cheap to compare, which
keeps the engine's hot path fast.

Text form (R1.3): rank ``2``-``9``, ``T`` (``10`` accepted), ``J Q K A``; suit ``c d h s``
(upper case and ``♣ ♦ ♥ ♠`` accepted). The canonical form is two characters (``Td``); the
``k``-th copy (``k >= 2``) of a card appends ``#k`` (``Td#2``). ``Td#1`` parses as ``Td``.

>>> Card.parse("10h")
Card('Th')
>>> str(Card.of(Rank.QUEEN, Suit.SPADES, copy=1))
'Qs#2'
>>> [str(c) for c in build_deck(24)[:3]]
['9c', 'Tc', 'Jc']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from functools import lru_cache

from durak.errors import InvalidCardError

__all__ = [
    "DECK_SIZES",
    "MAX_COPIES",
    "Card",
    "Rank",
    "Suit",
    "build_deck",
    "format_cards",
    "parse_cards",
    "sort_cards",
]


class Suit(IntEnum):
    """The four suits (R1.1). The numeric order (clubs < diamonds < hearts < spades) is only for
    stable sorting and display: suits have no order in play."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter text form: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``c d h s`` (any case), ``♣ ♦ ♥ ♠`` or a suit name such as ``hearts``.

        Raises:
            InvalidCardError: the text names no suit.
        """
        key = text.strip()
        suit = _SUIT_TEXT.get(key) or _SUIT_TEXT.get(key.lower())
        if suit is None:
            raise InvalidCardError(f"not a suit: {text!r} (expected one of c d h s or ♣ ♦ ♥ ♠)")
        return suit

    def __str__(self) -> str:
        return self.letter


_SUIT_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_TEXT[_s.letter] = _s
    _SUIT_TEXT[_s.symbol] = _s
    _SUIT_TEXT[_s.name.lower()] = _s


class Rank(IntEnum):
    """The ranks, low to high (R1.1); the value is the rank's number (jack 11 ... ace 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """Canonical one-character text form: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank: ``2``-``9``, ``T`` or ``10``, ``J Q K A`` (any case).

        Raises:
            InvalidCardError: the text names no rank.
        """
        rank = _RANK_TEXT.get(text.strip().upper())
        if rank is None:
            raise InvalidCardError(f"not a rank: {text!r} (expected 2-9, T or 10, J, Q, K, A)")
        return rank

    def __str__(self) -> str:
        return self.letter


_RANK_TEXT: dict[str, Rank] = {r.letter: r for r in Rank}
_RANK_TEXT["10"] = Rank.TEN

#: Supported deck sizes (R1.2) and the lowest rank of each.
DECK_SIZES: dict[int, Rank] = {24: Rank.NINE, 32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}

#: The largest number of copies of one card (``decks`` setting) the library supports.
MAX_COPIES = 16

# A card's integer value is ``copy * 64 + suit * 16 + rank``; the tables below are indexed by it.
_N = MAX_COPIES * 64
_RANK_OF: list[Rank | None] = [None] * _N
_SUIT_OF: list[Suit | None] = [None] * _N
_CARDS: list[Card | None] = [None] * _N


class Card(int):
    """One physical playing card (R1.2).

    The integer value is ``copy * 64 + suit * 16 + rank``; sorting cards as integers groups them by
    copy, then suit, then rank. Use :meth:`of` or :meth:`parse` to get one; equal cards are the
    same object.

    Attributes:
        rank: the card's :class:`Rank`.
        suit: the card's :class:`Suit`.
        copy: which copy (0 for the first deck, 1 for the second ...) in a multi-deck game.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        value = int(value)
        if not 0 <= value < _N or _RANK_OF[value] is None:
            raise InvalidCardError(f"not a card value: {value}")
        card = _CARDS[value]
        if card is None:  # pragma: no cover - all cards are interned at import
            card = int.__new__(cls, value)
        return card

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int, copy: int = 0) -> Card:
        """The card of that rank, suit and copy (0-based).

        Raises:
            InvalidCardError: a rank outside 2-14, a suit outside 0-3, or a copy outside
                ``0 .. MAX_COPIES - 1``.
        """
        if not 2 <= rank <= 14 or not 0 <= suit <= 3 or not 0 <= copy < MAX_COPIES:
            raise InvalidCardError(f"no such card: rank={rank!r}, suit={suit!r}, copy={copy!r}")
        card = _CARDS[copy * 64 + suit * 16 + rank]
        assert card is not None
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the text form (R1.3), e.g. ``Td``, ``10d``, ``T♦``, ``TD``, ``Qh#2``.

        Raises:
            InvalidCardError: naming the text, if it is not a card.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"not a card: {text!r} (expected text such as 'Td')")
        raw = text.strip()
        if any(ch.isspace() or ch == "," for ch in raw):
            raise InvalidCardError(
                f"not a card: {text!r} (one card, e.g. 'Td'; use parse_cards for several)"
            )
        body, sep, copy_text = raw.partition("#")
        copy = 0
        if sep:
            if not copy_text.isdigit() or not 1 <= int(copy_text) <= MAX_COPIES:
                raise InvalidCardError(
                    f"not a card: {text!r} (the copy after '#' must be 1-{MAX_COPIES})"
                )
            copy = int(copy_text) - 1
        if len(body) < 2:
            raise InvalidCardError(f"not a card: {text!r} (expected rank then suit, e.g. 'Td')")
        try:
            rank = Rank.parse(body[:-1])
            suit = Suit.parse(body[-1])
        except InvalidCardError as exc:
            raise InvalidCardError(f"not a card: {text!r} ({exc})") from None
        return cls.of(rank, suit, copy)

    @property
    def rank(self) -> Rank:
        r = _RANK_OF[self]
        assert r is not None
        return r

    @property
    def suit(self) -> Suit:
        s = _SUIT_OF[self]
        assert s is not None
        return s

    @property
    def copy(self) -> int:
        return int(self) >> 6

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Display order (R1.1): suit, then rank, then copy."""
        return ((int(self) >> 4) & 3, int(self) & 15, int(self) >> 6)

    def __str__(self) -> str:
        text = _RANK_OF[self].letter + _SUIT_OF[self].letter  # type: ignore[union-attr]
        copy = int(self) >> 6
        return text if copy == 0 else f"{text}#{copy + 1}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def pretty(self) -> str:
        """Text with the suit symbol, e.g. ``10♦``; copies append ``#k``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        copy = int(self) >> 6
        text = rank + self.suit.symbol
        return text if copy == 0 else f"{text}#{copy + 1}"


for _copy in range(MAX_COPIES):
    for _suit in Suit:
        for _rank in Rank:
            _v = _copy * 64 + _suit * 16 + _rank
            _RANK_OF[_v] = _rank
            _SUIT_OF[_v] = _suit
            _CARDS[_v] = int.__new__(Card, _v)


@lru_cache(maxsize=64)
def build_deck(deck_size: int = 36, decks: int = 1) -> tuple[Card, ...]:
    """The cards of ``decks`` copies of a ``deck_size``-card deck (R1.2), in canonical order:
    copy, then suit (clubs first), then rank (lowest first).

    Raises:
        InvalidCardError: an unknown deck size or a number of decks outside 1-``MAX_COPIES``.
    """
    low = DECK_SIZES.get(deck_size)
    if low is None:
        sizes = ", ".join(str(s) for s in DECK_SIZES)
        raise InvalidCardError(f"no deck of {deck_size!r} cards (known sizes: {sizes})")
    if not 1 <= decks <= MAX_COPIES:
        raise InvalidCardError(f"decks must be 1-{MAX_COPIES}, not {decks!r}")
    return tuple(
        Card.of(rank, suit, copy)
        for copy in range(decks)
        for suit in Suit
        for rank in Rank
        if rank >= low
    )


def parse_cards(text: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse several cards: a string of cards separated by spaces or commas, an iterable of
    card texts or cards, or a single card.

    >>> parse_cards("6h, 7h Ts")
    (Card('6h'), Card('7h'), Card('Ts'))

    Raises:
        InvalidCardError: naming the first text that is not a card.
    """
    items: Iterable[str | Card]
    if isinstance(text, Card):
        return (text,)
    if not isinstance(text, str | Iterable):
        raise InvalidCardError(f"not cards: {text!r} (expected text such as '6h 7h' or a list)")
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def _order(card: int) -> int:
    return ((card & 63) << 4) | (card >> 6)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order (R1.1): suit (clubs first), then rank, then copy. Hands in a game
    state are kept in this order.

    >>> sort_cards(parse_cards("Qh#2 6s Qh 7c"))
    (Card('7c'), Card('Qh'), Card('Qh#2'), Card('6s'))
    """
    return tuple(sorted(cards, key=_order))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as canonical text separated by spaces: the inverse of :func:`parse_cards`."""
    return " ".join(str(c) for c in cards)
