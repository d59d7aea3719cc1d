"""The fixed action encoding and the observation tensor shared by the RL adapters.

Both :mod:`durak.rl.pettingzoo_env` and :mod:`durak.rl.openspiel_game` use this module, so an
action id and an observation mean the same in both. It needs ``numpy`` (in both extras).

Supported rules
---------------
Every preset and setting is supported, several-card leads (``lead = same_rank``, R4.2) and
transfers (``transfer_several``, R9.4) included: their groups of cards have ids of their own
(below, "Groups"). Refused with :class:`UnsupportedRulesError` (see :func:`check_supported`) are
rules whose deck holds cards outside the 52 that the rules do not count
(:attr:`~durak.cards.Card.special`: they have no card index; R15.1's jokers are counted and
have one) and rules whose plan (:func:`durak.rules.modules.plan_for`) has an action kind that
no codec encodes (a house rule's kind whose module registered no codec, below).
The R15 extensions are supported too: cheating's ``catch`` has a segment of its own, which its
module names as data (:attr:`~durak.rules.modules.RuleModule.rl_actions`: a verb whose actions
are a player and one card), registered when first needed.

Cards
-----
``N = rules.cards`` physical cards (``(deck_size + jokers) * decks``), numbered ``0 .. N-1`` in
the order of the rules' deck (:attr:`durak.rules.modules.Plan.deck`; for the rule book's decks
that of :func:`durak.build_deck`: copy, then suit clubs-diamonds-hearts-spades, then rank from
the lowest; R15.1's jokers ``Jk``, ``Jk#2`` ... last): :func:`card_index` and
:func:`index_card`. With 36 cards ``6c`` is 0, ``Ac`` is 8,
``6d`` is 9, ``As`` is 35; with two decks ``6c#2`` is 36.

Action ids
----------
``S = table_slots(rules) = min(N, max(max_attack, first_bout_max or 0))`` is the most attack cards
a bout can ever hold (R4.6, R9.2). The action space is ``Discrete(A)``,
``A = action_space_size(rules) = 3 + N * (S + 4) + L + T`` (363 for 36 cards with the default
limits, 523 for 52 cards, 723 for two 36-card decks), plus the segments of plug-in kinds (below).
``L`` and ``T`` are the group ids of several-card leads and transfers ("Groups", below): 0 unless
``lead = same_rank`` (``L = R * G``) or ``transfer_several`` (``T = R * G``). Each row is the
segment of one :class:`ActionCodec` (its name in :func:`action_layout` in brackets):

=================  =========  =================================================================
offset             length     action
=================  =========  =================================================================
``0``              1          [take] :class:`~durak.Take` (R4.8)
``1``              1          [pass] :class:`~durak.Pass` (R4.9)
``2``              1          [redeal] :class:`~durak.Redeal` (R12.2)
``3``              ``N + L``  [attack] ``i < N``: attack with card ``i``: :class:`~durak.Lead`
                              of that single card while the table is empty, else
                              :class:`~durak.ThrowIn` (R4.2, R4.3); the two are never legal at
                              the same time. ``i >= N``: :class:`~durak.Lead` of group ``i - N``
``3+N+L``          ``S*N``    [beat] id ``3 + N + L + j*N + i`` beats the attack card in table
                              slot ``j`` with card ``i`` (R4.7); slot ``j`` is the ``j``-th pair
                              of ``state.table``, in the order the attack cards were played
``b = 3+N+L+S*N``  ``N + T``  [transfer] :class:`~durak.Transfer` with card ``i`` (R9.1);
                              ``i >= N``: with group ``i - N`` (R9.4)
``b+N+T``          ``N``      [show] :class:`~durak.ShowTrump` of card ``i`` (R9.5)
``b+2N+T``         ``N``      [exchange] :class:`~durak.ExchangeTrump` of card ``i`` (R12.1)
``b+3N+T``         ...        the plug-in segments, in the order their codecs were registered,
                              each only under rules whose plan has one of its kinds
=================  =========  =================================================================

Why slots for beating: a beat names two cards. All (attack, card) pairs would take ``N*N`` ids
(10,816 for two 52-card decks) and pairs "that can beat" depend on the trump, which is known only
after the deal. The attack cards of a bout sit in at most ``S`` table slots, so ``S*N`` ids name
every beat exactly, whatever the trump, and the observation shows which card lies in which slot
(piece ``table_slots``). :func:`action_layout` returns this table as data.

Groups
------
A lead under ``lead = same_rank`` (R4.2) or a transfer under ``transfer_several`` (R9.4) may carry
several cards of one rank. One id per subset of a hand would be unbounded in the hand; instead a
group is named by its rank and by which physical copies of that rank it holds, so the count is
fixed by the deck alone. With ``c`` cards per rank (4 per deck: ``4 * decks``) and ``R`` ranks
(9 for 36 cards), the group patterns are the subsets of the ``c`` copies (numbered by card index
within the rank) with 2 to ``min(c, S)`` members, as bitmasks in ascending order; ``G`` is their
number (11 for one deck and ``S = 6``: 6 pairs, 4 triples, 1 quadruple; 238 for two decks).
Group ``r * G + g`` is pattern ``g`` of the ``r``-th rank (ranks in the order of their lowest
card index: 6, 7, ..., A for 36 cards). A single card keeps its card id, so the first ``N`` ids of
the segment mean the same under every setting. german-classic (36 cards, same-rank leads) has
``A = 363 + 99 = 462``.

The encoding is a bijection between one player's legal actions and the set ids of
:func:`legal_mask`: :func:`decode` of an id gives the action, :func:`encode` of an action gives
its id. Decoding does not check legality; :func:`durak.apply` does.

Codecs
------
Each action kind declares once how it is encoded: an :class:`ActionCodec` names the kinds of
its segment (verbs of :data:`durak.actions.ACTION_KINDS`; ``attack`` holds both ``lead`` and
``throw``), the segment's shape for given rules (its size is the product), how an action maps to
an index ``i`` within the segment (``encode(action, rules, context)``), and back
(``decode(i, player, rules, context)``, where ``context`` is the state or view played in), a
state-free text (``describe``), the cards the action puts on the table (``table_cards``, the
OpenSpiel information state's ``played`` piece) and, if any, why it cannot encode the kinds
under some rules (``unsupported``; the rule book's codecs encode every setting). :func:`encode`,
:func:`decode`, :func:`describe`, :func:`action_layout` and :func:`check_supported` read
nothing else. The rule book's codecs are registered first, in the order of the table above, and
their segments are in every action space, so their ids never move. A rule module that adds a
kind (:func:`durak.actions.register_action`) registers a codec for it with
:func:`register_codec`; its segment follows the built-in ones (and the plug-in segments
registered before it) under rules whose plan has the kind, and rules without it keep their
action space unchanged. For ``examples/house_rule.py``'s ``Concede``::

    register_codec(
        ActionCodec(
            "concede",
            ("concede",),
            shape=lambda rules: (1,),
            encode=lambda action, rules, context: 0,
            decode=lambda i, player, rules, context: Concede(player),
            description="Concede the game (house:concede)",
        )
    )

Under ``Rules(players=3, house_rules=["concede"])`` that is id 363, and ``A`` is 364.

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

from collections.abc import Callable, Iterable
from functools import cache, lru_cache

import attrs
import numpy as np
import numpy.typing as npt

from durak.actions import (
    ACTION_KINDS,
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
    build_action,
    is_action,
)
from durak.cards import Card, format_cards
from durak.engine import legal_actions, next_actor
from durak.errors import InvalidError, RulesError
from durak.rules.modules import plan_for
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
    "ActionCodec",
    "Context",
    "Piece",
    "UnsupportedRulesError",
    "action_layout",
    "action_space_size",
    "card_index",
    "check_supported",
    "codec_of",
    "codecs",
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
    "register_codec",
    "table_cards",
    "table_slots",
    "view_mask",
]

#: The fixed ids.
TAKE = 0
PASS = 1
REDEAL = 2

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
    """Rules the RL adapters cannot encode: a card without a card index, or an action kind
    without a codec (:func:`check_supported`)."""


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
        UnsupportedRulesError: a codec says it cannot encode its kinds under ``rules`` (its
            ``unsupported``); the deck holds cards outside the 52
            (:attr:`~durak.cards.Card.special`), which have no card index; or the rules' plan
            has an action kind that no codec encodes (:func:`register_codec`). ``setting``
            names the setting (``house_rules`` for the last two).
    """
    _module_codecs(rules)
    problem = _problem(rules, len(_CODECS))
    if problem is not None:
        raise UnsupportedRulesError(*problem)


