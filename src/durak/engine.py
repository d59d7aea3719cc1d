"""The engine (R2-R12, R13): start a game, list legal actions, apply one.

The functions are pure: states are values and nothing here changes one. Two small caches (the
derived facts of the last state asked about, and per-rules tables) are read into locals before
use, so calling the engine from several threads is safe.

One legality source: :func:`legal_actions`, :func:`is_legal`, :func:`check` and the check inside
:func:`apply` all go through the same per-action rule checks (:func:`check` returns the first
rule an action breaks, :func:`legal_actions` keeps the candidates it passes).

>>> from durak import Rules, new_game, legal_actions, apply, next_actor
>>> state = new_game(Rules(players=2), seed=7)
>>> actor = next_actor(state)
>>> action = legal_actions(state, actor)[0]
>>> state = apply(state, action)
>>> len(state.table)
1
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from durak.actions import (
    Action,
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import DECK_SIZES, Card, Suit, build_deck, parse_cards, sort_cards
from durak.errors import IllegalActionError, PositionError, RulesError, SeatError
from durak.events import (
    Beaten,
    BoutEnded,
    Drew,
    Event,
    GameOver,
    Led,
    NewBout,
    Passed,
    PlayerLeft,
    PlayerOut,
    Redealt,
    TakeDeclared,
    ThrownIn,
    Transferred,
    TrumpExchanged,
)
from durak.rules.beating import base_beats, beat_table
from durak.rules.drawing import draw_order
from durak.rules.modules import active_modules, checking_modules
from durak.rules.objective import settle
from durak.rules.seating import next_active, next_opponent
from durak.rules.settings import Lead as LeadSetting
from durak.rules.settings import NoTrumpLead, Rules, ThrowOrder
from durak.rules.throwing import attack_cap, throwers
from durak.state import GameState, Pair

__all__ = [
    "acting",
    "apply",
    "apply_with_events",
    "attack_limit",
    "check",
    "is_legal",
    "legal_actions",
    "new_game",
    "new_position",
    "next_actor",
    "shuffled_deck",
    "validate_state",
]

_EMPTY: frozenset[int] = frozenset()
_NO_CARDS: frozenset[Card] = frozenset()


# --------------------------------------------------------------------------------------------
# Set-up (R2, R3)
# --------------------------------------------------------------------------------------------


class _Stream:
    """The frozen shuffle stream of R2.5: SHA-256 of ``"durak-shuffle-v1:<seed>:<counter>"``,
    read as big-endian 64-bit numbers."""

    def __init__(self, seed: int | str) -> None:
        self._prefix = f"durak-shuffle-v1:{seed}:".encode()
        self._counter = 0
        self._buffer: list[int] = []

    def _next64(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def shuffle(self, cards: list[Card]) -> None:
        """Fisher-Yates, from the last position down."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def _check_seed(seed: object) -> int | str:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RulesError("seed", f"must be an integer or a string, not {seed!r}")
    return seed


def shuffled_deck(rules: Rules, seed: int | str) -> tuple[Card, ...]:
    """The deck order (top card first) that ``seed`` gives under ``rules`` (R2.5).

    The algorithm is frozen: the canonical deck (:func:`~durak.cards.build_deck`) is shuffled by
    Fisher-Yates (from the last position down) with numbers drawn from SHA-256 of
    ``"durak-shuffle-v1:<seed>:<counter>"`` (counter 0, 1, 2 ...; each digest read as four
    big-endian 64-bit numbers; rejection sampling for uniform choices). The same seed gives the
    same order in every release.

    Raises:
        RulesError: a seed that is neither an integer nor a string.
    """
    cards = list(build_deck(rules.deck_size, rules.decks))
    _Stream(_check_seed(seed)).shuffle(cards)
    return tuple(cards)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return sort_cards(cards)


def _deal(
    rules: Rules, order: Sequence[Card], dealer: int
) -> tuple[list[list[Card]], tuple[Card, ...], Card]:
    """Deal per R2.3 and fix trump per R2.4.

    Returns hands, the stock (top first, trump card last) and the trump card."""
    n, size = rules.players, rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(size):
        for step in range(1, n + 1):
            hands[(dealer + step) % n].append(order[pos])
            pos += 1
    rest = tuple(order[pos:])
    if rest:
        trump_card = rest[0]
        stock = (*rest[1:], trump_card)
    else:
        trump_card = order[pos - 1]  # the dealer's last dealt card (R2.4)
        stock = ()
    return hands, stock, trump_card


def _lowest_trump_holder(hands: Sequence[Sequence[Card]], trump: Suit, dealer: int) -> int | None:
    """R3.1/R3.2: the holder of the lowest trump; ties go to the first clockwise from the
    dealer's left neighbour."""
    n = len(hands)
    best: tuple[int, int] | None = None
    for step in range(1, n + 1):
        seat = (dealer + step) % n
        ranks = [c & 15 for c in hands[seat] if (c >> 4) & 3 == trump]
        if ranks and (best is None or min(ranks) < best[0]):
            best = (min(ranks), seat)
    return None if best is None else best[1]


def new_game(
    rules: Rules | None = None,
    *,
    seed: int | str | None = None,
    deck: Sequence[Card | str] | str | None = None,
    dealer: int | None = None,
    attacker: int | None = None,
) -> GameState:
    """Deal a new game (R2) and pick the first attacker (R3).

    Args:
        rules: the settings; the Podkidnoy defaults if omitted.
        seed: shuffle the deck with the frozen algorithm of :func:`shuffled_deck` (R2.5).
        deck: instead of a seed, the explicit deck order, top card first: every card of the
            deck(s) exactly once (cards or text, or one string of cards).
        dealer: the dealer's seat (R2.3); seat ``players - 1`` if omitted.
        attacker: who leads the first bout, for a match's later games (R3.4, R11.2); R3 picks
            him if omitted.

    With neither ``seed`` nor ``deck`` a random seed is used.

    Returns:
        The state before the first lead: the attacker holds the lowest trump (R3.1), or
            follows ``no_trump_lead`` (R3.3).

    Raises:
        TypeError: ``rules`` is not a :class:`Rules` object.
        RulesError: both ``seed`` and ``deck`` given; a bad seed or dealer;
            ``no_trump_lead = redeal`` with an explicit deck when no player holds a trump (R3.3).
        PositionError: a deck that is not exactly the rules' cards, naming the card.
    """
    rules = rules if rules is not None else Rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
    n = rules.players
    if dealer is None:
        dealer = n - 1
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RulesError("dealer", f"must be a seat 0-{n - 1}, not {dealer!r}")
    if attacker is not None and (
        isinstance(attacker, bool) or not isinstance(attacker, int) or not 0 <= attacker < n
    ):
        raise RulesError("attacker", f"must be a seat 0-{n - 1}, not {attacker!r}")
    if seed is not None and deck is not None:
        raise RulesError("seed", "give a seed or a deck order, not both (R2.5)")
    if deck is not None:
        order = list(parse_cards(deck))
        _check_cards(rules, order, "deck")
        return _deal_state(rules, dealer, order, None, 0, attacker)
    key = _check_seed(seed) if seed is not None else secrets.randbelow(1 << 63)
    return _deal_state(rules, dealer, None, key, 0, attacker)


