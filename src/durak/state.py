"""The game state (R13): a frozen, hashable, picklable value.

A :class:`GameState` holds everything, including the hidden stock order; only views hide it.
Build one with :func:`durak.new_game` or :func:`durak.new_position`, and change it only through
:func:`durak.apply`, which returns a new state.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from durak.cards import Card, Suit
from durak.errors import PositionError, check_seat
from durak.messages import message

if TYPE_CHECKING:
    from durak.rules.settings import Rules

__all__ = ["Extra", "GameState", "Result", "use_one_actor"]

#: One table pair: the attack card and the card that beat it (``None`` while unbeaten).
Pair = tuple[Card, Card | None]

#: A value rule modules keep in :attr:`GameState.extra` and :attr:`Result.extra`: frozen and
#: JSON-able.
Extra = int | str | bool | float | None | tuple["Extra", ...]


@attrs.frozen
class Result:
    """The result of a finished game (R7.4).

    Attributes:
        durak: the seat of the durak, or ``None`` (a draw, or ``objective = first_out``).
        draw: whether the game ended in a draw (R7.3).
        places: the finishing place of every seat, 1 best (R7.2); the durak has the last place;
            with ``objective = first_out`` the winners share place 1 and all others share the
            next place (1 + the number of winners), or with teams the last place.
        winners: seats that won, in seat order.
        losers: seats that lost, in seat order (the durak alone, or with ``first_out`` every player
            not out; empty in a draw). With teams a player's result is his team's (R10.3): the
            losers are the whole losing team, and the durak is named only if one member of it
            is left.
        extra: facts rule modules add (:meth:`~durak.rules.modules.RuleModule.result`): pairs
            ``(name, value)`` sorted by name, values made of numbers, text, booleans, ``None``
            and tuples of them (a score, a mark on the durak).
    """

    durak: int | None
    draw: bool
    places: tuple[int, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    extra: tuple[tuple[str, Extra], ...] = ()

    def fact(self, name: str, default: Extra = None) -> Extra:
        """The value of the rule modules' fact ``name`` in :attr:`extra`, or ``default``."""
        return dict(self.extra).get(name, default)

    def __reduce__(self) -> tuple[type[Result], tuple[Any, ...]]:
        return Result, _RESULT_VALUES(self)