def _module_codecs(rules: Rules) -> None:
    """Register the codecs of the card actions that the rules' modules name in their
    :attr:`~durak.rules.modules.RuleModule.rl_actions` (the shipped R15 modules do: cheating's
    ``catch``), once: a module describes its actions as data, without importing this module
    (and numpy)."""
    for module in plan_for(rules).modules:
        for verb, description in module.rl_actions:
            codec = _card_codec(verb, description)
            if _CODECS.get(codec.name) != codec:
                register_codec(codec)


@cache
def _card_codec(verb: str, description: str) -> ActionCodec:
    """The segment of the action kind ``verb``, a player and one card: id ``i`` is the action
    with the card of index ``i`` (built once per verb, so that registering it again changes
    nothing)."""

    def encode(action: Action, rules: Rules, context: object) -> int:
        return card_index(getattr(action, "card"), rules)  # noqa: B009 - a plug-in's kind

    def decode(i: int, player: int, rules: Rules, context: object) -> Action:
        return build_action(verb, player, (index_card(i, rules),))

    return ActionCodec(
        verb,
        (verb,),
        shape=lambda rules: (rules.cards,),
        encode=encode,
        decode=decode,
        describe=lambda i, rules: f"{verb} {index_card(i, rules)}",
        description=f"[{verb}] {description}",
    )