def _deal_state(
    rules: Rules,
    dealer: int,
    order: list[Card] | None,
    seed: int | str | None,
    prior: int,
    leader: int | None = None,
) -> GameState:
    """Deal from the explicit ``order``, or from the seed's stream after ``prior`` earlier
    shuffles of it (R2.5; a redeal continues the stream, R3.3, R12.2). ``leader`` overrides R3
    (R11.2)."""
    n = rules.players
    stream: _Stream | None = None
    shuffles = 0
    if order is None:
        assert seed is not None
        stream = _Stream(seed)
        order = list(build_deck(rules.deck_size, rules.decks))
        for _ in range(prior + 1):
            stream.shuffle(order)
        shuffles = prior + 1
    while True:
        hands, stock, trump_card = _deal(rules, order, dealer)
        trump = trump_card.suit
        attacker = _lowest_trump_holder(hands, trump, dealer) if leader is None else leader
        if attacker is not None:
            break
        if rules.no_trump_lead is NoTrumpLead.DEALER_LEFT:
            attacker = (dealer + 1) % n
            break
        if stream is None:
            raise RulesError(
                "no_trump_lead",
                "no player holds a trump and the rules ask for a redeal, "
                "which an explicit deck order cannot give (R3.3)",
            )
        stream.shuffle(order)
        shuffles += 1
    known = [_NO_CARDS] * n
    if not stock:
        known[dealer] = frozenset({trump_card})  # R2.4: the dealer's shown card
    if leader is None:
        # R3.1: the leader shows his lowest trump, compared by rank (never by the card's value,
        # which holds the copy number: 6d#2 is lower than Kd); of two copies, the first.
        shown = min(
            (c for c in hands[attacker] if c.suit == trump),
            key=lambda c: (c & 15, c >> 6),
            default=None,
        )
        if shown is not None:
            known[attacker] = known[attacker] | {shown}
    exchange: frozenset[Card] = _NO_CARDS
    if rules.trump_six_exchange:
        low = _lowest_trump(rules, trump)
        exchange = frozenset(c for h in hands for c in h if c & 63 == low)
    return GameState(
        rules=rules,
        hands=tuple(_sorted(h) for h in hands),
        stock=stock,
        trump=trump,
        trump_card=trump_card,
        table=(),
        discard=(),
        dealer=dealer,
        attacker=attacker,
        defender=next_opponent(rules, [True] * n, attacker) or 0,
        leader=attacker,
        joined=(),
        defender_hand=0,
        taken=False,
        passed=_EMPTY,
        shown=_NO_CARDS,
        bouts=0,
        defences=0,
        places=(None,) * n,
        result=None,
        exchange=exchange,
        seed=seed,
        shuffles=shuffles,
        appointed=leader,
        known=tuple(known),
    )


def _lowest_trump(rules: Rules, trump: Suit) -> int:
    """The card value (copy aside) of the deck's lowest trump (R12.1)."""
    return trump * 16 + DECK_SIZES[rules.deck_size]


def _check_cards(rules: Rules, cards: Sequence[Card], what: str) -> None:
    """Every card of the rules' deck(s) exactly once (R1.2, R13.4)."""
    expected = set(build_deck(rules.deck_size, rules.decks))
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise PositionError(f"{what}: {card} appears more than once")
        if card not in expected:
            raise PositionError(
                f"{what}: {card} is not in the rules' deck "
                f"({rules.decks} x {rules.deck_size} cards)"
            )
        seen.add(card)
    missing = sorted(expected - seen, key=lambda c: c.sort_key)
    if missing:
        shown = " ".join(map(str, missing[:8])) + (" ..." if len(missing) > 8 else "")
        raise PositionError(f"{what}: {len(missing)} card(s) missing: {shown}")


TablePairs = Sequence[tuple[Card | str, Card | str | None]] | str


def _parse_table(table: TablePairs) -> tuple[Pair, ...]:
    """Table pairs from ``[("7h", "9h"), ("8h", None)]`` or from text ``"7h:9h 8h"``
    (``attack:beating card``; a card alone is unbeaten)."""
    if isinstance(table, str):
        pairs: list[tuple[Card | str, Card | str | None]] = []
        for word in table.replace(",", " ").split():
            first, sep, second = word.partition(":")
            pairs.append((first, second if sep else None))
        table = pairs
    if not isinstance(table, Sequence):
        raise PositionError(f"table: expected pairs (attack, beating card or None), not {table!r}")
    out: list[Pair] = []
    for pair in table:
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise PositionError(f"table: {pair!r} is not a pair (attack, beating card or None)")
        attack = Card.parse(pair[0]) if isinstance(pair[0], str) else pair[0]
        beat = Card.parse(pair[1]) if isinstance(pair[1], str) else pair[1]
        if not isinstance(attack, Card) or not (beat is None or isinstance(beat, Card)):
            raise PositionError(f"table: {pair!r} is not a pair of cards")
        out.append((attack, beat))
    return tuple(out)


def _seat(name: str, value: object, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise PositionError(f"{name}: must be a seat 0-{n - 1}, not {value!r}")
    return value


def _seats(name: str, values: Iterable[object], n: int) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise PositionError(f"{name}: expected seat numbers, not {values!r}")
    return tuple(_seat(name, v, n) for v in values)


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"{name}: must be a whole number 0 or more, not {value!r}")
    return value