@attrs.frozen(weakref_slot=False)
class GameState:
    """A position of a game: the whole truth, hidden cards included.

    Attributes:
        rules: the :class:`~durak.rules.Rules` in force.
        hands: each seat's hand in display order (suit, rank, copy; R1.1); ``hands[i]`` is
            seat ``i``'s.
        stock: the stock, top card first; while it lasts its last card is the face-up trump card
            (R2.4, R5.2), unless it holds only jokers (R15.1, :attr:`face_up`).
        trump: the trump suit (R2.4).
        trump_card: the card that fixed trump: the face-up card under the stock, or the dealer's
            shown card in a full deal (R2.4), or the last dealt card that is not a joker when
            the stock holds jokers only (R15.1); ``None`` in a set-up position that names only
            a suit.
        table: the bout's pairs in the order played: ``(attack, beating card or None)``.
        discard: the discard pile, oldest first (its cards are public, R4.10).
        dealer: the dealer's seat (R2.3).
        attacker: the main attacker: the player who leads the bout, or who last transferred (R9.1).
        defender: the defender of the bout (R4.1); while no card is led, the player who will be.
        leader: the player who led the bout (R5.1).
        joined: the players who put attack cards on the table in this bout, in the order they
            first did (R5.1).
        defender_hand: ``H`` of R4.6: the defender's hand size when he became the defender.
        taken: whether the defender has declared take (R4.8).
        passed: the players whose pass stands (R4.9).
        shown: trumps shown for a transfer in this bout (R9.5).
        bouts: number of bouts finished.
        defences: number of successful defences so far (R4.6 ``until_first_discard``).
        places: each seat's finishing place once he is out or has left, else ``None`` (R7.2);
            once the game is over, every seat's place, equal to ``result.places``.
        result: the :class:`Result` once the game is over, else ``None``.
        exchange: lowest trumps whose holders may still swap them for the face-up trump card:
            dealt or drawn to them and held ever since (R12.1).
        seed: the deal's seed, or ``None`` for an explicit deck or a set-up position (R2.5).
        shuffles: how many shuffles of the seed's stream this deal used (R3.3, R12.2 redeals).
        appointed: the first attacker named by a match instead of R3 (R11.2), kept for a
            redeal; ``None`` when R3 chose.
        known: per seat, the cards in his hand that every player knows he holds: a trump shown
            under R2.4, R3.1 or R9.5, the face-up trump card once drawn (R5.2) or exchanged
            (R12.1), and cards he picked up in a take and has not played since.
        left: the seats that left the game holding cards when a partner went out under
            ``team_win = first_out`` (R10.3): placed with him, but not out.
        extra: rule modules' own data, pairs ``(name, value)`` sorted by name (values as in
            :attr:`Result.extra`); set through an effect's ``{"extra": ...}`` change, read with
            :meth:`fact`.
    """

    rules: Rules
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump: Suit
    trump_card: Card | None
    table: tuple[Pair, ...]
    discard: tuple[Card, ...]
    dealer: int
    attacker: int
    defender: int
    leader: int
    joined: tuple[int, ...]
    defender_hand: int
    taken: bool
    passed: frozenset[int]
    shown: frozenset[Card]
    bouts: int
    defences: int
    places: tuple[int | None, ...]
    result: Result | None
    exchange: frozenset[Card] = frozenset()
    seed: int | str | None = None
    shuffles: int = 0
    appointed: int | None = None
    known: tuple[frozenset[Card], ...] = ()
    left: frozenset[int] = frozenset()
    extra: tuple[tuple[str, Extra], ...] = ()

    def __reduce__(self) -> tuple[type[GameState], tuple[Any, ...]]:
        # The field values in order, without their names: about half the bytes of attrs'
        # name-value pickle, which matters to searches and pools that ship many states.
        return GameState, _VALUES(self)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R7.3)."""
        return self.result is not None

    def outcome(self) -> Result:
        """The result of the finished game (R7.3): :attr:`result` typed as there.

        Raises:
            PositionError: the game is still running (code ``game.running``).
        """
        result = self.result
        if result is None:
            raise PositionError(message("game.running"))
        return result

    def actor(self) -> int:
        """The seat to ask now, :func:`durak.next_actor` (R13.2) typed as a seat.

        Raises:
            PositionError: the game is over (code ``game.finished``).
            RulesError: as :func:`durak.next_actor`.
        """
        seat = _ONE_ACTOR[0](self)
        if seat is None:
            raise PositionError(message("game.finished"))
        return seat

    @property
    def unbeaten(self) -> tuple[Card, ...]:
        """The attack cards on the table that are not yet beaten, in the order played."""
        return tuple(a for a, b in self.table if b is None)

    @property
    def attack_cards(self) -> tuple[Card, ...]:
        """All attack cards of the bout, beaten or not."""
        return tuple(a for a, _ in self.table)

    def fact(self, name: str, default: Extra = None) -> Extra:
        """The value of the rule modules' datum ``name`` in :attr:`extra`, or ``default``."""
        # A few pairs at most: no mapping is built. From the end, so that a name given twice
        # reads as a mapping would read it (the last value).
        for key, value in reversed(self.extra):
            if key == name:
                return value
        return default

    def with_fact(self, name: str, value: Extra) -> tuple[tuple[str, Extra], ...]:
        """:attr:`extra` with ``name`` set to ``value``: what an effect returns as its
        ``"extra"`` change."""
        return tuple(sorted({**dict(self.extra), name: value}.items()))

    @property
    def face_up(self) -> Card | None:
        """The face-up trump card under the stock (R2.4), or ``None``: once it is drawn (R5.2),
        after a full deal, and when the stock holds only cards that cannot show trump (R15.1:
        jokers; the trump card is then a dealt card, known in its holder's hand)."""
        stock = self.stock
        if stock and stock[-1] == self.trump_card:
            return self.trump_card
        return None

    @property
    def out(self) -> frozenset[int]:
        """The seats that went out (R7.1): their hands emptied with the stock empty and a bout
        end recorded it. Not the seats that left with a partner (:attr:`left`), not players
        who still hold cards when the game ends, and not a durak named by
        ``on_last_cleared = defender_loses`` (R7.3)."""
        durak = self.result.durak if self.result is not None else None
        return frozenset(
            p
            for p, place in enumerate(self.places)
            if place is not None and p not in self.left and not self.hands[p] and p != durak
        )

    def is_active(self, seat: int) -> bool:
        """Whether ``seat`` is still playing: not out, and not finished (an empty hand with an
        empty stock, R7.1).

        Raises:
            SeatError: ``seat`` is not a seat of the game (also an :class:`IndexError`).
        """
        try:
            return self.places[seat] is None and (bool(self.hands[seat]) or bool(self.stock))
        except IndexError:
            check_seat(seat, len(self.places))
            raise

    def __str__(self) -> str:
        """The position's text form, hidden cards included (a view never shows them): the
        fields of :func:`durak.notation.format_position` (which reads back between bouts with
        :func:`durak.notation.parse_position`), and during a bout the defender and the table
        (``table: 7h:9h 8h``, attack and beating card), and once the game is over its result::

            hands: 6h 7h 8c / 9s Ts / -; stock: Kc Ac 9d; trump: d; attacker: 0; discard: Qc Jd
        """
        hands = " / ".join(_cards(h) or "-" for h in self.hands)
        fields = [f"hands: {hands}", f"stock: {_cards(self.stock)}"]
        fields += [f"trump: {self.trump.letter}", f"attacker: {self.attacker}"]
        fields += _bout_fields(self.defender, self.table, self.taken)
        fields.append(f"discard: {_cards(self.discard)}")
        if self.bouts == 0 and not self.table:
            fields.append("first_bout: yes")
        if self.result is not None:
            fields.append(_result_text(self.result))
        return "; ".join(fields)

    def all_cards(self) -> tuple[Card, ...]:
        """Every card in the game, wherever it is: hands, stock, table and discard pile (R13.4)."""
        table = tuple(c for pair in self.table for c in pair if c is not None)
        return sum(self.hands, ()) + self.stock + table + self.discard


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _bout_fields(defender: int, table: Sequence[Pair], taken: bool) -> list[str]:
    """The text fields of a bout in play: the defender, the table (``7h:9h 8h``), a take."""
    if not table:
        return []
    pairs = " ".join(f"{a}:{b}" if b is not None else str(a) for a, b in table)
    return [f"defender: {defender}", f"table: {pairs}"] + (["taken: yes"] if taken else [])