@lru_cache(maxsize=256)
def _problem(rules: Rules, _version: int) -> tuple[str, str] | None:
    """``(setting, reason)`` if ``rules`` cannot be encoded (``_version`` keys the cache to the
    registry's size, so a codec registered later counts)."""
    for codec, _, _ in _segments(rules, _version):
        if codec.unsupported is not None:
            problem = codec.unsupported(rules)
            if problem is not None:
                return problem
    plan = plan_for(rules)
    specials = [card for card in plan.deck if card.special]
    if specials and len(plan.deck) != rules.cards:
        # Cards the rules count (R15.1's jokers) have an index; others have none.
        names = " ".join(str(card) for card in specials)
        return (
            "house_rules",
            f"the RL adapters index the 52 cards only: the deck holds {names}, a card outside "
            "the 52, which has no card index",
        )
    for cls in plan.owners:
        kind = getattr(cls, "kind", cls.__name__)
        if kind not in _BY_KIND:
            return (
                "house_rules",
                f"the action kind {kind!r} ({cls.__name__}) has no action ids: its module must "
                "register a codec for it (durak.rl.encoding.register_codec)",
            )
    return None


def table_slots(rules: Rules) -> int:
    """``S``: the most attack cards a bout can hold (R4.6, R9.2), capped at the number of cards."""
    return min(rules.cards, max(rules.max_attack, rules.first_bout_max or 0))


@lru_cache(maxsize=64)
def _deck(rules: Rules) -> tuple[Card, ...]:
    """The deck's cards (:attr:`durak.rules.modules.Plan.deck`), canonical order."""
    return plan_for(rules).deck


@lru_cache(maxsize=64)
def _indices(rules: Rules) -> dict[Card, int]:
    return {card: i for i, card in enumerate(_deck(rules))}


def card_index(card: Card, rules: Rules) -> int:
    """The card's index ``0 .. N-1``: its position in the deck (:func:`durak.build_deck` order
    for the rule book's decks).

    >>> card_index(Card.parse("Ac"), Rules()), card_index(Card.parse("6d"), Rules())
    (8, 9)

    Raises:
        ValueError: the card is not in the rules' deck(s).
    """
    index = _indices(rules).get(card)
    if index is None:
        raise ValueError(f"{card} is not in the deck of these rules")
    return index


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
# Actions: one codec per segment of the action ids
# --------------------------------------------------------------------------------------------

#: What an action id is read against: the state (or a player's view) it is played in. Codecs
#: read ``context.rules`` and ``context.table`` (a beat names a table slot).
Context = GameState | PlayerView


def _no_cards(action: Action) -> tuple[Card, ...]:
    return ()