def new_position(
    rules: Rules,
    *,
    hands: Sequence[Sequence[Card | str] | str],
    stock: Sequence[Card | str] | str = (),
    trump: Suit | str | None = None,
    attacker: int,
    discard: Sequence[Card | str] | str = (),
    dealer: int | None = None,
    first_bout: bool = False,
    exchange: Sequence[Card | str] | str = (),
    defender: int | None = None,
    table: TablePairs = (),
    defender_hand: int | None = None,
    taken: bool = False,
    passed: Iterable[int] = (),
    shown: Sequence[Card | str] | str = (),
    known: Sequence[Sequence[Card | str] | str] | None = None,
    leader: int | None = None,
    joined: Iterable[int] | None = None,
    bouts: int | None = None,
    defences: int | None = None,
    places: Sequence[int | None] | None = None,
    left: Iterable[int] = (),
) -> GameState:
    """Start from a given position instead of a deal: between bouts, or with a bout in play.

    For scenario tests, puzzles and front-ends that restore a game. Every field of a position
    can be given; what is left out takes the value a game would have.

    Args:
        rules: the settings.
        hands: one hand per seat (cards or text).
        stock: the stock, top card first; its last card is the face-up trump card (R2.4).
        trump: the trump suit; needed when the stock is empty, else it must match the stock's
            last card.
        attacker: the main attacker: the seat that leads the next bout, or, with a ``table``,
            the one who led it or last transferred (R9.1).
        discard: the discard pile.
        dealer: the dealer's seat (for matches); ``attacker - 1`` if omitted.
        first_bout: whether this is the game's first bout (R4.6 ``first_bout_max``, R9.6); a
            shorthand for ``bouts = 0``.
        exchange: lowest trumps whose holders keep the right to the trump-six exchange (R12.1).
        defender: the defender; the next active opponent clockwise from ``attacker`` if omitted
            (R4.1, R10.2).
        table: the bout's pairs in the order played, ``[("7h", "9h"), ("8h", None)]`` or the
            text ``"7h:9h 8h"`` (``attack:beating card``; a card alone is unbeaten).
        defender_hand: ``H`` of R4.6, the defender's hand size when he became defender; with a
            table, his hand now plus the cards he has beaten with if omitted.
        taken: the defender has declared take (R4.8).
        passed: the seats whose pass stands (R4.9).
        shown: trumps shown for a transfer in this bout (R9.5).
        known: per seat, the cards of his hand every player knows he holds (none if omitted).
        leader: who led the bout (R5.1); ``attacker`` if omitted.
        joined: the players who put attack cards on the table, in the order they first did
            (R5.1); ``(leader,)`` with a table if omitted.
        bouts: bouts finished so far (``0`` is the game's first bout); ``0`` if ``first_bout``
            else ``1``.
        defences: successful defences so far (R4.6 ``until_first_discard``); ``bouts`` if
            omitted, so ``bouts = 1, defences = 0`` is "not the first bout, but no successful
            defence yet".
        places: each seat's place if he is out or has left (R7.2), else ``None``; if omitted,
            a seat with an empty hand while the stock is empty is out in first place between
            bouts, and in play (finished, R7.1) during a bout.
        left: seats that left holding cards with a winning partner (R10.3).

    Raises:
        PositionError: naming the field (and the rule): a card missing or given twice, a seat
            count that does not match ``rules.players``, a missing or contradicting trump, and
            every contradiction :func:`validate_state` finds (an attacker who cannot lead, a
            defender who holds no card, more attack cards than R4.6 allows, a beating card that
            does not beat, a bout that R4.10 would already have ended, ...).
        InvalidCardError: a card that does not parse.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {rules!r}")
    n = rules.players
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
        count = len(hands) if isinstance(hands, Sequence) and not isinstance(hands, str) else 0
        raise PositionError(f"hands: {count} hands given for {n} players")
    hand_cards = [parse_cards(h) for h in hands]
    stock_cards = parse_cards(stock)
    discard_cards = parse_cards(discard)
    pairs = _parse_table(table)
    if trump is not None and not isinstance(trump, Suit):
        trump = Suit.parse(str(trump))
    trump_card: Card | None = None
    if stock_cards:
        trump_card = stock_cards[-1]
        if trump is not None and trump != trump_card.suit:
            raise PositionError(
                f"trump: {trump.name.lower()} given, but the face-up card under the stock is "
                f"{trump_card} (R2.4)"
            )
        trump = trump_card.suit
    elif trump is None:
        raise PositionError("trump: the stock is empty, so the trump suit must be given")
    attacker = _seat("attacker", attacker, n)
    dealer = (attacker - 1) % n if dealer is None else _seat("dealer", dealer, n)
    if places is None:
        between = not pairs
        place_list: tuple[int | None, ...] = tuple(
            1 if between and not h and not stock_cards else None for h in hand_cards
        )
    else:
        if isinstance(places, str) or not isinstance(places, Sequence) or len(places) != n:
            raise PositionError(f"places: one place (or None) per seat is needed, {n} seats")
        place_list = tuple(None if x is None else _count("places", x) for x in places)
    active = [
        place_list[i] is None and (bool(h) or bool(stock_cards)) for i, h in enumerate(hand_cards)
    ]
    if defender is None:
        found = next_opponent(rules, active, attacker)
        if found is None:
            if sum(active) < 2:
                raise PositionError("hands: fewer than two players hold cards, so the game is over")
            raise PositionError("hands: only one team holds cards, so the game is over (R10.3)")
        defender = found
    defender = _seat("defender", defender, n)
    if bouts is None:
        bouts = 0 if first_bout else 1
    bouts = _count("bouts", bouts)
    defences = bouts if defences is None else _count("defences", defences)
    leader = attacker if leader is None else _seat("leader", leader, n)
    if joined is None:
        joined_seats: tuple[int, ...] = (leader,) if pairs else ()
    else:
        joined_seats = _seats("joined", joined, n)
    if defender_hand is None:
        beaten = sum(1 for _, b in pairs if b is not None)
        defender_hand = len(hand_cards[defender]) + beaten if pairs else 0
    defender_hand = _count("defender_hand", defender_hand)
    if not isinstance(taken, bool):
        raise PositionError(f"taken: must be true or false, not {taken!r}")
    if known is None:
        known_sets = tuple(_NO_CARDS for _ in range(n))
    else:
        if isinstance(known, str) or not isinstance(known, Sequence) or len(known) != n:
            raise PositionError(f"known: one set of known cards per seat is needed, {n} seats")
        known_sets = tuple(frozenset(parse_cards(k)) for k in known)
    state = GameState(
        rules=rules,
        hands=tuple(_sorted(h) for h in hand_cards),
        stock=stock_cards,
        trump=trump,
        trump_card=trump_card,
        table=pairs,
        discard=discard_cards,
        dealer=dealer,
        attacker=attacker,
        defender=defender,
        leader=leader,
        joined=joined_seats,
        defender_hand=defender_hand,
        taken=taken,
        passed=frozenset(_seats("passed", passed, n)),
        shown=frozenset(parse_cards(shown)),
        bouts=bouts,
        defences=defences,
        places=place_list,
        result=None,
        exchange=frozenset(parse_cards(exchange)),
        known=known_sets,
        left=frozenset(_seats("left", left, n)),
    )
    validate_state(state)
    return state


def validate_state(state: GameState) -> GameState:
    """Check that ``state`` is a position the engine can play on, and return it.

    :func:`new_position` and :func:`durak.serialize.state_from_dict` call it, so a position
    built by hand or read from a file is refused at once, never failing later.

    Raises:
        TypeError: ``state`` is not a :class:`GameState`.
        PositionError: naming the field and the rule of the first contradiction found: cards
            that are not the rules' deck exactly once (R13.4); seats, places or known cards
            that do not fit; a face-up card that is not the stock's last card or not of the
            trump suit (R2.4); an attacker or defender who cannot play (R4.1, R10.2); more
            attack cards than R4.6 allows; a beating card that does not beat its attack card
            (R4.7, R8); a take with nothing unbeaten (R4.8); a pass by a player with nothing to
            add (R4.9); a shown card that is not a trump of the attack rank (R9.5); a bout
            that R4.10 would already have ended; a result that contradicts the places.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")
    s = state
    rules = s.rules
    if not isinstance(rules, Rules):
        raise PositionError(f"rules: not a Rules object: {rules!r}")
    if not isinstance(s.trump, Suit):
        raise PositionError(f"trump: not a suit: {s.trump!r}")
    n = rules.players
    for name in ("hands", "places"):
        if len(getattr(s, name)) != n:
            raise PositionError(f"{name}: one entry per seat is needed, {n} seats")
    if s.known and len(s.known) != n:
        raise PositionError(f"known: one set per seat is needed, {n} seats")
    _check_cards(rules, s.all_cards(), "position")
    for name in ("dealer", "attacker", "defender", "leader"):
        _seat(name, getattr(s, name), n)
    for name in ("bouts", "defences", "defender_hand", "shuffles"):
        _count(name, getattr(s, name))
    if s.defences > s.bouts:
        raise PositionError(
            f"defences: {s.defences} successful defences in {s.bouts} finished bouts"
        )
    for p, place in enumerate(s.places):
        if place is not None and (isinstance(place, bool) or not 1 <= place <= n):
            raise PositionError(f"places: seat {p} has place {place!r}, not 1-{n} (R7.2)")
    for p in s.left:
        _seat("left", p, n)
        if s.places[p] is None:
            raise PositionError(f"left: seat {p} left with a partner but has no place (R10.3)")
    for p, cards in enumerate(s.known):
        stray = sorted(c for c in cards if c not in s.hands[p])
        if stray:
            raise PositionError(f"known: {stray[0]} is known to be in seat {p}'s hand, but is not")
    if s.trump_card is not None:
        if s.trump_card.suit != s.trump:
            raise PositionError(f"trump_card: {s.trump_card} is not of the trump suit (R2.4)")
        if s.stock and s.stock[-1] != s.trump_card:
            raise PositionError(
                f"trump_card: {s.trump_card} is not the face-up card under the stock (R2.4)"
            )
    elif s.stock:
        raise PositionError("trump_card: the stock's last card is the face-up trump card (R2.4)")
    for card in s.exchange:
        if card & 63 != _lowest_trump(rules, s.trump) or not any(card in h for h in s.hands):
            raise PositionError(f"exchange: {card} is not the deck's lowest trump in a hand")
    if s.result is not None:
        if s.table:
            raise PositionError("table: the game is over, so no card is on the table (R7.3)")
        if s.places != s.result.places:
            raise PositionError("places: a finished game's places are its result's (R7.2)")
        return state
    return _validate_play(state)


