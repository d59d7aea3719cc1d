"""The engine (R2-R12, R13): start a game, list legal actions, apply one.

The functions are pure: states are values and nothing here changes one. Each checks its
arguments and hands over to the engine's inner part, :mod:`durak._step`, whose two small caches
(the derived facts of the last state asked about, and per-rules tables) are read into locals
before use, so calling the engine from several threads is safe.

One legality source: the listing. :func:`legal_actions` lists each player's actions from the
rule modules (their candidates, passed through their checks); :func:`is_legal`, :func:`check`
and the check inside :func:`apply` accept exactly the listed actions, and for any other
:func:`check` and the error of :func:`apply` give the rule the modules say it breaks.

>>> from durak import Rules, new_game, legal_actions, apply, next_actor
>>> state = new_game(Rules(players=2), seed=7)
>>> actor = next_actor(state)
>>> action = legal_actions(state, actor)[0]
>>> state = apply(state, action)
>>> len(state.table)
1
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence, Set

from durak._deal import Stream, deal_state
from durak._input import brief, check_data, facts_from_json
from durak._step import (
    _NO_CARDS,
    _apply,
    _bout,
    _decides,
    _listed,
    _listing,
    _plan,
    _refusal,
    _sorted,
)
from durak.actions import _KIND_TYPES as _ACTION_TYPES
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
    is_action,
)
from durak.cards import Card, Suit, parse_cards
from durak.errors import PositionError, RulesError, check_seat
from durak.events import Event
from durak.messages import Message, as_message, message
from durak.rules.beating import forbidder
from durak.rules.bout import Bout
from durak.rules.families import Seating, gives_own, lowest_trump
from durak.rules.settings import Rules
from durak.rules.shared import one
from durak.state import Extra, GameState, Pair, Result, evolve, use_one_actor

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


# --------------------------------------------------------------------------------------------
# Set-up (R2, R3)
# --------------------------------------------------------------------------------------------


#: The longest seed text (and the most digits of an integer seed) accepted (R2.5).
MAX_SEED_LENGTH = 4000


def _check_seed(seed: object) -> int | str:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RulesError("seed", f"must be an integer or a string, not {brief(seed)}")
    if isinstance(seed, int):
        if seed.bit_length() > MAX_SEED_LENGTH * 10 // 3:  # about MAX_SEED_LENGTH digits
            raise RulesError(
                "seed", f"{brief(seed)} is too long (at most {MAX_SEED_LENGTH} digits)"
            )
    elif len(seed) > MAX_SEED_LENGTH:
        raise RulesError(
            "seed", f"{brief(seed)} is too long (at most {MAX_SEED_LENGTH} characters)"
        )
    return seed


def shuffled_deck(rules: Rules, seed: int | str) -> tuple[Card, ...]:
    """The deck order (top card first) that ``seed`` gives under ``rules`` (R2.5).

    The algorithm is frozen: the canonical deck (:func:`~durak.cards.build_deck`, or the cards
    the rule modules' :meth:`~durak.rules.modules.RuleModule.deck` hooks give) is shuffled by
    Fisher-Yates (from the last position down) with numbers drawn from SHA-256 of
    ``"durak-shuffle-v1:<seed>:<counter>"`` (counter 0, 1, 2 ...; each digest read as four
    big-endian 64-bit numbers; rejection sampling for uniform choices). The same seed gives the
    same order in every release.

    Raises:
        TypeError: ``rules`` is not a :class:`Rules` object.
        RulesError: a seed that is neither an integer nor a string, or longer than
            :data:`MAX_SEED_LENGTH`.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
    cards = list(_plan(rules).deck)
    Stream(_check_seed(seed)).shuffle(cards)
    return tuple(cards)


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
        raise RulesError("dealer", f"must be a seat 0-{n - 1}, not {brief(dealer)}")
    if attacker is not None and (
        isinstance(attacker, bool) or not isinstance(attacker, int) or not 0 <= attacker < n
    ):
        raise RulesError("attacker", f"must be a seat 0-{n - 1}, not {brief(attacker)}")
    if seed is not None and deck is not None:
        raise RulesError("seed", "give a seed or a deck order, not both (R2.5)")
    if deck is not None:
        if isinstance(deck, Set | Mapping):
            raise TypeError(
                f"deck: an explicit deck order is a sequence, not a {type(deck).__name__} "
                "(which has no order)"
            )
        order = list(parse_cards(deck))
        _check_cards(rules, order, "deck")
        return deal_state(rules, dealer, order, None, 0, attacker)
    key = _check_seed(seed) if seed is not None else secrets.randbelow(1 << 63)
    return deal_state(rules, dealer, None, key, 0, attacker)


def _check_cards(rules: Rules, cards: Sequence[Card], what: str) -> None:
    """Every card of the rules' deck(s) exactly once (R1.2, R13.4)."""
    expected = set(_plan(rules).deck)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise PositionError(message("position.card-twice", field=what, card=card))
        if card not in expected:
            raise PositionError(
                message(
                    "position.card-not-in-deck",
                    field=what,
                    card=card,
                    decks=rules.decks,
                    size=rules.deck_size,
                )
            )
        seen.add(card)
    missing = sorted(expected - seen, key=lambda c: c.sort_key)
    if missing:
        shown = tuple(missing[:8])
        if len(missing) > 8:
            raise PositionError(
                message("position.cards-missing-more", field=what, n=len(missing), cards=shown)
            )
        raise PositionError(
            message("position.cards-missing", field=what, n=len(missing), cards=shown)
        )


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
        raise PositionError(message("position.table-not-pairs", given=brief(table)))
    out: list[Pair] = []
    for pair in table:
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise PositionError(message("position.table-not-pair", given=brief(pair)))
        attack = Card.parse(pair[0]) if isinstance(pair[0], str) else pair[0]
        beat = Card.parse(pair[1]) if isinstance(pair[1], str) else pair[1]
        if not isinstance(attack, Card) or not (beat is None or isinstance(beat, Card)):
            raise PositionError(message("position.table-not-cards", given=brief(pair)))
        out.append((attack, beat))
    return tuple(out)


def _seat(name: str, value: object, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise PositionError(
            message("position.not-a-seat", field=name, high=n - 1, given=brief(value))
        )
    return value


def _seats(name: str, values: Iterable[object], n: int) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise PositionError(message("position.not-seats", field=name, given=brief(values)))
    return tuple(_seat(name, v, n) for v in values)


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _COUNT_BOUND:
        raise PositionError(message("position.not-a-count", field=name, given=brief(value)))
    return value


#: The bound of a position's counts (bouts, defences, H of R4.6, shuffles), as of seats.
_COUNT_BOUND = 2**31


def new_position(
    rules: Rules,
    *,
    hands: Sequence[Sequence[Card | str] | str],
    stock: Sequence[Card | str] | str = (),
    trump: Suit | str | None = None,
    attacker: int,
    discard: Sequence[Card | str] | str = (),
    trump_card: Card | str | None = None,
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
    extra: Mapping[str, Extra] | Sequence[tuple[str, Extra]] = (),
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
        trump_card: with an empty stock, the card that fixed trump and was seen by all (the
            drawn face-up card, or the dealer's shown card of a full deal, R2.4); with a stock
            it is the stock's last card and need not be given, unless the stock holds jokers
            alone: then it is the dealt card that fixed trump, in a hand (R15.1).
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
        extra: the rule modules' facts (:attr:`GameState.extra`): a mapping of names to values
            or ``(name, value)`` pairs, each name once; values are numbers, text, booleans,
            ``None`` and tuples (or lists) of them. The position is checked with them, since
            some modules' rules read them (R15.5's benched thrower counts as passed).

    Raises:
        PositionError: naming the field (and the rule): a card missing or given twice, a seat
            count that does not match ``rules.players``, a missing or contradicting trump, and
            every contradiction :func:`validate_state` finds (an attacker who cannot lead, a
            defender who holds no card, more attack cards than R4.6 allows, a beating card that
            does not beat, a bout that R4.10 would already have ended, ...).
        InvalidCardError: a card that does not parse.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {brief(rules)}")
    n = rules.players
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
        count = len(hands) if isinstance(hands, Sequence) and not isinstance(hands, str) else 0
        raise PositionError(message("position.hands-count", count=count, n=n))
    hand_cards = [parse_cards(h) for h in hands]
    stock_cards = parse_cards(stock)
    discard_cards = parse_cards(discard)
    pairs = _parse_table(table)
    if trump is not None and not isinstance(trump, Suit):
        trump = Suit.parse(trump)
    face_up: Card | None = None
    if trump_card is not None:
        face_up = Card.parse(trump_card) if isinstance(trump_card, str) else trump_card
        if not isinstance(face_up, Card):
            raise PositionError(message("position.trump-card-not-card", given=brief(trump_card)))
    trump_card = face_up
    # R15.1: a stock of jokers alone has no face-up card; a dealt card fixed trump.
    unturned = bool(stock_cards) and all(c.special for c in stock_cards)
    if stock_cards and not (unturned and trump_card is not None):
        if trump_card is not None and trump_card != stock_cards[-1]:
            raise PositionError(message("position.trump-card-not-face-up", card=trump_card))
        trump_card = stock_cards[-1]
        if trump is not None and trump != trump_card.suit:
            raise PositionError(message("position.trump-contradicts", trump=trump, card=trump_card))
        trump = trump_card.suit
    elif trump is None and trump_card is not None:
        trump = trump_card.suit
    elif trump is None:
        raise PositionError(message("position.no-trump"))
    attacker = _seat("attacker", attacker, n)
    dealer = (attacker - 1) % n if dealer is None else _seat("dealer", dealer, n)
    if places is None:
        between = not pairs
        place_list: tuple[int | None, ...] = tuple(
            1 if between and not h and not stock_cards else None for h in hand_cards
        )
    else:
        if isinstance(places, str) or not isinstance(places, Sequence) or len(places) != n:
            raise PositionError(message("position.places-count", n=n))
        place_list = tuple(None if x is None else _count("places", x) for x in places)
    active = [
        place_list[i] is None and (bool(h) or bool(stock_cards)) for i, h in enumerate(hand_cards)
    ]
    if defender is None:
        found = _plan(rules).next_opponent(rules, active, attacker)
        if found is None:
            if sum(active) < 2:
                raise PositionError(message("position.game-over-hands"))
            raise PositionError(message("position.game-over-team"))
        defender = found
    defender = _seat("defender", defender, n)
    if not isinstance(first_bout, bool):
        raise PositionError(
            message("position.not-bool", field="first_bout", given=brief(first_bout))
        )
    if bouts is None:
        bouts = 0 if first_bout else 1
    elif first_bout and bouts != 0:
        raise PositionError(message("position.first-bout-bouts", given=brief(bouts)))
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
        raise PositionError(message("position.not-bool", field="taken", given=brief(taken)))
    if known is None:
        # A face-up card drawn or shown in a full deal is known in its holder's hand (R2.4, R5.2).
        known_sets = tuple(
            frozenset({trump_card})
            if trump_card is not None
            and (not stock_cards or stock_cards[-1] != trump_card)
            and trump_card in h
            else _NO_CARDS
            for h in hand_cards
        )
    else:
        if isinstance(known, str) or not isinstance(known, Sequence) or len(known) != n:
            raise PositionError(message("position.known-count", n=n))
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
        extra=_facts(extra),
    )
    validate_state(state)
    return state


def _facts(extra: object) -> tuple[tuple[str, Extra], ...]:
    """``new_position``'s ``extra`` as :attr:`GameState.extra` holds it: pairs sorted by name,
    read as a saved state's are (:func:`durak._input.facts_from_json`, within the same limits
    of nesting and size)."""
    def error(where: str, reason: str) -> PositionError:
        return PositionError(message("error.at", where=where, reason=as_message(reason)))

    check_data(extra, lambda at, why: error(f"extra/{at}" if at else "extra", why))
    facts: tuple[tuple[str, Extra], ...] = facts_from_json(extra, error, "extra")
    return facts


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
        raise PositionError(message("position.rules-type", given=brief(rules)))
    if not isinstance(s.trump, Suit):
        raise PositionError(message("position.trump-not-suit", given=brief(s.trump)))
    _validate_forms(s)
    n = rules.players
    for name in ("hands", "places"):
        if len(getattr(s, name)) != n:
            raise PositionError(message("position.entries-count", field=name, n=n))
    if len(s.known) != n:
        raise PositionError(message("position.known-count", n=n))
    for name in ("joined", "passed"):
        for p in getattr(s, name):
            _seat(name, p, n)
    _check_cards(rules, s.all_cards(), "position")
    for name in ("dealer", "attacker", "defender", "leader"):
        _seat(name, getattr(s, name), n)
    for name in ("bouts", "defences", "defender_hand", "shuffles"):
        _count(name, getattr(s, name))
    if s.defences > s.bouts:
        raise PositionError(message("position.defences-over", count=s.defences, limit=s.bouts))
    for p, place in enumerate(s.places):
        if place is not None and (isinstance(place, bool) or not 1 <= place <= n):
            raise PositionError(message("position.place-range", seat=p, given=brief(place), high=n))
    for p in s.left:
        _seat("left", p, n)
        if s.places[p] is None:
            raise PositionError(message("position.left-no-place", seat=p))
    if s.result is None:
        _validate_places(s)
    for p, cards in enumerate(s.known):
        stray = sorted(c for c in cards if c not in s.hands[p])
        if stray:
            raise PositionError(message("position.known-stray", card=stray[0], seat=p))
        face_up = s.trump_card
        shown = face_up is not None and s.face_up is None  # drawn, or it never lay face up
        if shown and face_up in s.hands[p] and face_up not in cards:
            raise PositionError(message("position.known-face-up", card=face_up, seat=p))
    if s.trump_card is not None:
        if s.trump_card.suit != s.trump:
            raise PositionError(message("position.trump-card-suit", card=s.trump_card))
        # R15.1: with jokers alone in the stock, a dealt card fixed trump (held or played since)
        if s.stock and s.stock[-1] != s.trump_card and not all(c.special for c in s.stock):
            raise PositionError(message("position.trump-card-not-face-up", card=s.trump_card))
    elif s.stock:
        raise PositionError(message("position.no-face-up"))
    for card in s.exchange:
        if card & 63 != lowest_trump(rules, s.trump) or not any(card in h for h in s.hands):
            raise PositionError(message("position.exchange", card=card))
    for module in _plan(rules).validators:
        reason = module.validate(s)
        if reason is not None:
            raise PositionError(reason)
    if s.result is not None:
        if s.table:
            raise PositionError(message("position.over-table"))
        if s.places != s.result.places:
            raise PositionError(message("position.over-places"))
        return state
    return _validate_play(state)


#: The fields of a state that hold tuples and frozensets: a state is a value (hashable), and
#: the engine, compiled or not, reads them as such.
_TUPLE_FIELDS = ("hands", "stock", "table", "discard", "joined", "places", "known", "extra")
_FROZENSET_FIELDS = ("passed", "shown", "exchange", "left")


def _validate_forms(s: GameState) -> None:
    """The containers of a state built by hand (``GameState(...)``, ``attrs.evolve``): tuples
    and frozensets where the fields say so, ``taken`` a bool."""
    for name in _TUPLE_FIELDS:
        if not isinstance(getattr(s, name), tuple):
            found = type(getattr(s, name)).__name__
            raise PositionError(message("position.form", field=name, kind="tuple", given=found))
    for name in _FROZENSET_FIELDS:
        if not isinstance(getattr(s, name), frozenset):
            found = type(getattr(s, name)).__name__
            raise PositionError(message("position.form", field=name, kind="frozenset", given=found))
    for name, parts, kind in (
        ("hands", s.hands, tuple),
        ("table", s.table, tuple),
        ("known", s.known, frozenset),
    ):
        for part in parts:
            if not isinstance(part, kind):
                raise PositionError(
                    message(
                        "position.entry-form",
                        field=name,
                        kind=kind.__name__,
                        given=type(part).__name__,
                    )
                )
    if not isinstance(s.taken, bool):
        raise PositionError(message("position.not-bool", field="taken", given=brief(s.taken)))
    for name, cards in (
        ("hands", (c for hand in s.hands for c in hand)),
        ("stock", s.stock),
        ("discard", s.discard),
        ("table", (c for pair in s.table for c in pair[:1])),
        ("shown", s.shown),
        ("exchange", s.exchange),
        ("known", (c for known in s.known for c in known)),
    ):
        for card in cards:
            if type(card) is not Card:
                raise PositionError(message("position.card-form", field=name, given=brief(card)))
    for pair in s.table:
        if len(pair) != 2 or not (pair[1] is None or type(pair[1]) is Card):
            raise PositionError(message("position.table-not-cards", given=brief(pair)))
    if not (s.trump_card is None or type(s.trump_card) is Card):
        raise PositionError(
            message("position.or-none", field="trump_card", kind="Card", given=brief(s.trump_card))
        )
    if not (s.result is None or isinstance(s.result, Result)):
        raise PositionError(
            message("position.or-none", field="result", kind="Result", given=brief(s.result))
        )


def _validate_places(s: GameState) -> None:
    """R7.1, R7.2, R10.3 in a running game: a placed seat went out (no cards) or left with a
    partner who went out at the same bout end (cards, same place); places follow R7.2."""
    rules = s.rules
    placed = [(place, p) for p, place in enumerate(s.places) if place is not None]
    for place, p in placed:
        earlier = sum(1 for q, _ in placed if q < place)
        if place != 1 + earlier:
            raise PositionError(
                message(
                    "position.place-order", seat=p, count=place, limit=earlier, expected=1 + earlier
                )
            )
        if p in s.left:
            partner = [
                q
                for q in range(rules.players)
                if q != p and not rules.opponents(p, q) and s.places[q] == place and q not in s.left
            ]
            if not s.hands[p] or not partner:
                raise PositionError(message("position.left-partner", seat=p, count=place))
        elif s.hands[p]:
            raise PositionError(message("position.placed-with-cards", seat=p))
    if (
        placed
        and _plan(rules).settle(
            rules,
            [None] * rules.players,
            frozenset(),
            [p for _, p in placed if p not in s.left],
            -1,
        )[2]
        is not None
    ):
        # The game would already be over at the bout end that placed them (R7.3, R10.3).
        raise PositionError(message("position.places-over"))


def _validate_play(s: GameState) -> GameState:
    """The checks of :func:`validate_state` for a game in progress."""
    rules = s.rules
    n = rules.players
    b = Bout(s, _plan(s.rules))
    active = b.active
    alive = [p for p in range(n) if active[p]]
    if not s.table and len({rules.team_of(p) for p in alive}) < 2:
        # Between bouts; during one, players who emptied their hands play no more (R7.1) but
        # the bout goes on until it ends (R4.10).
        raise PositionError(message("position.places-too-few"))
    if s.defender == s.attacker or not rules.opponents(s.attacker, s.defender):
        raise PositionError(message("position.defender-own", seat=s.defender, other=s.attacker))
    for attack, card in s.table:
        if card is not None and not b.table[(attack & 63) * 64 + (card & 63)]:
            module = forbidder(card, attack, s.trump, rules, b.plan.modules)
            rule = "R4.7" if module is None else module.rule or f"house:{module.name}"
            raise PositionError(message("position.no-beat", card=card, attack=attack, rule=rule))
    if s.table and b.over():
        raise PositionError(message("position.bout-over"))
    if not active[s.attacker] and not s.table:
        raise PositionError(message("position.attacker-out", seat=s.attacker))
    if not active[s.defender]:
        raise PositionError(message("position.defender-out", seat=s.defender))
    if not s.table:
        if not s.hands[s.attacker]:
            raise PositionError(message("position.attacker-empty", seat=s.attacker))
        if not s.hands[s.defender]:
            raise PositionError(message("position.defender-empty", seat=s.defender))
        for name in ("taken", "passed", "shown", "joined"):
            if getattr(s, name):
                raise PositionError(message("position.no-bout", field=name))
        return s
    if len(s.table) > b.limit:
        raise PositionError(
            message(
                "position.over-limit",
                n=len(s.table),
                limit=b.limit,
                cap=b.cap,
                hand=s.defender_hand,
            )
        )
    if b.unbeaten > len(s.hands[s.defender]) and not s.taken:
        raise PositionError(
            message("position.over-hand", n=b.unbeaten, hand=len(s.hands[s.defender]))
        )
    book = set(b.plan.owners) <= _BOOK_KINDS
    # A module's own action may take attack cards back from the table (R15.5 catches one):
    # a take may stand with every card left beaten, and seats may have joined with a card
    # no longer there.
    if s.taken and not b.unbeaten and book:
        raise PositionError(message("position.taken-beaten"))
    if not s.joined or s.joined[0] != s.leader or len(set(s.joined)) != len(s.joined):
        raise PositionError(message("position.joined-form"))
    plan = b.plan
    expected = plan.next_opponent(rules, active, s.attacker)
    # A module that sends transfers elsewhere (R15.3) makes other defenders reachable.
    clockwise = gives_own(plan.transfer_target, "transfer_target", Seating)
    # After a shown trump sent there, the attack may be back with its leader and on to anyone.
    if s.defender != expected and (clockwise or (s.attacker == s.leader and not s.shown)):
        if gives_own(plan.next_opponent, "next_opponent", Seating):
            raise PositionError(
                message(
                    "position.defender-clockwise",
                    seat=s.defender,
                    other=s.attacker,
                    expected=expected,
                )
            )
        raise PositionError(
            message(
                "position.defender-next",
                seat=s.defender,
                other=s.attacker,
                expected=expected,
            )
        )
    if s.defender_hand != len(s.hands[s.defender]) + b.beaten:
        raise PositionError(
            message(
                "position.defender-hand",
                hand=s.defender_hand,
                count=len(s.hands[s.defender]),
                n=b.beaten,
            )
        )
    if len(s.joined) > len(s.table) and book:
        raise PositionError(message("position.joined-count", count=len(s.joined), n=len(s.table)))
    transfers = any(k in plan.owners for k in (Transfer, ShowTrump))
    if s.leader == s.defender and not transfers:
        raise PositionError(message("position.leader-defends", seat=s.leader))
    if not plan.throw_filters:
        for i, (attack, _) in enumerate(s.table[1:], start=1):
            others = {c & 15 for j, pair in enumerate(s.table) if j != i for c in pair if c}
            if attack & 15 not in others:
                raise PositionError(message("position.rank-alone", card=attack))
    owner = plan.owners.get(Pass)
    for p in sorted(s.passed):
        if p not in b.throwers or owner is None:
            raise PositionError(message("position.passed-not-thrower", seat=p))
        before = Bout(evolve(s, {"passed": s.passed - {p}}), plan)
        bad = owner.violation(before, one(Pass, p))
        # A standing pass need not still be one he could make: the trump-six exchange (R12.1)
        # may have taken the card he could add, with the table unchanged (R4.9).
        if bad is not None and bad[0] != "R4.9":
            raise PositionError(
                message("position.passed-illegal", seat=p, reason=bad[1], rule=bad[0])
            )
    rank = s.table[0][0] & 15
    for card in s.shown:
        if (
            card.special
            or card.suit != s.trump
            or card & 15 != rank
            or ShowTrump not in plan.owners
        ):
            raise PositionError(message("position.shown", card=card))
    return s


#: The rule book's action kinds (R4, R9, R12).
_BOOK_KINDS = frozenset(
    {Lead, ThrowIn, Pass, Beat, Take, Transfer, ShowTrump, ExchangeTrump, Redeal}
)


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


def _need_action(action: object) -> None:
    if not is_action(action):
        raise TypeError(
            f"not an action: {brief(action)} (expected Lead, ThrowIn, Beat, Take, Pass, "
            "Transfer, ShowTrump, ExchangeTrump, Redeal or a registered kind; "
            "durak.notation.parse_action reads text)"
        )


# --------------------------------------------------------------------------------------------
# The bout's derived facts, computed once per state and call
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# The rule checks: the one legality source
# --------------------------------------------------------------------------------------------


def check(state: GameState, action: Action) -> tuple[str, Message] | None:
    """The first rule ``action`` breaks in ``state``, as ``(rule id, reason)``, or ``None`` if it
    is legal: ``None`` exactly for the actions :func:`legal_actions` lists, which are the ones
    :func:`apply` accepts. The reason is a :class:`~durak.messages.Message` (a house rule's
    plain-text reason has the code ``other``), as :class:`~durak.errors.IllegalActionError`'s.

    Raises:
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    _need_state(state)
    _need_action(action)
    bad = _refusal(_bout(state), action)
    return None if bad is None else (bad[0], as_message(bad[1]))


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal in ``state`` (R13.1): whether :func:`legal_actions` lists it.

    Raises:
        TypeError: ``state`` is not a state or ``action`` is not an action.
    """
    _need_state(state)
    _need_action(action)
    return _listed(_bout(state), action)


def legal_actions(state: GameState, player: int | None = None) -> tuple[Action, ...]:
    """Every legal action of every player (R13.1), or only ``player``'s.

    Returns:
        The actions in a fixed order: by seat, then by the rule module that offers them
            (for the rule book's: exchange, redeal, leads, beats, transfers, shown trumps,
            take, throw-ins, pass); cards in card order. Empty once the game is over.

    Raises:
        TypeError: ``state`` is not a state, or ``player`` is not a seat number.
        SeatError: ``player`` is not a seat of this game (also an :class:`IndexError`).
    """
    if type(state) is not GameState:
        _need_state(state)
    if player is not None:
        check_seat(player, len(state.hands))
    return _listing(state, player)


def acting(state: GameState) -> tuple[int, ...]:
    """The players who may act now on the table (R13.1), in seat order: the attacker before the
    lead; the defender while he faces an unbeaten card and has not taken; every thrower with a
    legal throw-in (R4.4, R4.5, R4.9). Rights only their holder knows of, the trump-six exchange
    and a misdeal redeal (R12), are left out, so the answer follows from public facts alone. The
    same legality as :func:`legal_actions` decides (one legality source).

    Raises:
        TypeError: ``state`` is not a state.
    """
    _need_state(state)
    if state.result is not None:
        return ()
    b = _bout(state)
    if not state.table:
        return (state.attacker,) if _decides(b, state.attacker) else ()
    seats = {p for p in b.throwers if _decides(b, p)}
    if b.unbeaten and not state.taken and _decides(b, state.defender):
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
        RulesError: a rule module forbids every action of a running game (``house_rules``).
    """
    _need_state(state)
    if state.result is not None:
        return None
    s = state
    b = _bout(s)
    if not s.table:
        if _decides(b, s.attacker):
            return s.attacker
    else:
        if not s.taken and b.unbeaten and _decides(b, s.defender):
            return s.defender
        for p in b.throwers:  # clockwise from the main attacker, who comes first
            if _decides(b, p):
                return p
    raise RulesError(
        "house_rules",
        "no player has a legal action in a running game: a rule module forbids every action "
        "of the defender or the throwers (R13.4)",
    )


# --------------------------------------------------------------------------------------------
# Applying an action
# --------------------------------------------------------------------------------------------


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
    if type(state) is not GameState:
        _need_state(state)
    if type(action) not in _ACTION_TYPES:
        _need_action(action)
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
    _need_state(state)
    _need_action(action)
    log: list[Event] = []
    new = _apply(state, action, log)
    return new, tuple(log)


use_one_actor(next_actor)  # GameState.actor() asks the engine through this hook (R13.2)