@attrs.frozen
class ActionCodec:
    """How the actions of some kinds map to one segment of the fixed action ids.

    The segment's ids are ``offset .. offset + size(rules) - 1``; the codec works with the
    index ``i`` within it. A codec is registered with :func:`register_codec`; the segments lie
    in registration order, the rule book's first (see the module docs).

    Attributes:
        name: the segment's name in :func:`action_layout`, e.g. ``"attack"``.
        kinds: the action verbs (``Action.kind``, the keys of :data:`durak.actions.ACTION_KINDS`)
            it encodes; each verb has one codec.
        shape: the segment's shape for the rules (``(1,)`` for a kind of one action); it holds
            ``prod(shape)`` ids.
        encode: ``encode(action, rules, context) -> i``, ``0 <= i < size(rules)``; raises
            :class:`ValueError` for an action that has no id.
        decode: ``decode(i, player, rules, context) -> action``, the inverse of ``encode`` for
            ``player``'s actions; legality is not checked.
        describe: ``describe(i, rules) -> str``, a text for the id that needs no state; by
            default the name, followed by ``i`` if the segment holds several ids.
        description: one line for :func:`action_layout`.
        table_cards: ``table_cards(action) -> cards``: the cards the action puts on the table
            (the OpenSpiel information state's ``played`` piece); by default none.
        unsupported: ``unsupported(rules) -> (setting, reason) | None``: why the kinds cannot
            be encoded under ``rules`` (:func:`check_supported` raises it); by default never.
    """

    name: str
    kinds: tuple[str, ...]
    shape: Callable[[Rules], tuple[int, ...]]
    encode: Callable[[Action, Rules, Context], int]
    decode: Callable[[int, int, Rules, Context], Action]
    describe: Callable[[int, Rules], str] | None = None
    description: str = ""
    table_cards: Callable[[Action], tuple[Card, ...]] = _no_cards
    unsupported: Callable[[Rules], tuple[str, str] | None] | None = None

    def size(self, rules: Rules) -> int:
        """The number of ids of the segment under ``rules``: ``prod(shape(rules))``."""
        size = 1
        for dim in self.shape(rules):
            size *= dim
        return size

    def text(self, i: int, rules: Rules) -> str:
        """:attr:`describe` of index ``i``, or the default text."""
        if self.describe is not None:
            return self.describe(i, rules)
        return self.name if self.size(rules) == 1 else f"{self.name} {i}"


#: The codecs by segment name, in the order of their segments.
_CODECS: dict[str, ActionCodec] = {}
#: The codecs by action verb.
_BY_KIND: dict[str, ActionCodec] = {}
#: The rule book's segments: in every action space. The others only under rules whose plan has
#: one of their kinds.
_BUILT_IN: set[str] = set()


def register_codec(codec: ActionCodec) -> ActionCodec:
    """Give the action kinds ``codec.kinds`` their segment of the action ids, after the
    segments registered before. The segment is in the action space of rules whose plan has one
    of its kinds (:attr:`durak.rules.modules.Plan.owners`), so rules without the kinds keep
    their ids and size. Registering the same codec again changes nothing.

    Raises:
        InvalidError: a kind is not a registered action verb
            (:func:`durak.actions.register_action`), or the name or a kind is taken by another
            codec.
    """
    if _CODECS.get(codec.name) == codec:
        return codec
    if codec.name in _CODECS:
        raise InvalidError(f"the action segment {codec.name!r} is taken by another codec")
    if not codec.kinds:
        raise InvalidError(f"the codec {codec.name!r} encodes no action kind")
    for kind in codec.kinds:
        if kind not in ACTION_KINDS:
            raise InvalidError(f"{kind!r} is not an action kind (durak.actions.register_action)")
        if kind in _BY_KIND:
            raise InvalidError(
                f"the action kind {kind!r} is encoded by the codec {_BY_KIND[kind].name!r}"
            )
    _CODECS[codec.name] = codec
    for kind in codec.kinds:
        _BY_KIND[kind] = codec
    return codec


def codecs() -> tuple[ActionCodec, ...]:
    """Every registered codec, in the order of their segments."""
    return tuple(_CODECS.values())


@lru_cache(maxsize=256)
def _segments(rules: Rules, _version: int) -> tuple[tuple[ActionCodec, int, int], ...]:
    """``(codec, offset, size)`` of the segments of ``rules``' action space, in order."""
    kinds = {getattr(cls, "kind", "") for cls in plan_for(rules).owners}
    segments = []
    offset = 0
    for codec in _CODECS.values():
        if codec.name in _BUILT_IN or kinds.intersection(codec.kinds):
            size = codec.size(rules)
            segments.append((codec, offset, size))
            offset += size
    return tuple(segments)