def _validate_play(s: GameState) -> GameState:
    """The checks of :func:`validate_state` for a game in progress."""
    rules = s.rules
    n = rules.players
    b = _Bout(s)
    active = b.active
    alive = [p for p in range(n) if active[p]]
    if len({rules.team_of(p) for p in alive}) < 2:
        raise PositionError(
            "places: fewer than two players (or teams) are still in play, so the game is over "
            "(R7.3, R10.3)"
        )
    if not active[s.attacker] and not s.table:
        raise PositionError(f"attacker: seat {s.attacker} is not in play, so he cannot lead")
    if s.defender == s.attacker or not rules.opponents(s.attacker, s.defender):
        raise PositionError(
            f"defender: seat {s.defender} cannot defend against seat {s.attacker} (R4.1, R10.2)"
        )
    if not active[s.defender]:
        raise PositionError(f"defender: seat {s.defender} is not in play (R4.1)")
    if not s.table:
        if not s.hands[s.attacker]:
            raise PositionError(f"attacker: seat {s.attacker} holds no card, so he cannot lead")
        if not s.hands[s.defender]:
            raise PositionError(
                f"hands: the defender, seat {s.defender}, holds no card, so no attack is "
                "possible (R4.6)"
            )
        for name in ("taken", "passed", "shown", "joined"):
            if getattr(s, name):
                raise PositionError(f"{name}: no bout is in play, so this must be empty")
        return s
    for attack, card in s.table:
        if card is not None and not b.table[(attack & 63) * 64 + (card & 63)]:
            raise PositionError(f"table: {card} does not beat {attack} (R4.7, R8)")
    if len(s.table) > b.limit:
        raise PositionError(
            f"table: {len(s.table)} attack cards exceed the bout's limit of {b.limit} "
            f"(cap {b.cap}, defender_hand {s.defender_hand}) (R4.6)"
        )
    if b.unbeaten > len(s.hands[s.defender]) and not s.taken:
        raise PositionError(
            f"table: {b.unbeaten} unbeaten cards, but the defender holds "
            f"{len(s.hands[s.defender])} (R4.6)"
        )
    if s.taken and not b.unbeaten:
        raise PositionError("taken: the defender takes only while a card is unbeaten (R4.8)")
    if not s.joined or s.joined[0] != s.leader or len(set(s.joined)) != len(s.joined):
        raise PositionError(
            "joined: the seats that put attack cards on the table, each once, the leader first "
            "(R5.1)"
        )
    for p in sorted(s.passed):
        if p not in b.throwers or not b.able(p):
            raise PositionError(
                f"passed: seat {p} is not a thrower with a card to add, so he has no pass (R4.9)"
            )
    rank = s.table[0][0] & 15
    for card in s.shown:
        if card.suit != s.trump or card & 15 != rank or not rules.transfer_by_showing_trump:
            raise PositionError(f"shown: {card} is not a trump of the attack rank shown (R9.5)")
    if b.over():
        raise PositionError(
            "table: every thrower is done and the defender has beaten everything or taken, so "
            "the bout is over: the engine would already have ended it (R4.10)"
        )
    return s


def attack_limit(state: GameState) -> int:
    """The most attack cards the bout may hold now (R4.6): ``min(cap, H)`` while a bout is in
    play, before the lead ``min(cap, the defender's hand)`` (the most the lead may hold); ``0``
    once the game is over.

    Raises:
        TypeError: ``state`` is not a :class:`GameState`.
    """
    _need_state(state)
    if state.result is not None:
        return 0
    return _bout(state).limit


def _need_state(state: object) -> None:
    if type(state) is not GameState and not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")


def _need_seat(player: object, n: int) -> None:
    if type(player) is not int and (isinstance(player, bool) or not isinstance(player, int)):
        raise TypeError(f"a player is a seat number 0-{n - 1}, not {player!r:.80}")
    if not 0 <= player < n:
        raise SeatError(f"no seat {player} in a {n}-player game (seats 0-{n - 1}, R2.2)")


def _need_action(action: object) -> None:
    if not isinstance(action, _ACTION_KINDS):
        raise TypeError(
            f"not an action: {action!r:.80} (expected Lead, ThrowIn, Beat, Take, Pass, "
            "Transfer, ShowTrump, ExchangeTrump or Redeal; durak.notation.parse_action reads text)"
        )


_ACTION_KINDS = (Lead, ThrowIn, Beat, Take, Pass, Transfer, ShowTrump, ExchangeTrump, Redeal)


# --------------------------------------------------------------------------------------------
# The bout's derived facts, computed once per state and call
# --------------------------------------------------------------------------------------------


class _Derived:
    """What the engine derives once per rules object: the modules with a check hook and one
    beat table per trump suit."""

    __slots__ = ("checkers", "rules", "tables")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.checkers = checking_modules(rules)
        self.tables = {suit: beat_table(suit, rules) for suit in Suit}


_derived: dict[int, _Derived] = {}


def _rules_data(rules: Rules) -> _Derived:
    """:class:`_Derived` for ``rules``, remembered by identity (hashing a rules object to look it
    up costs more than the rest of a rule check)."""
    d = _derived.get(id(rules))
    if d is None or d.rules is not rules:
        if len(_derived) > 512:
            _derived.clear()
        d = _derived[id(rules)] = _Derived(rules)
    return d


