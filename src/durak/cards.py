"""Ranks, suits, cards and decks (rule book R1).

A :class:`Card` is a small immutable integer with a physical identity: in a game with several
decks (R1.2) the two queens of hearts are two distinct cards, ``Qh`` (the first copy) and
``Qh#2`` (the second copy). Cards are interned, hashable, picklable and cheap to compare, which
keeps the engine's hot path fast.

Text form (R1.3): rank ``2``-``9``, ``T`` (``10`` accepted), ``J Q K A``; suit ``c d h s``
(upper case and ``♣ ♦ ♥ ♠`` accepted). The canonical form is two characters (``Td``). Copies
have exactly one written form: the first copy has no suffix (``Td``), the ``k``-th copy
(``2 <= k <= MAX_COPIES``) appends ``#k`` in ASCII digits without leading zeros (``Td#2``).
Every other suffix (``Td#1``, ``Td#01``, ``Td#+2``, ``Td #2``, ``Td#٢``) is rejected with an
:class:`~durak.errors.InvalidCardError` that names the text and the canonical form.

>>> Card.parse("10h")
Card('Th')
>>> str(Card.of(Rank.QUEEN, Suit.SPADES, copy=1))
'Qs#2'
>>> [str(c) for c in build_deck(24)[:3]]
['9c', 'Tc', 'Jc']
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from enum import IntEnum
from functools import lru_cache

from durak._input import brief
from durak.errors import InvalidCardError
from durak.messages import message

__all__ = [
    "DECK_SIZES",
    "MAX_COPIES",
    "Card",
    "Rank",
    "Suit",
    "build_deck",
    "format_cards",
    "hand_order",
    "parse_cards",
    "sort_cards",
    "special_card",
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
    def parse(cls, text: str | Suit) -> Suit:
        """Parse ``c d h s`` (any case), ``♣ ♦ ♥ ♠`` or a suit name such as ``hearts``; a
        :class:`Suit` is returned as it is.

        Raises:
            InvalidCardError: the text names no suit, or is not text.
        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(message("card.suit-not-text", given=brief(text)))
        key = text.strip()
        suit = _SUIT_TEXT.get(key) or _SUIT_TEXT.get(key.lower())
        if suit is None:
            raise InvalidCardError(message("card.not-a-suit", given=brief(text)))
        return suit

    def __str__(self) -> str:
        return self.letter

    def message_text(self) -> str:
        """How a message's English shows the suit (:mod:`durak.messages`): its name."""
        return self.name.lower()


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
    def parse(cls, text: str | Rank) -> Rank:
        """Parse a rank: ``2``-``9``, ``T`` or ``10``, ``J Q K A`` (any case); a :class:`Rank`
        is returned as it is.

        Raises:
            InvalidCardError: the text names no rank, or is not text.
        """
        if isinstance(text, Rank):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(message("card.rank-not-text", given=brief(text)))
        rank = _RANK_TEXT.get(text.strip().upper())
        if rank is None:
            raise InvalidCardError(message("card.not-a-rank", given=brief(text)))
        return rank

    def __str__(self) -> str:
        return self.letter

    def message_text(self) -> str:
        """How a message's English shows the rank (:mod:`durak.messages`): its letter."""
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

    ``Card(value)`` takes a card's integer value, or its text form as the ``repr`` shows it:
    ``Card("7h")`` is ``Card.parse("7h")`` (so ``eval(repr(card)) == card``). Text is always
    read as a card's text, never as a number (``Card("10")`` is an error, not the card of value
    10).

    Raises:
        InvalidCardError: an integer that is no card's value, or text that is not a card.
        TypeError: a value that is neither an integer nor text (``None``, ``3.5``, ``True``,
            bytes).

    Attributes:
        rank: the card's :class:`Rank`.
        suit: the card's :class:`Suit`.
        copy: which copy (0 for the first deck, 1 for the second ...) in a multi-deck game.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if type(value) is not int:
            if type(value) is Card:
                return value
            if isinstance(value, str):
                return cls.parse(value)
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise TypeError(
                    "Card() takes a card's integer value or its text form (Card('7h')), "
                    f"not {brief(value)}"
                )
            value = operator.index(value)
        card = _CARDS[value] if 0 <= value < _N else None
        if card is None:
            raise InvalidCardError(message("card.not-a-value", given=brief(value)))
        return card

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int, copy: int = 0) -> Card:
        """The card of that rank, suit and copy (0-based).

        Raises:
            InvalidCardError: a rank outside 2-14, a suit outside 0-3, or a copy outside
                ``0 .. MAX_COPIES - 1``.
            TypeError: a rank, suit or copy that is not an integer.
        """
        for part in (rank, suit, copy):
            if type(part) is not int and (isinstance(part, bool) or not isinstance(part, int)):
                raise TypeError(
                    f"Card.of takes integers (a Rank, a Suit, a copy), not {brief(part)}"
                )
        if not 2 <= rank <= 14 or not 0 <= suit <= 3 or not 0 <= copy < MAX_COPIES:
            raise InvalidCardError(
                message(
                    "card.no-such-card",
                    given=f"rank={brief(rank)}, suit={brief(suit)}, copy={brief(copy)}",
                )
            )
        card = _CARDS[copy * 64 + suit * 16 + rank]
        assert card is not None
        return card

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse the text form (R1.3), e.g. ``Td``, ``10d``, ``T♦``, ``TD``, ``Qh#2``; a
        :class:`Card` is returned as it is.

        Raises:
            InvalidCardError: naming the text, if it is not a card (or not text); a copy
                suffix that is not canonical (``Qh#1``, ``Qh#02``) names the canonical form.
        """
        if type(text) is str:
            known = _BY_TEXT.get(text)
            if known is not None:
                return known
        elif isinstance(text, Card):
            return text
        elif not isinstance(text, str):
            raise InvalidCardError(message("card.not-text", given=brief(text)))
        raw = text.strip()
        if any(ch.isspace() or ch == "," for ch in raw):
            if "#" in raw:
                raise InvalidCardError(message("card.copy-apart", given=brief(text)))
            raise InvalidCardError(message("card.several", given=brief(text)))
        for ch in raw:
            if ch < " " or "\x7f" <= ch <= "\x9f":
                raise InvalidCardError(
                    message("card.control-character", given=brief(text), detail=brief(ch))
                )
        body, sep, copy_text = raw.partition("#")
        if len(body) < 2:
            raise InvalidCardError(message("card.too-short", given=brief(text)))
        try:
            rank = Rank.parse(body[:-1])
            suit = Suit.parse(body[-1])
        except InvalidCardError as exc:
            raise InvalidCardError(
                message("card.bad-part", given=brief(text), reason=exc.message)
            ) from None
        if not sep:
            return cls.of(rank, suit)
        return cls.of(rank, suit, _copy(text, rank, suit, copy_text))

    @property
    def rank(self) -> Rank:
        r = _RANK_OF[self]
        if r is None:
            raise InvalidCardError(message("card.no-rank", card=self))
        return r

    @property
    def suit(self) -> Suit:
        s = _SUIT_OF[self]
        if s is None:
            raise InvalidCardError(message("card.no-suit", card=self))
        return s

    @property
    def special(self) -> bool:
        """Whether this is a card outside the 52 (:func:`special_card`), with no rank or suit."""
        return _RANK_OF[self] is None

    @property
    def copy(self) -> int:
        return int(self) >> 6

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Display order (R1.1): suit, then rank, then copy."""
        return ((int(self) >> 4) & 3, int(self) & 15, int(self) >> 6)

    def message_text(self) -> str:
        """How a message's English shows the card (:mod:`durak.messages`): its text (R1.3)."""
        return str(self)

    def __str__(self) -> str:
        rank = _RANK_OF[self]
        suit = _SUIT_OF[self]
        text = (
            _SPECIAL_TEXT[self & 63] if rank is None or suit is None else rank.letter + suit.letter
        )
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
        if self.special:
            return str(self)
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        copy = int(self) >> 6
        text = rank + self.suit.symbol
        return text if copy == 0 else f"{text}#{copy + 1}"


def _copy(text: str, rank: Rank, suit: Suit, suffix: str) -> int:
    """The 0-based copy written ``#suffix`` after a card (R1.3): ``2`` to ``MAX_COPIES`` in ASCII
    digits without leading zeros.

    Raises:
        InvalidCardError: any other suffix, naming the text and the canonical form.
    """
    if suffix.isascii() and suffix.isdigit() and len(suffix) <= 4:
        k = int(suffix)
        if 2 <= k <= MAX_COPIES and suffix == str(k):
            return k - 1
        if k == 1:
            first = Card.of(rank, suit)
            raise InvalidCardError(message("card.first-copy", given=brief(text), text=str(first)))
        if 2 <= k <= MAX_COPIES:
            canonical = Card.of(rank, suit, k - 1)
            raise InvalidCardError(
                message("card.copy-zeros", given=brief(text), text=str(canonical))
            )
    second = Card.of(rank, suit, 1)
    raise InvalidCardError(
        message("card.copy-suffix", given=brief(text), high=MAX_COPIES, text=str(second))
    )


for _c in range(MAX_COPIES):
    for _suit in Suit:
        for _rank in Rank:
            _v = _c * 64 + _suit * 16 + _rank
            _RANK_OF[_v] = _rank
            _SUIT_OF[_v] = _suit
            _CARDS[_v] = int.__new__(Card, _v)

#: Every card by its canonical text, the fast path of :meth:`Card.parse`.
_BY_TEXT: dict[str, Card] = {str(c): c for c in _CARDS if c is not None}

# Cards outside the 52 take the integer slots no rank uses: rank 15, then rank 1, of each suit.
_SPECIAL_SLOTS = (15, 31, 47, 63, 1, 17, 33, 49)
_SPECIAL_TEXT: dict[int, str] = {}


def special_card(text: str, copy: int = 0) -> Card:
    """A card outside the 52 (a joker, say), for a rule module's
    :meth:`~durak.rules.modules.RuleModule.deck` hook: ``special_card("Jk")`` is the first
    copy, ``special_card("Jk", 1)`` (written ``Jk#2``) the second. The text is registered on
    first use, after which :meth:`Card.parse` reads it; at most 8 such texts exist.

    A special card's integer value is ``copy * 64 + slot`` with a slot that no rank uses, so
    ``card & 15`` is its own "rank" (15 or 1: it matches only cards of the same text on the
    table, R4.3) and it has no :attr:`Card.rank` or :attr:`Card.suit` (both raise). Which
    card it beats and is beaten by is for the modules' ``beats`` hook: by R4.7 alone, none.

    Raises:
        InvalidCardError: text that is an ordinary card, not two to four ASCII letters, or
            more than 8 texts; a copy outside ``0 .. MAX_COPIES - 1``.
        TypeError: ``text`` is not text or ``copy`` not an integer.
    """
    if not isinstance(text, str):
        raise TypeError(f"a special card's text is text, not {brief(text)}")
    if isinstance(copy, bool) or not isinstance(copy, int):
        raise TypeError(f"a copy is an integer, not {brief(copy)}")
    if not 0 <= copy < MAX_COPIES:
        raise InvalidCardError(
            f"no copy {brief(copy)} of {brief(text)} (copies 0-{MAX_COPIES - 1})"
        )
    slot = next((v for v, t in _SPECIAL_TEXT.items() if t == text), None)
    if slot is None:
        if not (text.isascii() and text.isalpha() and 2 <= len(text) <= 4):
            raise InvalidCardError(
                f"a special card is written in 2-4 ASCII letters, not {brief(text)}"
            )
        if text in _BY_TEXT or text.lower() in {t.lower() for t in _BY_TEXT}:
            raise InvalidCardError(f"{brief(text)} is the text of an ordinary card")
        free = [v for v in _SPECIAL_SLOTS if v not in _SPECIAL_TEXT]
        if not free:
            raise InvalidCardError("no room for another kind of special card (at most 8)")
        slot = free[0]
        _SPECIAL_TEXT[slot] = text
        for k in range(MAX_COPIES):
            card = int.__new__(Card, k * 64 + slot)
            _CARDS[k * 64 + slot] = card
            _BY_TEXT[str(card)] = card
    found = _CARDS[copy * 64 + slot]
    assert found is not None
    return found


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
        raise InvalidCardError(message("card.no-deck", given=brief(deck_size), known=sizes))
    if not 1 <= decks <= MAX_COPIES:
        raise InvalidCardError(message("card.decks", given=brief(decks), low=1, high=MAX_COPIES))
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
    if isinstance(text, bytes | bytearray) or not isinstance(text, str | Iterable):
        raise InvalidCardError(message("card.not-cards", given=brief(text)))
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def _order(card: int) -> int:
    return ((card & 63) << 4) | (card >> 6)


#: Every card value's display position (:func:`_order`), read as a sort key without a call of
#: a Python function per card.
_ORDERS = tuple(_order(value) for value in range(64 * MAX_COPIES))


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order (R1.1): suit (clubs first), then rank, then copy. Hands in a game
    state are kept in this order.

    >>> sort_cards(parse_cards("Qh#2 6s Qh 7c"))
    (Card('7c'), Card('Qh'), Card('Qh#2'), Card('6s'))
    """
    cards = tuple(cards)
    if not cards or max(cards) < 64:  # one copy of each: display order is the cards' order
        return tuple(sorted(cards))
    return tuple(sorted(cards, key=_ORDERS.__getitem__))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as canonical text separated by spaces: the inverse of :func:`parse_cards`. A card
    given as text is parsed and written in its canonical form.

    Raises:
        InvalidCardError: an item is not a card (named briefly, so deep junk is no trouble).
        TypeError: ``cards`` is not iterable.
    """
    return " ".join(str(c if type(c) is Card else Card.parse(c)) for c in cards)


def hand_order(cards: Iterable[Card], trump: Suit | None) -> tuple[Card, ...]:
    """Cards in the order the terminal game shows a hand: by suit (clubs, diamonds, hearts,
    spades) with the trump suit last, then by rank and copy; jokers (R15.1) at the very end.

    >>> hand_order(parse_cards("6s 9h As 7c Jk"), Suit.HEARTS)
    (Card('7c'), Card('6s'), Card('As'), Card('9h'), Card('Jk'))
    """

    def key(c: Card) -> tuple[int, int, int, int, int]:
        if c.special:
            return (2, 0, 0, c.copy, int(c))
        return (int(c.suit == trump), int(c.suit), int(c.rank), c.copy, int(c))

    return tuple(sorted(cards, key=key))