def _layout(rules: Rules) -> tuple[tuple[ActionCodec, int, int], ...]:
    check_supported(rules)  # registers the modules' codecs first
    return _segments(rules, len(_CODECS))


def _locate(index: int, rules: Rules) -> tuple[ActionCodec, int]:
    """The codec of id ``index`` and the index within its segment."""
    segments = _layout(rules)
    end = segments[-1][1] + segments[-1][2]
    if not 0 <= index < end:
        raise ValueError(f"action id {index} is outside 0-{end - 1}")
    for codec, offset, size in segments:
        if index < offset + size:
            return codec, index - offset
    raise AssertionError("unreachable")  # pragma: no cover


def codec_of(action: Action) -> ActionCodec | None:
    """The codec of ``action``'s kind, or ``None`` if no codec encodes it."""
    return _BY_KIND.get(getattr(action, "kind", ""))


def table_cards(action: Action) -> tuple[Card, ...]:
    """The cards ``action`` puts on the table (its codec's :attr:`ActionCodec.table_cards`);
    none for a kind without a codec."""
    codec = codec_of(action)
    return codec.table_cards(action) if codec is not None else ()


def action_space_size(rules: Rules) -> int:
    """``A``: the number of action ids, ``3 + N * (S + 4)`` plus the plug-in segments (see the
    module docs).

    Raises:
        UnsupportedRulesError: see :func:`check_supported`.
    """
    _, offset, size = _layout(rules)[-1]
    return offset + size


def action_layout(rules: Rules) -> tuple[Piece, ...]:
    """The segments of action ids, in order (the module docs' table as data), one per codec.

    Raises:
        UnsupportedRulesError: see :func:`check_supported`.
    """
    return tuple(
        Piece(codec.name, offset, codec.shape(rules), codec.description)
        for codec, offset, _ in _layout(rules)
    )


def encode(action: Action, state: GameState | PlayerView) -> int:
    """The id of ``action`` in ``state`` (a beat's id depends on the attack card's table slot).
    A player's view (:func:`durak.view`) does as well as the state: only the rules and the table
    are read.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: the action carries several cards, names a card outside the deck, beats
            a card that is not an unbeaten attack card on the table, or is of a kind that has
            no ids under these rules.
        TypeError: ``action`` is not an action.
    """
    rules = state.rules
    segments = _layout(rules)
    if not is_action(action):
        raise TypeError(f"not an action: {action!r}")
    codec = codec_of(action)
    for segment, offset, _ in segments:
        if segment is codec:
            return offset + segment.encode(action, rules, state)
    raise ValueError(f"{action}: the action kind {action.kind!r} has no id under these rules")


def decode(index: int, state: GameState, player: int | None = None) -> Action:
    """The action with id ``index`` for ``player`` in ``state``; ``player`` defaults to
    :func:`durak.next_actor` (R13.2). The action is not checked for legality.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: ``index`` is outside ``0 .. A-1``, the game is over and no player is given,
            or a beat id names an empty table slot.
    """
    rules = state.rules
    index = int(index)
    codec, i = _locate(index, rules)
    if player is None:
        player = next_actor(state)
        if player is None:
            raise ValueError("the game is over: no player acts")
    return codec.decode(i, player, rules, state)


def describe(index: int, rules: Rules) -> str:
    """A text for action id ``index`` that needs no state, e.g. ``"attack 7h"``,
    ``"beat slot 2 with 9h"``, ``"take"``.

    Raises:
        UnsupportedRulesError: the rules are not supported (:func:`check_supported`).
        ValueError: ``index`` is outside ``0 .. A-1``.
    """
    codec, i = _locate(int(index), rules)
    return codec.text(i, rules)


# -- the rule book's codecs ----------------------------------------------------------------


def _one(shape: tuple[int, ...] = (1,)) -> Callable[[Rules], tuple[int, ...]]:
    return lambda rules: shape


def _cards_shape(rules: Rules) -> tuple[int, ...]:
    return (rules.cards,)


def _single(action: Action, cards: tuple[Card, ...], what: str, rules: Rules) -> int:
    if len(cards) != 1:
        raise ValueError(f"{action} {what} several cards, which has no action id")
    return card_index(cards[0], rules)


# -- groups: several cards of one rank in one action (R4.2 same_rank, R9.4) -----------------