class _Bout:
    """Facts about a state that every rule check needs (not part of the state)."""

    __slots__ = (
        "active",
        "beaten",
        "can_add",
        "cap",
        "legal",
        "limit",
        "modules",
        "ranks",
        "s",
        "table",
        "throwers",
        "unbeaten",
    )

    def __init__(self, s: GameState) -> None:
        self.s = s
        rules = s.rules
        stock = bool(s.stock)
        places = s.places
        self.active = tuple(places[i] is None and (stock or bool(h)) for i, h in enumerate(s.hands))
        self.cap = attack_cap(rules, s.bouts, s.defences)
        derived = _rules_data(rules)
        self.legal: dict[int, tuple[Action, ...]] = {}
        self.modules = derived.checkers
        self.table = derived.tables[s.trump]
        ranks: set[int] = set()
        unbeaten = 0
        for a, b in s.table:
            ranks.add(a & 15)
            if b is None:
                unbeaten += 1
            else:
                ranks.add(b & 15)
        self.ranks = ranks
        self.unbeaten = unbeaten
        self.beaten = len(s.table) - unbeaten
        if s.table:
            self.limit = min(self.cap, s.defender_hand)
            self.throwers = throwers(rules, self.active, s.attacker, s.defender)
            self.can_add = (not s.taken or rules.throw_after_take) and len(s.table) < self.limit
        else:
            self.limit = min(self.cap, len(s.hands[s.defender]))
            self.throwers = ()
            self.can_add = False

    def able(self, p: int) -> bool:
        """``p`` is a thrower holding a card he could add, order and passes aside."""
        if not self.can_add or p not in self.throwers:
            return False
        ranks = self.ranks
        return any(c & 15 in ranks for c in self.s.hands[p])

    def done(self, p: int) -> bool:
        """``p``'s pass stands, or he has nothing to add (counts as passed, R4.9)."""
        return p in self.s.passed or not self.able(p)

    def over(self) -> bool:
        """R4.10: every thrower done, and every attack card beaten or the defender has taken."""
        if not self.s.table or (self.unbeaten and not self.s.taken):
            return False
        return all(self.done(p) for p in self.throwers)

    def transfer_target(self) -> int | None:
        """The player a transfer would pass the attack to (R9.1), or ``None``."""
        return next_opponent(self.s.rules, self.active, self.s.defender)


_last: _Bout | None = None


def _bout(s: GameState) -> _Bout:
    """The derived facts of ``s``; the last state asked about is remembered (by identity), since
    callers ask :func:`next_actor`, :func:`legal_actions` and :func:`apply` about the same state
    in turn."""
    global _last
    b = _last
    if b is None or b.s is not s:
        b = _last = _Bout(s)
    return b


# --------------------------------------------------------------------------------------------
# The rule checks: the one legality source
# --------------------------------------------------------------------------------------------

Violation = tuple[str, str]  # (rule id, reason)


def _in_hand(b: _Bout, p: int, cards: Sequence[Card]) -> Violation | None:
    hand = b.s.hands[p]
    if len(cards) == 1:
        return None if cards[0] in hand else ("R13.1", f"{cards[0]} is not in player {p}'s hand")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        return "R1.2", f"{dup} is listed more than once"
    for c in cards:
        if c not in hand:
            return "R13.1", f"{c} is not in player {p}'s hand"
    return None


def _check_lead(b: _Bout, a: Lead) -> Violation | None:
    s = b.s
    if s.table:
        return "R4.2", "the bout has already been led; throw in instead"
    if a.player != s.attacker:
        return "R4.1", f"player {s.attacker} leads this bout"
    bad = _in_hand(b, a.player, a.cards)
    if bad:
        return bad
    if s.rules.lead is LeadSetting.SINGLE and len(a.cards) > 1:
        return "R4.2", "the lead is a single card under lead = single"
    if len(a.cards) > 1 and len({c & 15 for c in a.cards}) > 1:
        return "R4.2", "a lead of several cards must be of one rank"
    if len(a.cards) > b.limit:
        return "R4.6", (
            f"{len(a.cards)} attack cards exceed the limit of {b.limit} "
            f"(cap {b.cap}, defender holds {len(s.hands[s.defender])})"
        )
    return None


def _check_throw(b: _Bout, p: int, card: Card | None) -> Violation | None:
    """Whether ``p`` may throw in ``card`` now; with ``card=None`` the card checks are skipped
    (used for passing)."""
    s = b.s
    if not s.table:
        return "R4.2", "no bout has been led yet"
    if p == s.defender:
        return "R4.4", "the defender cannot throw in against himself"
    if p not in b.throwers:
        return "R4.4", f"player {p} is not a thrower in this bout ({s.rules.throwers.value})"
    if p in s.passed:
        return "R4.9", f"player {p} has passed and the table has not changed since"
    if s.taken and not s.rules.throw_after_take:
        return "R4.8", "the defender has taken and throw_after_take is off"
    if len(s.table) >= b.limit:
        return "R4.6", (
            f"the bout already holds {len(s.table)} attack cards, its limit "
            f"(cap {b.cap}, defender's hand {s.defender_hand})"
        )
    if (
        s.rules.throw_order is ThrowOrder.ATTACKER_FIRST
        and p != s.attacker
        and not b.done(s.attacker)
    ):
        return "R4.5", f"the main attacker (player {s.attacker}) throws in first"
    if card is not None:
        if card not in s.hands[p]:
            return "R13.1", f"{card} is not in player {p}'s hand"
        if card & 15 not in b.ranks:
            return "R4.3", f"no card of rank {card.rank.letter} is on the table"
    elif not b.able(p):
        return "R4.9", f"player {p} has nothing to throw in, so there is nothing to pass"
    return None


def _check_defending(b: _Bout, p: int, rule: str = "R4.8") -> Violation | None:
    """``p`` is the defender facing an unbeaten card, not having taken; ``rule`` is cited when
    nothing is left unbeaten (R4.7 for a beat, R4.8 for a take, R9.1 for a transfer)."""
    s = b.s
    if not s.table:
        return "R4.2", "no bout has been led yet"
    if p != s.defender:
        return "R4.1", f"player {s.defender} is the defender"
    if s.taken:
        return "R4.8", "the defender has already taken"
    if not b.unbeaten:
        return rule, "every attack card is beaten"
    return None


def _check_beat(b: _Bout, a: Beat) -> Violation | None:
    bad = _check_defending(b, a.player, "R4.7")
    if bad:
        return bad
    s = b.s
    if (a.attack, None) not in s.table:
        return "R4.7", f"{a.attack} is not an unbeaten attack card on the table"
    if a.card not in s.hands[a.player]:
        return "R13.1", f"{a.card} is not in player {a.player}'s hand"
    if not b.table[(a.attack & 63) * 64 + (a.card & 63)]:
        verdict = base_beats(a.card, a.attack, s.trump)
        if verdict:
            for module in active_modules(s.rules):
                verdict = module.beats(a.card, a.attack, s.trump, s.rules, verdict)
                if not verdict:
                    return module.rule or f"house:{module.name}", (
                        f"{a.card} does not beat {a.attack}: {module.description}"
                    )
        return "R4.7", f"{a.card} does not beat {a.attack} (trump {s.trump.name.lower()})"
    return None


