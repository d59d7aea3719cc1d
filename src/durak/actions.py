"""Actions (R4, R9, R13.1): frozen values that each name the player who takes them.

- ``Lead`` (R4.2): the attacker opens a bout with one card, or several of one rank under
  ``lead = same_rank``.
- ``ThrowIn`` (R4.3): a thrower adds a card of a rank already on the table.
- ``Beat`` (R4.7): the defender beats one unbeaten attack card.
- ``Take`` (R4.8): the defender gives up and will pick up the table.
- ``Pass`` (R4.9): a thrower is done ("bito") until the table changes.
- ``Transfer`` (R9.1): the defender adds card(s) of the attack rank and passes the attack on.
- ``ShowTrump`` (R9.5): the defender shows a trump of the attack rank and passes the attack on.
- ``ExchangeTrump`` (R12.1): the holder of the deck's lowest trump swaps it for the face-up
  trump card.
- ``Redeal`` (R12.2): a player dealt a misdeal demands a new deal before the first lead.

Cards may be given as :class:`~durak.cards.Card` or as text (``Beat(1, "7h", "9h")``). Every
action has ``cards``: the cards of the player's hand it uses (empty for ``Take``, ``Pass`` and
``Redeal``; a beat's beating card; a lead's or transfer's cards).
``str(action)`` gives the action's text form, e.g. ``p1 beat 7h 9h``; ``action.describe()`` an
English phrase that is also data (a :class:`~durak.messages.Message`, code ``action.beat``,
parameters ``attack`` and ``card``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar, cast

import attrs

from durak._input import brief
from durak.cards import Card, parse_cards
from durak.errors import InvalidError
from durak.messages import Message, message

__all__ = [
    "ACTION_KINDS",
    "Action",
    "Beat",
    "ExchangeTrump",
    "Lead",
    "Pass",
    "Redeal",
    "ShowTrump",
    "Take",
    "ThrowIn",
    "Transfer",
    "build_action",
    "is_action",
    "register_action",
]

T = TypeVar("T")

#: Seats are below this bound (``2**31``); a larger seat number is refused when an action is made,
#: so that no action holds an integer too long to write as text.
_SEAT_BOUND = 2**31


def _card(value: Card | str) -> Card:
    return value if type(value) is Card else Card.parse(value)


def _cards(value: Iterable[Card | str] | Card | str) -> tuple[Card, ...]:
    """Cards of a lead or transfer, in card order: the order they are listed in does not
    matter, so equal sets of cards give equal actions (a card listed twice stays twice)."""
    if type(value) is tuple and all(type(c) is Card for c in value):
        cards: tuple[Card, ...] = value
    else:
        cards = parse_cards(value)
    if not cards:
        raise InvalidError(message("input.no-cards"))
    return cards if len(cards) == 1 else tuple(sorted(cards))


def _player(_inst: object, _attr: object, value: int) -> None:
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidError(message("input.not-a-seat", given=brief(value)))
    if not 0 <= value < _SEAT_BOUND:
        raise InvalidError(message("input.seat-too-big", given=brief(value)))


@attrs.frozen
class Lead:
    """Open a bout with ``cards`` (R4.2)."""

    player: int = attrs.field(validator=_player)
    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    kind: ClassVar[str] = "lead"

    def describe(self) -> Message:
        return message("action.lead", cards=self.cards, n=len(self.cards))

    def __str__(self) -> str:
        return f"p{self.player} {self.describe()}"


@attrs.frozen
class ThrowIn:
    """Add ``card`` to the attack (R4.3)."""

    player: int = attrs.field(validator=_player)
    card: Card = attrs.field(converter=_card)
    kind: ClassVar[str] = "throw"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: ``(card,)``."""
        return (self.card,)

    def describe(self) -> Message:
        return message("action.throw", card=self.card)

    def __str__(self) -> str:
        return f"p{self.player} throw {self.card}"


@attrs.frozen
class Beat:
    """Beat the unbeaten attack card ``attack`` with ``card`` (R4.7)."""

    player: int = attrs.field(validator=_player)
    attack: Card = attrs.field(converter=_card)
    card: Card = attrs.field(converter=_card)
    kind: ClassVar[str] = "beat"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: ``(card,)``, the beating card (``attack`` is
        on the table)."""
        return (self.card,)

    def describe(self) -> Message:
        return message("action.beat", attack=self.attack, card=self.card)

    def __str__(self) -> str:
        return f"p{self.player} beat {self.attack} {self.card}"


@attrs.frozen
class Take:
    """Give up the defence and pick up the table when the throwers are done (R4.8)."""

    player: int = attrs.field(validator=_player)
    kind: ClassVar[str] = "take"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: none."""
        return ()

    def describe(self) -> Message:
        return message("action.take")

    def __str__(self) -> str:
        return f"p{self.player} take"