@attrs.frozen
class _Groups:
    """The groups of cards of one rank that one id names (see the module docs, "Groups").

    Attributes:
        ranks: the deck's ranks, in the order of their first card index.
        copies: per rank, its cards in card-index order (``c`` of them).
        masks: the subsets of ``0 .. c-1`` of 2 to ``min(c, S)`` members, ascending as
            bitmasks; the ``g``-th is group ``g`` of every rank.
        index: ``(rank, mask) -> g``.
    """

    ranks: tuple[int, ...]
    copies: tuple[tuple[Card, ...], ...]
    masks: tuple[int, ...]
    index: dict[int, int]

    @property
    def size(self) -> int:
        """``R * G``: the ids of all groups of all ranks."""
        return len(self.ranks) * len(self.masks)


@lru_cache(maxsize=64)
def _groups(rules: Rules) -> _Groups:
    by_rank: dict[int, list[Card]] = {}
    for card in _deck(rules):
        by_rank.setdefault(int(card.rank), []).append(card)
    copies = tuple(tuple(cards) for cards in by_rank.values())
    width = max((len(cards) for cards in copies), default=0)
    most = min(width, table_slots(rules))
    masks = tuple(m for m in range(1 << width) if 2 <= m.bit_count() <= most)
    return _Groups(tuple(by_rank), copies, masks, {m: g for g, m in enumerate(masks)})


def _group_count(rules: Rules, several: bool) -> int:
    return _groups(rules).size if several else 0


def _encode_group(action: Action, cards: tuple[Card, ...], rules: Rules) -> int:
    """The index of a group of several cards of one rank, counted from 0 (rank-major)."""
    groups = _groups(rules)
    rank = int(cards[0].rank)
    if any(int(c.rank) != rank for c in cards) or rank not in groups.ranks:
        raise ValueError(f"{action}: the cards are not of one rank of the deck")
    r = groups.ranks.index(rank)
    mask = 0
    for card in cards:
        if card not in groups.copies[r]:
            raise ValueError(f"{card} is not in the deck of these rules")
        mask |= 1 << groups.copies[r].index(card)
    g = groups.index.get(mask)
    if g is None or mask.bit_count() != len(cards):
        raise ValueError(f"{action}: {len(cards)} cards in one action have no action id")
    return r * len(groups.masks) + g


def _decode_group(i: int, rules: Rules) -> tuple[Card, ...]:
    groups = _groups(rules)
    r, g = divmod(i, len(groups.masks))
    mask = groups.masks[g]
    return tuple(c for k, c in enumerate(groups.copies[r]) if mask >> k & 1)


def _encode_cards(action: Action, cards: tuple[Card, ...], rules: Rules, several: bool) -> int:
    """Card ``i`` for one card, ``N + group`` for several (only when ``several``)."""
    if len(cards) == 1:
        return card_index(cards[0], rules)
    if not several or not cards:
        return _single(action, cards, "carries", rules)
    return rules.cards + _encode_group(action, cards, rules)


def _decode_cards(i: int, rules: Rules) -> tuple[Card, ...]:
    n = rules.cards
    return (index_card(i, rules),) if i < n else _decode_group(i - n, rules)


def _describe_cards(verb: str) -> Callable[[int, Rules], str]:
    return lambda i, rules: f"{verb} {format_cards(_decode_cards(i, rules))}"


def _several_leads(rules: Rules) -> bool:
    return rules.lead is LeadSetting.SAME_RANK


def _encode_attack(action: Action, rules: Rules, context: Context) -> int:
    if isinstance(action, Lead):
        return _encode_cards(action, action.cards, rules, _several_leads(rules))
    assert isinstance(action, ThrowIn)
    return card_index(action.card, rules)


def _decode_attack(i: int, player: int, rules: Rules, context: Context) -> Action:
    cards = _decode_cards(i, rules)
    if len(cards) == 1 and context.table:
        return ThrowIn(player, cards[0])
    return Lead(player, cards)


def _encode_beat(action: Action, rules: Rules, context: Context) -> int:
    assert isinstance(action, Beat)
    for slot, pair in enumerate(context.table):
        if pair == (action.attack, None):
            return slot * rules.cards + card_index(action.card, rules)
    raise ValueError(f"{action}: {action.attack} is not an unbeaten attack card on the table")