def _check_transfer_common(b: _Bout, p: int, on_table: int) -> Violation | None:
    bad = _check_defending(b, p, "R9.1")
    if bad:
        return bad
    s = b.s
    if b.beaten:
        return "R9.1", "a card of this bout has already been beaten"
    if not s.rules.transfer_first_bout and s.bouts == 0:
        return "R9.6", "no transfer in the game's first bout"
    target = b.transfer_target()
    if target is None:
        return "R9.1", "there is no other active player to pass the attack to"
    room = min(b.cap, len(s.hands[target]))
    if on_table > room:
        return "R9.2", (
            f"{on_table} attack cards would exceed the new defender's limit of {room} "
            f"(cap {b.cap}, player {target} holds {len(s.hands[target])})"
        )
    return None


def _check_transfer(b: _Bout, a: Transfer) -> Violation | None:
    if not b.s.rules.transfer_by_card:
        return "R9.1", "transfer by card is off (transfer_by_card)"
    if len(a.cards) > 1 and not b.s.rules.transfer_several:
        return "R9.4", "a transfer adds one card (transfer_several is off)"
    bad = _check_transfer_common(b, a.player, len(b.s.table) + len(a.cards))
    if bad:
        return bad
    bad = _in_hand(b, a.player, a.cards)
    if bad:
        return bad
    rank = b.s.table[0][0] & 15
    for c in a.cards:
        if c & 15 != rank:
            return "R9.1", f"{c} is not of the attack rank {b.s.table[0][0].rank.letter}"
    return None


def _check_show(b: _Bout, a: ShowTrump) -> Violation | None:
    s = b.s
    if not s.rules.transfer_by_showing_trump:
        return "R9.5", "transfer by showing a trump is off (transfer_by_showing_trump)"
    bad = _check_transfer_common(b, a.player, len(s.table))
    if bad:
        return bad
    if a.card not in s.hands[a.player]:
        return "R13.1", f"{a.card} is not in player {a.player}'s hand"
    if a.card.suit != s.trump:
        return "R9.5", f"{a.card} is not a trump"
    if a.card & 15 != s.table[0][0] & 15:
        return "R9.5", f"{a.card} is not of the attack rank {s.table[0][0].rank.letter}"
    if a.card in s.shown:
        return "R9.5", f"{a.card} has already been shown in this bout"
    return None


def _check_exchange(b: _Bout, a: ExchangeTrump) -> Violation | None:
    s = b.s
    if not s.rules.trump_six_exchange:
        return "R12.1", "the trump-six exchange is off (trump_six_exchange)"
    if a.card not in s.hands[a.player]:
        return "R13.1", f"{a.card} is not in player {a.player}'s hand"
    if a.card not in s.exchange:
        return "R12.1", (
            f"{a.card} gives no right to exchange: only the deck's lowest trump, dealt or drawn "
            "and held ever since, does"
        )
    if not s.stock:
        return "R12.1", "the face-up trump card has already been drawn"
    if s.stock[-1] & 63 == a.card & 63:
        return "R12.1", f"the face-up card is itself {a.card.rank.letter}{a.card.suit.letter}"
    return None


def _misdeal(rules: Rules, hand: Sequence[Card]) -> bool:
    count = rules.misdeal_suit_count
    if count is None:
        return False
    suits = [(c >> 4) & 3 for c in hand]
    return any(suits.count(suit) >= count for suit in range(4))


def _check_redeal(b: _Bout, a: Redeal) -> Violation | None:
    s = b.s
    if s.rules.misdeal_suit_count is None:
        return "R12.2", "misdeal redeals are off (misdeal_suit_count)"
    if s.bouts or s.table:
        return "R12.2", "a redeal may be demanded only before the first lead"
    if not _misdeal(s.rules, s.hands[a.player]):
        return "R12.2", (
            f"player {a.player} holds fewer than {s.rules.misdeal_suit_count} cards of every suit"
        )
    if s.seed is None:
        return "R12.2", "the game was dealt from an explicit deck order, which gives no redeal"
    return None


def _violation(b: _Bout, action: Action) -> Violation | None:
    s = b.s
    p = action.player
    if s.result is not None:
        return "R7.3", "the game is over"
    if p >= len(s.hands):
        return "R2.1", f"there is no seat {p} in a {len(s.hands)}-player game"
    if not b.active[p]:
        return "R7.1", f"player {p} is out of the game"
    bad = _core_violation(b, action)
    if bad is None and b.modules:
        for module in b.modules:
            bad = module.check(s, action)
            if bad is not None:
                return bad
    return bad


def _core_violation(b: _Bout, action: Action) -> Violation | None:
    p = action.player
    match action:
        case Lead():
            return _check_lead(b, action)
        case ThrowIn():
            return _check_throw(b, p, action.card)
        case Pass():
            return _check_throw(b, p, None)
        case Beat():
            return _check_beat(b, action)
        case Take():
            return _check_defending(b, p)
        case Transfer():
            return _check_transfer(b, action)
        case ShowTrump():
            return _check_show(b, action)
        case ExchangeTrump():
            return _check_exchange(b, action)
        case Redeal():
            return _check_redeal(b, action)
    raise TypeError(f"not an action: {action!r}")