def _result_text(result: Result) -> str:
    """The result as a text field: ``result: durak 1, places 1 2``, or ``result: draw ...``."""
    who = "draw" if result.draw else "no durak" if result.durak is None else f"durak {result.durak}"
    return f"result: {who}, places {' '.join(str(p) for p in result.places)}"


#: The one-actor rule (R13.2), :func:`durak.next_actor`, which :mod:`durak.engine` gives when
#: it is imported (:func:`use_one_actor`): the state sits below the engine, so it asks the
#: engine through this hook instead of importing it.
_ONE_ACTOR: list[Callable[[GameState], int | None]] = []


def use_one_actor(next_actor: Callable[[GameState], int | None]) -> None:
    """Give :meth:`GameState.actor` the engine's one-actor rule (R13.2); the engine does."""
    _ONE_ACTOR[:] = [next_actor]


_NAMES = tuple(f.name for f in attrs.fields(GameState))
_VALUES = operator.attrgetter(*_NAMES)
_RESULT_VALUES = operator.attrgetter(*(f.name for f in attrs.fields(Result)))


class _Blank:
    """:class:`GameState`'s slots without its frozen ``__setattr__``: the engine builds each
    next state by filling one and turning it into a :class:`GameState` (``__class__``
    assignment, which Python allows between classes with the same slots). attrs'
    ``__init__`` of a frozen class sets each of the 27 fields through a call of
    ``object.__setattr__``; plain slot stores cost about a tenth. The state has no validators
    or converters, so the result is the value the constructor would give."""

    __slots__ = _NAMES