def _decode_beat(i: int, player: int, rules: Rules, context: Context) -> Action:
    slot, card = divmod(i, rules.cards)
    if slot >= len(context.table):
        raise ValueError(
            f"action id {_segment_offset('beat', rules) + i} beats table slot {slot}, but the "
            f"table holds {len(context.table)} attack card(s)"
        )
    return Beat(player, context.table[slot][0], index_card(card, rules))


def _segment_offset(name: str, rules: Rules) -> int:
    return next(offset for codec, offset, _ in _layout(rules) if codec.name == name)


def _describe_beat(i: int, rules: Rules) -> str:
    slot, card = divmod(i, rules.cards)
    return f"beat slot {slot} with {index_card(card, rules)}"


def _encode_transfer(action: Action, rules: Rules, context: Context) -> int:
    assert isinstance(action, Transfer)
    return _encode_cards(action, action.cards, rules, rules.transfer_several)


def _encode_card(action: Action, rules: Rules, context: Context) -> int:
    assert isinstance(action, ShowTrump | ExchangeTrump)
    return card_index(action.card, rules)


def _describe_card(verb: str) -> Callable[[int, Rules], str]:
    return lambda i, rules: f"{verb} {index_card(i, rules)}"


def _played(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Lead | Transfer):
        return action.cards
    if isinstance(action, ThrowIn | Beat):
        return (action.card,)
    return ()


def _cardless(kind: type[Take | Pass | Redeal], description: str) -> ActionCodec:
    """The codec of an action without cards: one id, the player's."""
    name = kind.kind
    return ActionCodec(
        name,
        (name,),
        _one(),
        lambda a, r, c: 0,
        lambda i, p, r, c: kind(p),
        description=description,
    )


for _codec in (
    _cardless(Take, "Take (R4.8)"),
    _cardless(Pass, "Pass (R4.9)"),
    _cardless(Redeal, "Redeal (R12.2)"),
    ActionCodec(
        "attack",
        ("lead", "throw"),
        lambda rules: (rules.cards + _group_count(rules, _several_leads(rules)),),
        _encode_attack,
        _decode_attack,
        _describe_cards("attack"),
        "Lead (empty table) or ThrowIn of card i; i >= N: Lead of group i - N (R4.2, R4.3)",
        _played,
    ),
    ActionCodec(
        "beat",
        ("beat",),
        lambda rules: (table_slots(rules), rules.cards),
        _encode_beat,
        _decode_beat,
        _describe_beat,
        "beat the attack card in table slot j with card i (R4.7)",
        _played,
    ),
    ActionCodec(
        "transfer",
        ("transfer",),
        lambda rules: (rules.cards + _group_count(rules, rules.transfer_several),),
        _encode_transfer,
        lambda i, p, r, c: Transfer(p, _decode_cards(i, r)),
        _describe_cards("transfer"),
        "Transfer with card i; i >= N: with group i - N (R9.1, R9.4)",
        _played,
    ),
    ActionCodec(
        "show",
        ("show",),
        _cards_shape,
        _encode_card,
        lambda i, p, r, c: ShowTrump(p, index_card(i, r)),
        _describe_card("show"),
        "ShowTrump of card i (R9.5)",
    ),
    ActionCodec(
        EXCHANGE,
        ("exchange",),
        _cards_shape,
        _encode_card,
        lambda i, p, r, c: ExchangeTrump(p, index_card(i, r)),
        _describe_card("exchange"),
        "ExchangeTrump of card i (R12.1)",
    ),
):
    register_codec(_codec)
    _BUILT_IN.add(_codec.name)
del _codec


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

    index = _indices(rules)

    def plane(name: str, cards: Iterable[Card], row: int = 0) -> None:
        base = pieces[name].offset + row * n
        places = [base + index[card] for card in cards]
        if places:
            obs[places] = 1.0

    plane("hand", v.hand)
    for k in range(players):
        plane("known", v.known[(me + k) % players], k)
    slots = pieces["table_slots"].offset
    for j, (attack, beaten) in enumerate(v.table):
        a = index[attack]
        obs[pieces["table_attack"].offset + a] = 1.0
        obs[slots + j * 2 * n + a] = 1.0
        if beaten is None:
            obs[pieces["table_unbeaten"].offset + a] = 1.0
        else:
            b = index[beaten]
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
        v.face_up is not None,
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