def check(state: GameState, action: Action) -> tuple[str, str] | None:
    """The first rule ``action`` breaks in ``state``, as ``(rule id, reason)``, or ``None`` if it
    is legal. The same checks :func:`apply` and :func:`legal_actions` use.

    Raises:
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    _need_state(state)
    _need_action(action)
    return _violation(_bout(state), action)


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal in ``state`` (R13.1).

    Raises:
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    _need_state(state)
    _need_action(action)
    return _violation(_bout(state), action) is None


_INTERNED: dict[tuple[type, int, int, int], Action] = {}


def _one(kind: type, p: int, c: int = 0, a: int = 0) -> Action:
    """The action ``kind`` of player ``p`` with card ``c`` (and attack card ``a`` for a beat),
    built once and then shared: actions are values, and building one runs its validators."""
    key = (kind, p, c, a)
    action = _INTERNED.get(key)
    if action is None:
        if len(_INTERNED) > 100_000:
            _INTERNED.clear()
        if kind is Take or kind is Pass:
            action = kind(p)
        elif kind is Lead or kind is Transfer:
            action = kind(p, (Card(c),))
        elif kind is Beat:
            action = Beat(p, Card(a), Card(c))
        else:
            action = kind(p, Card(c))
        _INTERNED[key] = action
    return action


def _candidates(b: _Bout, p: int) -> list[Action]:
    """A superset of ``p``'s legal actions, in a fixed order; :func:`legal_actions` filters it
    through the rule checks."""
    s = b.s
    hand = s.hands[p]
    out: list[Action] = []
    if s.exchange and s.stock:
        out.extend(ExchangeTrump(p, c) for c in hand if c in s.exchange)
    if s.rules.misdeal_suit_count is not None and not s.bouts and not s.table:
        out.append(Redeal(p))
    if not s.table:
        if p == s.attacker:
            if s.rules.lead is LeadSetting.SAME_RANK:
                by_rank: dict[int, list[Card]] = {}
                for c in hand:
                    by_rank.setdefault(c & 15, []).append(c)
                for group in by_rank.values():
                    for combo in _subsets(group, b.limit):
                        out.append(Lead(p, combo))
            else:
                out.extend(_one(Lead, p, c) for c in hand)
        return out
    if p == s.defender:
        if not s.taken and b.unbeaten:
            trump_table = b.table
            for a, beaten in s.table:
                if beaten is None:
                    base = (a & 63) * 64
                    out.extend(_one(Beat, p, c, a) for c in hand if trump_table[base + (c & 63)])
            if not b.beaten and s.rules.transfers:
                rank = s.table[0][0] & 15
                same = [c for c in hand if c & 15 == rank]
                if s.rules.transfer_by_card:
                    if s.rules.transfer_several:
                        out.extend(Transfer(p, combo) for combo in _subsets(same, len(same)))
                    else:
                        out.extend(_one(Transfer, p, c) for c in same)
                if s.rules.transfer_by_showing_trump:
                    out.extend(_one(ShowTrump, p, c) for c in same if (c >> 4) & 3 == s.trump)
            out.append(_one(Take, p))
        return out
    if b.able(p):
        ranks = b.ranks
        out.extend(_one(ThrowIn, p, c) for c in hand if c & 15 in ranks)
        out.append(_one(Pass, p))
    return out


def _subsets(cards: Sequence[Card], most: int) -> list[tuple[Card, ...]]:
    """Non-empty subsets of ``cards`` with at most ``most`` cards, smaller first."""
    from itertools import combinations

    return [combo for k in range(1, min(most, len(cards)) + 1) for combo in combinations(cards, k)]


def legal_actions(state: GameState, player: int | None = None) -> tuple[Action, ...]:
    """Every legal action of every player (R13.1), or only ``player``'s.

    Returns:
        The actions in a fixed order: by seat, then leads, beats, transfers, shown trumps,
            take, throw-ins, pass; cards in card order. Empty once the game is over.

    Raises:
        TypeError: ``state`` is not a state, or ``player`` is not a seat number.
        SeatError: ``player`` is not a seat of this game (also an :class:`IndexError`).
    """
    _need_state(state)
    n = len(state.hands)
    if player is not None:
        _need_seat(player, n)
    if state.result is not None:
        return ()
    b = _bout(state)
    if player is not None:
        seats: Iterable[int] = (player,)
    else:
        seats = range(n)
    out: list[Action] = []
    legal = b.legal
    for p in seats:
        mine = legal.get(p)
        if mine is None:
            mine = legal[p] = (
                tuple(a for a in _candidates(b, p) if _violation(b, a) is None)
                if b.active[p]
                else ()
            )
        out.extend(mine)
    return tuple(out)


def acting(state: GameState) -> tuple[int, ...]:
    """The players who may act now on the table (R13.1), in seat order: the attacker before the
    lead; the defender while he faces an unbeaten card and has not taken; every thrower with a
    legal throw-in (R4.4, R4.5, R4.9). Rights only their holder knows of, the trump-six exchange
    and a misdeal redeal (R12), are left out, so the answer follows from public facts alone.

    Raises:
        TypeError: ``state`` is not a state.
    """
    _need_state(state)
    if state.result is not None:
        return ()
    if not state.table:
        return (state.attacker,)
    b = _bout(state)
    seats = {p for p in b.throwers if _check_throw(b, p, None) is None}
    if b.unbeaten and not state.taken:
        seats.add(state.defender)
    return tuple(sorted(seats))


def next_actor(state: GameState) -> int | None:
    """The documented one-actor choice of R13.2, for bots, RL and OpenSpiel-style consumers.

    The attacker while no card is led; the defender while he faces an unbeaten card and has not
    taken; otherwise the main attacker if he has a legal action; otherwise the first thrower
    clockwise from the main attacker who has one. ``None`` once the game is over. It never
    changes what is legal: the others' actions stay legal.

    Raises:
        TypeError: ``state`` is not a state.
        PositionError: ``state`` is one no engine function makes, in which nobody can act
            (:func:`validate_state` refuses such states when they are read or built).
    """
    _need_state(state)
    if state.result is not None:
        return None
    s = state
    if not s.table:
        return s.attacker
    b = _bout(s)
    if not s.taken and b.unbeaten:
        return s.defender
    for p in b.throwers:  # clockwise from the main attacker, who comes first
        if _check_throw(b, p, None) is None:
            return p
    raise PositionError(  # pragma: no cover - validate_state refuses such states
        "table: nobody can act, so the bout should have ended (R4.10)"
    )


# --------------------------------------------------------------------------------------------
# Applying an action
# --------------------------------------------------------------------------------------------


_FIELDS = tuple(f.name for f in attrs.fields(GameState))


def _evolve(s: GameState, changes: dict[str, Any]) -> GameState:
    """A copy of ``s`` with ``changes``: ``attrs.evolve`` without its per-call introspection."""
    return GameState(*[changes[f] if f in changes else getattr(s, f) for f in _FIELDS])


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def _with_hand(
    hands: tuple[tuple[Card, ...], ...], p: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:p], hand, *hands[p + 1 :])


def _joined(s: GameState, p: int) -> tuple[int, ...]:
    return s.joined if p in s.joined else (*s.joined, p)


def apply(state: GameState, action: Action) -> GameState:
    """Play ``action`` and return the new state (R13.3); ``state`` itself never changes.

    :func:`apply_with_events` does the same and also reports what happened.

    When the action ends the bout (R4.10) the table is cleared or taken, players draw (R5),
    players out are recorded (R7.1, R7.2), the game may end (R7.3), and the next bout's attacker
    and defender are set (R6).

    Raises:
        IllegalActionError: the action breaks a rule; it names the player, the action and the
            rule id, and nothing changes.
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    return _apply(state, action, None)


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`apply`, also returning the events that happened, in order (the action's own event,
    then at a bout end :class:`~durak.events.BoutEnded`, :class:`~durak.events.Drew` per drawer,
    :class:`~durak.events.PlayerOut`, and :class:`~durak.events.NewBout` or
    :class:`~durak.events.GameOver`). The events hold every drawn card: pass them through
    :func:`durak.events.events_for` before showing them to a player.

    Raises:
        IllegalActionError: as :func:`apply`; nothing changes.
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    log: list[Event] = []
    new = _apply(state, action, log)
    return new, tuple(log)


def _action_event(s: GameState, action: Action, target: int | None) -> Event:
    match action:
        case Lead(player=p, cards=cards):
            return Led(p, cards, s.defender)
        case ThrowIn(player=p, card=card):
            return ThrownIn(p, card)
        case Beat(player=p, attack=attack, card=card):
            return Beaten(p, attack, card)
        case Take(player=p):
            return TakeDeclared(p)
        case Pass(player=p):
            return Passed(p)
        case Transfer(player=p, cards=cards):
            assert target is not None
            return Transferred(p, target, cards=cards)
        case ShowTrump(player=p, card=card):
            assert target is not None
            return Transferred(p, target, shown=card)
        case ExchangeTrump(player=p, card=card):
            return TrumpExchanged(p, card, s.stock[-1])
        case Redeal(player=p):
            return Redealt(p)
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover


def _apply(state: GameState, action: Action, log: list[Event] | None) -> GameState:
    _need_state(state)
    _need_action(action)
    b = _bout(state)
    listed = b.legal.get(action.player) if type(action.player) is int else None
    if listed is None or action not in listed:  # already checked when it was listed
        bad = _violation(b, action)
        if bad is not None:
            raise IllegalActionError(action.describe(), action.player, bad[0], bad[1])
    s = state
    p = action.player
    if log is not None:
        target = b.transfer_target() if isinstance(action, Transfer | ShowTrump) else None
        log.append(_action_event(s, action, target))
    changes: dict[str, Any]
    match action:
        case Lead(cards=cards):
            changes = {
                "hands": _with_hand(s.hands, p, _remove(s.hands[p], cards)),
                "table": tuple((c, None) for c in cards),
                "leader": p,
                "joined": (p,),
                "defender_hand": len(s.hands[s.defender]),
                "passed": _EMPTY,
            }
        case ThrowIn(card=card):
            changes = {
                "hands": _with_hand(s.hands, p, _remove(s.hands[p], (card,))),
                "table": (*s.table, (card, None)),
                "joined": _joined(s, p),
                "passed": _EMPTY,
            }
        case Beat(attack=attack, card=card):
            i = s.table.index((attack, None))
            table: tuple[Pair, ...] = (*s.table[:i], (attack, card), *s.table[i + 1 :])
            changes = {
                "hands": _with_hand(s.hands, p, _remove(s.hands[p], (card,))),
                "table": table,
                "passed": _EMPTY,
            }
        case Take():
            changes = {"taken": True, "passed": _EMPTY}
        case Pass():
            changes = {"passed": s.passed | {p}}
        case Transfer(cards=cards):
            target = b.transfer_target()
            assert target is not None
            hands = _with_hand(s.hands, p, _remove(s.hands[p], cards))
            changes = {
                "hands": hands,
                "table": s.table + tuple((c, None) for c in cards),
                "attacker": p,
                "defender": target,
                "defender_hand": len(hands[target]),
                "joined": _joined(s, p),
                "passed": _EMPTY,
            }
        case ShowTrump(card=card):
            target = b.transfer_target()
            assert target is not None
            changes = {
                "attacker": p,
                "defender": target,
                "defender_hand": len(s.hands[target]),
                "shown": s.shown | {card},
                "passed": _EMPTY,
                "known": _with_known(s.known, p, s.known[p] | {card}),  # R9.5
            }
        case ExchangeTrump(card=card):
            face_up = s.stock[-1]
            hand = _sorted((*_remove(s.hands[p], (card,)), face_up))
            changes = {
                "hands": _with_hand(s.hands, p, hand),
                "stock": (*s.stock[:-1], card),
                "trump_card": card,
                "known": _with_known(s.known, p, (s.known[p] - {card}) | {face_up}),
            }
        case Redeal():
            new = _deal_state(s.rules, s.dealer, None, s.seed, s.shuffles, s.appointed)
            if log is not None:
                log.append(NewBout(new.attacker, new.defender))
            return new
        case _:  # pragma: no cover - _violation rejects non-actions
            raise TypeError(f"not an action: {action!r}")
    if "hands" in changes:
        hand = changes["hands"][p]
        if s.exchange:
            # R12.1: the right lasts while the card stays in the hand it was dealt or drawn to.
            before = s.hands[p]
            changes["exchange"] = frozenset(c for c in s.exchange if c in hand or c not in before)
        if s.known[p] and "known" not in changes:
            changes["known"] = _with_known(
                s.known, p, frozenset(c for c in s.known[p] if c in hand)
            )
    new = _evolve(s, changes)
    if _bout(new).over():
        return _end_bout(new, log)
    return new


def _with_known(
    known: tuple[frozenset[Card], ...], p: int, cards: frozenset[Card]
) -> tuple[frozenset[Card], ...]:
    return (*known[:p], cards, *known[p + 1 :])


def _end_bout(s: GameState, log: list[Event] | None = None) -> GameState:
    """R4.10, R5, R6, R7: clear or take the table, draw, record outs, end or rotate."""
    rules = s.rules
    n = len(s.hands)
    hands = list(s.hands)
    known = list(s.known)
    table_cards = tuple(c for pair in s.table for c in pair if c is not None)
    discard = s.discard
    defences = s.defences
    if s.taken:
        hands[s.defender] = _sorted(hands[s.defender] + table_cards)
        known[s.defender] = known[s.defender] | set(table_cards)  # everyone saw them
    else:
        discard = discard + table_cards
        defences += 1
    if log is not None:
        log.append(BoutEnded(s.defender, s.taken, table_cards))
    stock = s.stock
    exchange = s.exchange
    if stock:
        eligible = [place is None for place in s.places]
        for p in draw_order(rules, s.leader, s.joined, s.defender, eligible):
            need = rules.hand_size - len(hands[p])
            if need > 0 and stock:
                drawn, stock = stock[:need], stock[need:]
                hands[p] = _sorted(hands[p] + drawn)
                face_up = None
                if not stock:  # he drew the face-up trump card, in sight of all (R5.2)
                    face_up = drawn[-1]
                    known[p] = known[p] | {face_up}
                if rules.trump_six_exchange:
                    low = _lowest_trump(rules, s.trump)
                    exchange |= {c for c in drawn if c & 63 == low}
                if log is not None:
                    log.append(Drew(p, len(drawn), drawn, face_up))
    newly_out = [p for p in range(n) if s.places[p] is None and not hands[p] and not stock]
    places, left, result = settle(rules, s.places, s.left, newly_out, s.defender)
    if log is not None and newly_out:
        durak = result.durak if result is not None else None
        log.extend(PlayerOut(p, places[p] or n) for p in newly_out if p != durak)
        log.extend(
            PlayerLeft(p, places[p] or n, next(q for q in newly_out if not rules.opponents(p, q)))
            for p in sorted(left - s.left)
        )
    active = [x is None for x in places]
    attacker = s.attacker
    defender = s.defender
    if result is None:
        if not s.taken and active[s.defender]:
            attacker = s.defender  # R6.1
        else:
            nxt = next_active(active, s.defender)  # R6.1 (defender out), R6.2
            assert nxt is not None
            attacker = nxt
        nxt_def = next_opponent(rules, active, attacker)  # R4.1, R6.3, R10.4
        assert nxt_def is not None
        defender = nxt_def
    if log is not None:
        log.append(GameOver(result) if result is not None else NewBout(attacker, defender))
    return GameState(
        rules=rules,
        hands=tuple(hands),
        stock=stock,
        trump=s.trump,
        trump_card=s.trump_card,
        table=(),
        discard=discard,
        dealer=s.dealer,
        attacker=attacker,
        defender=defender,
        leader=attacker,
        joined=(),
        defender_hand=0,
        taken=False,
        passed=_EMPTY,
        shown=_NO_CARDS,
        bouts=s.bouts + 1,
        defences=defences,
        places=places,
        result=result,
        exchange=exchange,
        seed=s.seed,
        shuffles=s.shuffles,
        appointed=s.appointed,
        known=tuple(known),
        left=left,
    )
