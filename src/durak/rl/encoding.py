"""The fixed action encoding and the observation tensor shared by the RL adapters.

Both :mod:`durak.rl.pettingzoo_env` and :mod:`durak.rl.openspiel_game` use this module, so an
action id and an observation mean the same in both. It needs ``numpy`` (in both extras).

Supported rules
---------------
An action id stands for an action that carries at most one card. Rules whose actions may carry
several cards, ``lead = same_rank`` (R4.2) and ``transfer_several`` (R9.4), would need one id per
subset of a hand; they are rejected with :class:`UnsupportedRulesError` (see
:func:`check_supported`). Every other setting, preset and house rule is supported.

Cards
-----
``N = rules.deck_size * rules.decks`` physical cards, numbered ``0 .. N-1`` in the order of
:func:`durak.build_deck` (copy, then suit clubs-diamonds-hearts-spades, then rank from the lowest):
:func:`card_index` and :func:`index_card`. With 36 cards ``6c`` is 0, ``Ac`` is 8, ``6d`` is 9,
``As`` is 35; with two decks ``6c#2`` is 36.

Action ids
----------
``S = table_slots(rules) = min(N, max(max_attack, first_bout_max or 0))`` is the most attack cards
a bout can ever hold (R4.6, R9.2). The action space is ``Discrete(A)``,
``A = action_space_size(rules) = 3 + N * (S + 4)`` (363 for 36 cards with the default limits,
523 for 52 cards, 723 for two 36-card decks):

=================  =========  =================================================================
offset             length     action
=================  =========  =================================================================
``0``              1          :class:`~durak.Take` (R4.8)
``1``              1          :class:`~durak.Pass` (R4.9)
``2``              1          :class:`~durak.Redeal` (R12.2)
``3``              ``N``      attack with card ``i``: :class:`~durak.Lead` of that single card
                              while the table is empty, else :class:`~durak.ThrowIn` (R4.2,
                              R4.3); the two are never legal at the same time
``3+N``            ``S*N``    beat: id ``3 + N + j*N + i`` beats the attack card in table slot
                              ``j`` with card ``i`` (R4.7); slot ``j`` is the ``j``-th pair of
                              ``state.table``, in the order the attack cards were played
``3+N+S*N``        ``N``      :class:`~durak.Transfer` with card ``i`` (R9.1)
``3+2N+S*N``       ``N``      :class:`~durak.ShowTrump` of card ``i`` (R9.5)
``3+3N+S*N``       ``N``      :class:`~durak.ExchangeTrump` of card ``i`` (R12.1)
=================  =========  =================================================================

Why slots for beating: a beat names two cards. All (attack, card) pairs would take ``N*N`` ids
(10,816 for two 52-card decks) and pairs "that can beat" depend on the trump, which is known only
after the deal. The attack cards of a bout sit in at most ``S`` table slots, so ``S*N`` ids name
every beat exactly, whatever the trump, and the observation shows which card lies in which slot
(piece ``table_slots``). :func:`action_layout` returns this table as data.

The encoding is a bijection between one player's legal actions and the set ids of
:func:`legal_mask`: :func:`decode` of an id gives the action, :func:`encode` of an action gives
its id. Decoding does not check legality; :func:`durak.apply` does.

Observation tensor
------------------
:func:`observation` turns one :class:`~durak.PlayerView` (what ``view(state, player)`` lets the
player know, R13) into a flat ``float32`` vector with values in ``[0, 1]``; nothing else is read,
so hidden cards stay hidden. Seats are relative: row ``k`` of a per-seat piece is seat
``(player + k) % n``, so row 0 is the observing player. :func:`observation_layout` lists the
pieces in order (``name``, ``offset``, ``shape``, ``description``); with ``n`` players:

=================  ===============  ===========================================================
piece              shape            meaning (1 = yes; card planes are indexed by card index)
=================  ===============  ===========================================================
``hand``           ``(N,)``         the player's own hand
``known``          ``(n, N)``       cards every player knows seat ``k`` holds (shown trumps,
                                    the drawn face-up trump, cards picked up in a take); row 0
                                    is what the others know of the player's own hand
``table_attack``   ``(N,)``         attack cards on the table, beaten or not
``table_unbeaten`` ``(N,)``         attack cards not yet beaten
``table_beating``  ``(N,)``         cards that beat an attack card
``table_slots``    ``(S, 2, N)``    per table slot ``j``: ``[j, 0]`` its attack card, ``[j, 1]``
                                    the card that beat it (the beat ids refer to these slots)
``discard``        ``(N,)``         the discard pile (public, R4.10)
``trump_card``     ``(N,)``         the card that fixed trump (face up, so public, R2.4)
``shown``          ``(N,)``         trumps shown for a transfer in this bout (R9.5)
``exchange``       ``(N,)``         own cards that give the trump-six exchange (R12.1)
``unseen``         ``(N,)``         cards the player cannot locate: the stock below the face-up
                                    card and the other hands' unknown cards
``seats``          ``(n, 13)``      per relative seat: hand size / N, attacker, defender, leader,
                                    dealer, thrower, done, passed, joined, active, out, partner,
                                    next actor (the column names are :data:`SEAT_FEATURES`)
``trump_suit``     ``(4,)``         one-hot trump suit (clubs, diamonds, hearts, spades)
``scalars``        ``(9,)``         stock size / N, table size / S, attack limit / S,
                                    defender's ``H`` / N, taken, first bout, a defence has
                                    succeeded, game over, face-up trump card still in the stock
                                    (names: :data:`SCALAR_FEATURES`)
=================  ===============  ===========================================================

Its size is ``N * (n + 2*S + 9) + 13*n + 13`` (867 for two players and 36 cards).

>>> from durak import Rules, new_game, next_actor, legal_actions, view
>>> rules = Rules()
>>> action_space_size(rules), observation_size(rules)
(363, 867)
>>> state = new_game(rules, seed=1)
>>> actor = next_actor(state)
>>> ids = legal_ids(state, actor)
>>> [decode(i, state) for i in ids] == list(legal_actions(state, actor))
True
>>> observation(view(state, actor)).shape
(867,)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import attrs
import numpy as np
import numpy.typing as npt

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
from durak.cards import DECK_SIZES, Card, build_deck
from durak.engine import legal_actions, next_actor
from durak.errors import RulesError
from durak.rules.settings import Lead as LeadSetting
from durak.rules.settings import Rules
from durak.state import GameState
from durak.views import PlayerView, view

__all__ = [
    "EXCHANGE",
    "PASS",
    "REDEAL",
    "SCALAR_FEATURES",
    "SEAT_FEATURES",
    "TAKE",
    "Piece",
    "UnsupportedRulesError",
    "action_layout",
    "action_space_size",
    "card_index",
    "check_supported",
    "decode",
    "describe",
    "encode",
    "index_card",
    "legal_ids",
    "legal_mask",
    "observation",
    "observation_layout",
    "observation_size",
    "observe",
    "table_slots",
    "view_mask",
]

#: The fixed ids.
TAKE = 0
PASS = 1
REDEAL = 2
_ATTACK = 3  # first id of the attack block

#: Column names of the ``seats`` piece, in order.
SEAT_FEATURES: tuple[str, ...] = (
    "hand_size",
    "attacker",
    "defender",
    "leader",
    "dealer",
    "thrower",
    "done",
    "passed",
    "joined",
    "active",
    "out",
    "partner",
    "next_actor",
)

#: Names of the ``scalars`` piece, in order.
SCALAR_FEATURES: tuple[str, ...] = (
    "stock_size",
    "table_size",
    "attack_limit",
    "defender_hand",
    "taken",
    "first_bout",
    "defended",
    "game_over",
    "face_up_in_stock",
)

#: The block name of the exchange ids (for :func:`action_layout` look-ups).
EXCHANGE = "exchange"

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


class UnsupportedRulesError(RulesError):
    """Rules the RL adapters cannot encode: an action of them may carry several cards."""


@attrs.frozen
class Piece:
    """One piece of a flat layout (an observation tensor or the action ids).

    Attributes:
        name: the piece's name, e.g. ``"hand"``.
        offset: its first index in the flat vector.
        shape: its shape; it fills ``prod(shape)`` consecutive entries.
        description: what the entries mean.
    """

    name: str
    offset: int
    shape: tuple[int, ...]
    description: str

    @property
    def length(self) -> int:
        """The number of entries, ``prod(shape)``."""
        size = 1
        for dim in self.shape:
            size *= dim
        return size

    @property
    def end(self) -> int:
        """One past the last index: ``offset + length``."""
        return self.offset + self.length


def check_supported(rules: Rules) -> None:
    """Raise if the adapters cannot encode ``rules``' actions.

    Raises:
        UnsupportedRulesError: ``lead = same_rank`` (R4.2) or ``transfer_several`` (R9.4): an
            action could carry several cards, which the fixed action ids do not name.
    """
    if rules.lead is not LeadSetting.SINGLE:
        raise UnsupportedRulesError(
            "lead",
            "the RL adapters support lead = single only: a lead of several cards of one rank "
            "(R4.2) has no action id",
        )
    if rules.transfer_several:
        raise UnsupportedRulesError(
            "transfer_several",
            "the RL adapters support single-card transfers only: a transfer of several cards "
            "(R9.4) has no action id",
        )


def table_slots(rules: Rules) -> int:
    """``S``: the most attack cards a bout can hold (R4.6, R9.2), capped at the number of cards."""
    return min(rules.cards, max(rules.max_attack, rules.first_bout_max or 0))


def _ranks(rules: Rules) -> int:
    return 15 - DECK_SIZES[rules.deck_size]


def card_index(card: Card, rules: Rules) -> int:
    """The card's index ``0 .. N-1`` in :func:`durak.build_deck` order.

    >>> card_index(Card.parse("Ac"), Rules()), card_index(Card.parse("6d"), Rules())
    (8, 9)

    Raises:
        ValueError: the card is not in the rules' deck(s).
    """
    low = DECK_SIZES[rules.deck_size]
    rank = card & 15
    copy = card >> 6
    if rank < low or copy >= rules.decks:
        raise ValueError(f"{card} is not in the deck of these rules")
    return copy * rules.deck_size + ((card >> 4) & 3) * _ranks(rules) + rank - low


@lru_cache(maxsize=64)
def _deck(rules: Rules) -> tuple[Card, ...]:
    return build_deck(rules.deck_size, rules.decks)


def index_card(index: int, rules: Rules) -> Card:
    """The card with index ``index`` (the inverse of :func:`card_index`).

    Raises:
        IndexError: ``index`` outside ``0 .. N-1``.
    """
    deck = _deck(rules)
    if not 0 <= index < len(deck):
        raise IndexError(f"no card index {index} in a deck of {len(deck)} cards")
    return deck[index]


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------


def _offsets(rules: Rules) -> tuple[int, int, int, int, int, int]:
    """(attack, beat, transfer, show, exchange, end) offsets."""
    n = rules.cards
    s = table_slots(rules)
    beat = _ATTACK + n
    transfer = beat + s * n
    return _ATTACK, beat, transfer, transfer + n, transfer + 2 * n, transfer + 3 * n


def action_space_size(rules: Rules) -> int:
    """``A = 3 + N * (S + 4)``: the number of action ids (see the module docs).

    Raises:
        UnsupportedRulesError: see :func:`check_supported`.
    """
    check_supported(rules)
    return _offsets(rules)[5]


def action_layout(rules: Rules) -> tuple[Piece, ...]:
    """The blocks of action ids, in order (the module docs' table as data).

    Raises:
        UnsupportedRulesError: see :func:`check_supported`.
    """
    check_supported(rules)
    n = rules.cards
    s = table_slots(rules)
    attack, beat, transfer, show, exchange, _ = _offsets(rules)
    return (
        Piece("take", TAKE, (1,), "Take (R4.8)"),
        Piece("pass", PASS, (1,), "Pass (R4.9)"),
        Piece("redeal", REDEAL, (1,), "Redeal (R12.2)"),
        Piece("attack", attack, (n,), "Lead (empty table) or ThrowIn of card i (R4.2, R4.3)"),
        Piece("beat", beat, (s, n), "beat the attack card in table slot j with card i (R4.7)"),
        Piece("transfer", transfer, (n,), "Transfer with card i (R9.1)"),
        Piece("show", show, (n,), "ShowTrump of card i (R9.5)"),
        Piece(EXCHANGE, exchange, (n,), "ExchangeTrump of card i (R12.1)"),
    )


def encode(action: Action, state: GameState | PlayerView) -> int:
    """The id of ``action`` in ``state`` (a beat's id depends on the attack card's table slot).
    A player's view (:func:`durak.view`) does as well as the state: only the rules and the table
    are read.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: the action carries several cards, names a card outside the deck, or beats
            a card that is not an unbeaten attack card on the table.
    """
    rules = state.rules
    check_supported(rules)
    n = rules.cards
    attack, beat, transfer, show, exchange, _ = _offsets(rules)
    match action:
        case Take():
            return TAKE
        case Pass():
            return PASS
        case Redeal():
            return REDEAL
        case Lead(cards=cards):
            if len(cards) != 1:
                raise ValueError(f"{action} leads several cards, which has no action id")
            return attack + card_index(cards[0], rules)
        case ThrowIn(card=card):
            return attack + card_index(card, rules)
        case Beat(attack=target, card=card):
            for slot, pair in enumerate(state.table):
                if pair == (target, None):
                    return beat + slot * n + card_index(card, rules)
            raise ValueError(f"{action}: {target} is not an unbeaten attack card on the table")
        case Transfer(cards=cards):
            if len(cards) != 1:
                raise ValueError(f"{action} transfers several cards, which has no action id")
            return transfer + card_index(cards[0], rules)
        case ShowTrump(card=card):
            return show + card_index(card, rules)
        case ExchangeTrump(card=card):
            return exchange + card_index(card, rules)
    raise TypeError(f"not an action: {action!r}")


def decode(index: int, state: GameState, player: int | None = None) -> Action:
    """The action with id ``index`` for ``player`` in ``state``; ``player`` defaults to
    :func:`durak.next_actor` (R13.2). The action is not checked for legality.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: ``index`` is outside ``0 .. A-1``, the game is over and no player is given,
            or a beat id names an empty table slot.
    """
    rules = state.rules
    check_supported(rules)
    index = int(index)
    attack, beat, transfer, show, exchange, end = _offsets(rules)
    if not 0 <= index < end:
        raise ValueError(f"action id {index} is outside 0-{end - 1}")
    if player is None:
        player = next_actor(state)
        if player is None:
            raise ValueError("the game is over: no player acts")
    n = rules.cards
    if index == TAKE:
        return Take(player)
    if index == PASS:
        return Pass(player)
    if index == REDEAL:
        return Redeal(player)
    if index < beat:
        card = index_card(index - attack, rules)
        return ThrowIn(player, card) if state.table else Lead(player, (card,))
    if index < transfer:
        slot, i = divmod(index - beat, n)
        if slot >= len(state.table):
            raise ValueError(
                f"action id {index} beats table slot {slot}, but the table holds "
                f"{len(state.table)} attack card(s)"
            )
        return Beat(player, state.table[slot][0], index_card(i, rules))
    if index < show:
        return Transfer(player, (index_card(index - transfer, rules),))
    if index < exchange:
        return ShowTrump(player, index_card(index - show, rules))
    return ExchangeTrump(player, index_card(index - exchange, rules))


def describe(index: int, rules: Rules) -> str:
    """A text for action id ``index`` that needs no state, e.g. ``"attack 7h"``,
    ``"beat slot 2 with 9h"``, ``"take"``.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: ``index`` is outside ``0 .. A-1``.
    """
    check_supported(rules)
    attack, beat, transfer, show, exchange, end = _offsets(rules)
    index = int(index)
    if not 0 <= index < end:
        raise ValueError(f"action id {index} is outside 0-{end - 1}")
    if index < attack:
        return ("take", "pass", "redeal")[index]
    if index < beat:
        return f"attack {index_card(index - attack, rules)}"
    if index < transfer:
        slot, i = divmod(index - beat, rules.cards)
        return f"beat slot {slot} with {index_card(i, rules)}"
    if index < show:
        return f"transfer {index_card(index - transfer, rules)}"
    if index < exchange:
        return f"show {index_card(index - show, rules)}"
    return f"exchange {index_card(index - exchange, rules)}"


def legal_ids(state: GameState, player: int) -> list[int]:
    """The ids of ``player``'s legal actions (:func:`durak.legal_actions`), sorted ascending.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        IndexError: ``player`` is not a seat.
    """
    return sorted(encode(a, state) for a in legal_actions(state, player))


def legal_mask(state: GameState, player: int) -> Mask:
    """A boolean vector of length ``A``: true at the ids of ``player``'s legal actions.

    Every legal action of ``player`` counts (R13.1), not only the next actor's; the adapters
    zero the mask of players who are not :func:`durak.next_actor`.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        IndexError: ``player`` is not a seat.
    """
    mask = np.zeros(action_space_size(state.rules), dtype=np.bool_)
    for a in legal_actions(state, player):
        mask[encode(a, state)] = True
    return mask


def view_mask(v: PlayerView) -> Mask:
    """:func:`legal_mask` from a player's view (its ``legal_actions``); all false for an onlooker.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
    """
    mask = np.zeros(action_space_size(v.rules), dtype=np.bool_)
    for a in v.legal_actions:
        mask[encode(a, v)] = True
    return mask


# --------------------------------------------------------------------------------------------
# Observations
# --------------------------------------------------------------------------------------------


def observation_layout(rules: Rules) -> tuple[Piece, ...]:
    """The pieces of the observation tensor, in order (see the module docs' table).

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
    """
    return _observation_layout(rules)


@lru_cache(maxsize=64)
def _observation_layout(rules: Rules) -> tuple[Piece, ...]:
    check_supported(rules)
    n = rules.cards
    p = rules.players
    s = table_slots(rules)
    specs: list[tuple[str, tuple[int, ...], str]] = [
        ("hand", (n,), "own hand"),
        ("known", (p, n), "cards every player knows relative seat k holds"),
        ("table_attack", (n,), "attack cards on the table"),
        ("table_unbeaten", (n,), "attack cards not yet beaten"),
        ("table_beating", (n,), "cards that beat an attack card"),
        ("table_slots", (s, 2, n), "per table slot: [0] attack card, [1] its beating card"),
        ("discard", (n,), "the discard pile"),
        ("trump_card", (n,), "the card that fixed trump"),
        ("shown", (n,), "trumps shown for a transfer in this bout"),
        ("exchange", (n,), "own cards giving the trump-six exchange"),
        ("unseen", (n,), "cards the player cannot locate"),
        ("seats", (p, len(SEAT_FEATURES)), "per relative seat: " + ", ".join(SEAT_FEATURES)),
        ("trump_suit", (4,), "one-hot trump suit: clubs, diamonds, hearts, spades"),
        ("scalars", (len(SCALAR_FEATURES),), ", ".join(SCALAR_FEATURES)),
    ]
    pieces: list[Piece] = []
    offset = 0
    for name, shape, description in specs:
        piece = Piece(name, offset, shape, description)
        pieces.append(piece)
        offset = piece.end
    return tuple(pieces)


def observation_size(rules: Rules) -> int:
    """The length of the observation tensor: ``N * (n + 2*S + 9) + 13*n + 13``.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
    """
    return observation_layout(rules)[-1].end


def observation(v: PlayerView, out: Array | None = None) -> Array:
    """The observation tensor of one player's view (layout: :func:`observation_layout`).

    Built from ``v`` alone, so it holds nothing the player may not know (R13).

    Args:
        v: a player's view (:func:`durak.view`); not an onlooker's.
        out: a zeroed ``float32`` vector of the right size to fill in place (optional).

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: ``v`` is an onlooker's view (``player`` is ``None``).
    """
    if v.player is None:
        raise ValueError("an onlooker's view has no seat to observe from")
    rules = v.rules
    pieces = {piece.name: piece for piece in observation_layout(rules)}
    size = observation_size(rules)
    obs = np.zeros(size, dtype=np.float32) if out is None else out
    if obs.shape != (size,):
        raise ValueError(f"out has shape {obs.shape}, expected ({size},)")
    n = rules.cards
    players = v.players
    s = table_slots(rules)
    me = v.player

    def plane(name: str, cards: Iterable[Card], row: int = 0) -> None:
        base = pieces[name].offset + row * n
        for card in cards:
            obs[base + card_index(card, rules)] = 1.0

    plane("hand", v.hand)
    for k in range(players):
        plane("known", v.known[(me + k) % players], k)
    slots = pieces["table_slots"].offset
    for j, (attack, beaten) in enumerate(v.table):
        a = card_index(attack, rules)
        obs[pieces["table_attack"].offset + a] = 1.0
        obs[slots + j * 2 * n + a] = 1.0
        if beaten is None:
            obs[pieces["table_unbeaten"].offset + a] = 1.0
        else:
            b = card_index(beaten, rules)
            obs[pieces["table_beating"].offset + b] = 1.0
            obs[slots + j * 2 * n + n + b] = 1.0
    plane("discard", v.discard)
    if v.trump_card is not None:
        plane("trump_card", (v.trump_card,))
    plane("shown", v.shown)
    plane("exchange", v.exchange)
    plane("unseen", v.unseen())

    width = len(SEAT_FEATURES)
    seats = pieces["seats"].offset
    throwers = set(v.throwers)
    for k in range(players):
        seat = (me + k) % players
        values = (
            v.hand_sizes[seat] / n,
            seat == v.attacker,
            seat == v.defender,
            seat == v.leader,
            seat == v.dealer,
            seat in throwers,
            seat in v.done,
            seat in v.passed,
            seat in v.joined,
            v.active[seat],
            v.places[seat] is not None,
            k != 0 and not rules.opponents(me, seat),
            seat == v.next_actor,
        )
        obs[seats + k * width : seats + (k + 1) * width] = values
    obs[pieces["trump_suit"].offset + int(v.trump)] = 1.0
    scalars = (
        v.stock_size / n,
        len(v.table) / s,
        min(v.attack_limit, s) / s,
        min(v.defender_hand, n) / n,
        v.taken,
        v.bouts == 0,
        v.defences > 0,
        v.is_over,
        v.stock_size > 0 and v.trump_card is not None,
    )
    start = pieces["scalars"].offset
    obs[start : start + len(scalars)] = scalars
    return obs


def observe(state: GameState, player: int) -> Array:
    """``observation(view(state, player))``: the observation tensor of ``player``.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        IndexError: ``player`` is not a seat.
    """
    return observation(view(state, player))