#: The builders of :func:`evolve`, one per set of changed fields (in the order the changes
#: name them); the engine's effects use a few dozen sets.
_BUILDERS: dict[tuple[str, ...], Callable[[GameState, Mapping[str, Any]], GameState]] = {}


def _fields_only(names: Sequence[str]) -> None:
    unknown = [name for name in names if name not in _NAMES]
    if unknown:
        raise TypeError(f"{unknown[0]!r} is not a field of a game state")


def _generated(
    names: Sequence[str], params: str, source: Callable[[str], str], fixed: Mapping[str, Any]
) -> Callable[..., GameState]:
    """A function ``build(s, <params>)`` that fills a new state's slots one store per field,
    written out (as attrs writes its __init__): field ``name`` from ``source(name)``, an
    expression of the parameters and ``fixed``, or from ``s`` when ``source`` gives nothing.

    Raises:
        TypeError: one of ``names`` is not a field of :class:`GameState`.
    """
    _fields_only(names)
    lines = [f"def build(s, {params}):", "    o = _Blank()"]
    lines += [f"    o.{name} = {source(name) or 's.' + name}" for name in _NAMES]
    lines += ["    o.__class__ = GameState", "    return o"]
    namespace: dict[str, Any] = {"_Blank": _Blank, "GameState": GameState, "fixed": dict(fixed)}
    exec("\n".join(lines), namespace)  # the source is made of the field names alone
    build: Callable[..., GameState] = namespace["build"]
    return build


def _builder(names: tuple[str, ...]) -> Callable[[GameState, Mapping[str, Any]], GameState]:
    # evolve's builder for these changed fields: each from the changes, the rest kept.
    build = _generated(names, "c", lambda name: f"c[{name!r}]" if name in names else "", {})
    if len(_BUILDERS) < 4096:
        _BUILDERS[names] = build
    return build


def evolve(state: GameState, changes: Mapping[str, Any]) -> GameState:
    """A copy of ``state`` with the fields named in ``changes`` replaced: what
    ``attrs.evolve(state, **changes)`` gives, at a fraction of its cost (the engine builds
    every next state with it). The copy is a :class:`GameState`, also for a subclass's
    instance (whose own attributes it does not know).

    Raises:
        TypeError: a key of ``changes`` is not a field of :class:`GameState`.
    """
    names = tuple(changes)
    build = _BUILDERS.get(names)
    if build is None:
        build = _builder(names)
    return build(state, changes)


def setter(names: tuple[str, ...], fixed: Mapping[str, Any]) -> Callable[..., GameState]:
    """A function ``build(state, *values)``: a copy of ``state`` with the fields ``names`` set
    to ``values`` in that order and the fields of ``fixed`` to its values, like
    :func:`evolve` without a mapping to build (the engine's bout end uses one).

    Raises:
        TypeError: a name is not a field of :class:`GameState`, or is both given and fixed.
    """
    fields = (*names, *fixed)
    _fields_only(fields)
    if len(set(fields)) != len(fields):
        raise TypeError("a field is set twice")

    def source(name: str) -> str:
        if name in names:
            return f"v{names.index(name)}"
        return f"fixed[{name!r}]" if name in fixed else ""

    params = ", ".join(f"v{i}" for i in range(len(names)))
    return _generated(fields, params, source, fixed)