@attrs.frozen
class Pass:
    """Add nothing more until the table changes ("done", R4.9)."""

    player: int = attrs.field(validator=_player)
    kind: ClassVar[str] = "pass"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: none."""
        return ()

    def describe(self) -> Message:
        return message("action.pass")

    def __str__(self) -> str:
        return f"p{self.player} pass"


@attrs.frozen
class Transfer:
    """Add ``cards`` of the attack rank and pass the attack to the next player (R9.1, R9.4)."""

    player: int = attrs.field(validator=_player)
    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    kind: ClassVar[str] = "transfer"

    def describe(self) -> Message:
        return message("action.transfer", cards=self.cards, n=len(self.cards))

    def __str__(self) -> str:
        return f"p{self.player} transfer {' '.join(map(str, self.cards))}"


@attrs.frozen
class ShowTrump:
    """Show the trump ``card`` of the attack rank and pass the attack on (R9.5)."""

    player: int = attrs.field(validator=_player)
    card: Card = attrs.field(converter=_card)
    kind: ClassVar[str] = "show"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: ``(card,)``, the shown trump (it stays in
        the hand)."""
        return (self.card,)

    def describe(self) -> Message:
        return message("action.show", card=self.card)

    def __str__(self) -> str:
        return f"p{self.player} show {self.card}"


@attrs.frozen
class ExchangeTrump:
    """Swap the deck's lowest trump ``card`` for the face-up trump card (R12.1)."""

    player: int = attrs.field(validator=_player)
    card: Card = attrs.field(converter=_card)
    kind: ClassVar[str] = "exchange"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: ``(card,)``."""
        return (self.card,)

    def describe(self) -> Message:
        return message("action.exchange", card=self.card)

    def __str__(self) -> str:
        return f"p{self.player} exchange {self.card}"


@attrs.frozen
class Redeal:
    """Demand a redeal for a misdeal before the first lead (R12.2)."""

    player: int = attrs.field(validator=_player)
    kind: ClassVar[str] = "redeal"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the player's hand it uses: none."""
        return ()

    def describe(self) -> Message:
        return message("action.redeal")

    def __str__(self) -> str:
        return f"p{self.player} redeal"


#: Any action of the rule book's kinds.
Action = Lead | ThrowIn | Beat | Take | Pass | Transfer | ShowTrump | ExchangeTrump | Redeal

#: Every action kind by its verb (``kind``): the rule book's, and those rule modules add with
#: :func:`register_action`.
ACTION_KINDS: dict[str, type] = {
    cls.kind: cls
    for cls in (Lead, ThrowIn, Beat, Take, Pass, Transfer, ShowTrump, ExchangeTrump, Redeal)
}
_KIND_TYPES: set[type] = set(ACTION_KINDS.values())


def register_action(cls: type[T]) -> type[T]:
    """Make the action class ``cls`` known everywhere actions are read and written: notation,
    records, views and the engine's type checks. Usable as a class decorator.

    An action class is a frozen attrs class whose first field is ``player`` (a seat), with a
    class attribute ``kind`` (its verb in the notation, lower-case letters), ``describe()``
    (an English phrase, "take") and ``__str__`` (``p0 <verb> <cards>``). Its other fields are
    cards (:class:`~durak.cards.Card`, or a tuple of them for ``cards``): the notation lists
    them in field order, so ``ActionClass(player, *cards)`` must build it back.

    Raises:
        InvalidError: ``cls`` has no ``kind`` or its verb is taken by another class.
    """
    kind = getattr(cls, "kind", None)
    if not isinstance(kind, str) or not kind.isascii() or not kind.isalpha():
        raise InvalidError(f"{cls.__name__} needs a class attribute kind, a lower-case verb")
    known = ACTION_KINDS.get(kind)
    if known is not None and known is not cls:
        raise InvalidError(f"the action verb {kind!r} is taken by {known.__name__}")
    if not attrs.has(cast(Any, cls)) or attrs.fields(cast(Any, cls))[0].name != "player":
        raise InvalidError(f"{cls.__name__} must be an attrs class whose first field is player")
    ACTION_KINDS[kind] = cls
    _KIND_TYPES.add(cls)
    return cls


def build_action(verb: str, player: int, cards: tuple[Card, ...]) -> Action:
    """The action of kind ``verb`` (:data:`ACTION_KINDS`) by ``player`` with ``cards`` listed
    in its notation's order (one per card field, or one or more for a ``cards`` field):
    what the text form ``p<player> <verb> <cards>`` names.

    Raises:
        InvalidError: an unknown verb, the wrong number of cards, or values the action's own
            checks refuse (a bad seat, a card played against itself).
    """
    cls = ACTION_KINDS.get(verb)
    if cls is None:
        raise InvalidError(f"unknown verb {brief(verb)}; known: {', '.join(ACTION_KINDS)}")
    names = [f.name for f in attrs.fields(cast(Any, cls))[1:]]
    variadic = names == ["cards"]
    if (variadic and not cards) or (not variadic and len(cards) != len(names)):
        need = "one or more cards" if variadic else f"{len(names)} card(s)"
        raise InvalidError(f"'{verb}' takes {need}")
    try:
        action: Action = cls(player, cards) if variadic else cls(player, *cards)
    except (InvalidError, TypeError) as exc:
        raise InvalidError(str(exc)) from None
    return action


def is_action(value: object) -> bool:
    """Whether ``value`` is an action of a known kind (the rule book's or a registered one)."""
    return type(value) in _KIND_TYPES
