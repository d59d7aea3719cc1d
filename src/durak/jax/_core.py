"""The game as pure JAX functions of one fixed-shape state (vmapped by the callers).

Every function here reads a :class:`Spec` (the rules, fixed when a function is traced) and a
:class:`Core` (one game's state as arrays) and returns arrays: no Python branch depends on a
value of the state, so ``jax.jit`` and ``jax.vmap`` apply unchanged on any device.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from durak.cards import Card, Suit, build_deck
from durak.errors import RulesError
from durak.rl.encoding import (
    SCALAR_FEATURES,
    SEAT_FEATURES,
    action_space_size,
    check_supported,
    observation_size,
    table_slots,
)
from durak.rules.beating import beats
from durak.rules.settings import (
    DrawOrder,
    FirstBoutScope,
    NoTrumpLead,
    Objective,
    OnLastCleared,
    Rules,
    Throwers,
    ThrowOrder,
)

Array: TypeAlias = jax.Array

#: The settings this engine plays at their rule-book default only, with that default; any
#: other value is refused (:func:`spec_of`).
_FIXED: tuple[tuple[str, object], ...] = (
    ("decks", 1),
    ("lead", "single"),
    ("transfer_several", False),
    ("teams", None),
    ("trump_six_exchange", False),
    ("misdeal_suit_count", None),
    ("house_rules", ()),
    ("jokers", 0),
    ("throw_in_by_suit", False),
    ("show_sends_back", False),
    ("pogony", False),
    ("cheating", False),
)


@dataclasses.dataclass(frozen=True, eq=False)
class Spec:
    """The static facts of one set of rules: sizes, switches and lookup tables.

    Attributes:
        rules: the rules.
        n: cards in play (``N``); ``p``: players; ``s``: table slots (``S``); ``r``: ranks per
            suit; ``hand``: ``hand_size``; ``a``: the action space size; ``obs``: the
            observation size.
        rank, suit: per card index, its rank (0 = the deck's lowest) and suit (0-3).
        beats: ``beats[trump, attack, card]``: whether ``card`` beats ``attack`` (R4.7, R8).
        deck: the cards, by card index.
    """

    rules: Rules
    n: int
    p: int
    s: int
    r: int
    hand: int
    a: int
    obs: int
    rank: np.ndarray[Any, Any]
    suit: np.ndarray[Any, Any]
    beats: np.ndarray[Any, Any]
    deck: tuple[Card, ...]

    @property
    def beat_offset(self) -> int:
        """The first beat id (``3 + N``)."""
        return 3 + self.n

    @property
    def transfer_offset(self) -> int:
        """The first transfer id (``3 + N + S*N``)."""
        return 3 + self.n + self.s * self.n

    @property
    def show_offset(self) -> int:
        """The first show id."""
        return self.transfer_offset + self.n


def check_covered(rules: Rules) -> None:
    """Raise unless this engine plays ``rules``.

    Raises:
        RulesError: naming the first setting outside the covered ones (the docs list them):
            several decks, same-rank leads, several-card transfers, teams, the trump-six
            exchange, misdeals, house rules, the R15 extensions and ``no_trump_lead =
            redeal``.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
    for name, default in _FIXED:
        value = getattr(rules, name)
        if value != default:
            raise RulesError(
                name,
                f"the JAX engine plays {name} = {default!r} only, not {value!r} "
                "(the reference engine plays it)",
            )
    if rules.no_trump_lead is NoTrumpLead.REDEAL:
        raise RulesError(
            "no_trump_lead",
            "the JAX engine plays no_trump_lead = 'dealer_left' only, not 'redeal' "
            "(the reference engine plays it)",
        )
    check_supported(rules)


@lru_cache(maxsize=64)
def spec_of(rules: Rules) -> Spec:
    """The :class:`Spec` of ``rules``, after :func:`check_covered`.

    Raises:
        RulesError: a setting this engine does not play (:func:`check_covered`).
    """
    check_covered(rules)
    deck = build_deck(rules.deck_size, 1)
    n = len(deck)
    low = min(int(c.rank) for c in deck)
    rank = np.array([int(c.rank) - low for c in deck], dtype=np.int32)
    suit = np.array([int(c.suit) for c in deck], dtype=np.int32)
    table = np.zeros((4, n, n), dtype=np.bool_)
    for t in Suit:
        for i, attack in enumerate(deck):
            for j, card in enumerate(deck):
                table[int(t), i, j] = beats(card, attack, t, rules)
    return Spec(
        rules=rules,
        n=n,
        p=rules.players,
        s=table_slots(rules),
        r=n // 4,
        hand=rules.hand_size,
        a=action_space_size(rules),
        obs=observation_size(rules),
        rank=rank,
        suit=suit,
        beats=table,
        deck=deck,
    )


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Core:
    """One game's state as fixed-shape arrays (a batch: every field with a leading batch axis).

    Cards are card indices (:func:`durak.rl.encoding.card_index`), ``-1`` for none; seats are
    seat numbers, ``-1`` for none. Shapes for ``P`` players, ``N`` cards, ``S`` table slots:

    Attributes:
        hands, known: ``bool[P, N]``: the hands, and the cards every player knows each holds.
        stock: ``int32[N]``: the stock's cards by position, top first; positions
            ``stock_top .. stock_end - 1`` are still in it.
        stock_top, stock_end: ``int32``.
        trump: ``int32`` suit; trump_card: ``int32`` card (``-1``: none).
        attack, beat: ``int32[S]``: per table slot its attack card and the card that beat it.
        table_n: ``int32``: the attack cards on the table.
        discard: ``int32[N]``: the discard pile, oldest first; ``discard_n`` cards.
        dealer, attacker, defender, leader: ``int32`` seats.
        join_pos: ``int32[P]``: per seat his place in ``joined`` (``-1``: not joined);
            ``joined_n``: how many joined.
        defender_hand: ``int32`` (``H`` of R4.6); taken: ``bool``; passed: ``bool[P]``;
            shown: ``bool[N]``; bouts, defences: ``int32``.
        places: ``int32[P]``: finishing places, ``0`` for none.
        over: ``bool``; durak: ``int32`` (``-1``: none); draw: ``bool``; winners: ``bool[P]``.
    """

    hands: Array
    known: Array
    stock: Array
    stock_top: Array
    stock_end: Array
    trump: Array
    trump_card: Array
    attack: Array
    beat: Array
    table_n: Array
    discard: Array
    discard_n: Array
    dealer: Array
    attacker: Array
    defender: Array
    leader: Array
    join_pos: Array
    joined_n: Array
    defender_hand: Array
    taken: Array
    passed: Array
    shown: Array
    bouts: Array
    defences: Array
    places: Array
    over: Array
    durak: Array
    draw: Array
    winners: Array

    def replace(self, **changes: Any) -> Core:
        """A copy with the given fields replaced."""
        return dataclasses.replace(self, **changes)


def _i(x: Any) -> Array:
    return jnp.asarray(x, dtype=jnp.int32)


# -- small helpers: no gathers or scatters, only comparisons (cheap in a vmapped batch) -----


def _pick(values: Array, index: Array) -> Array:
    """``values[index]`` for a small 1-D ``values`` (``0`` where ``index`` is outside), as a
    comparison and a sum: a vmapped gather costs more than this for a few seats."""
    hit = jnp.arange(values.shape[0]) == index
    if values.dtype == jnp.bool_:
        return (values & hit).any()
    return jnp.where(hit, values, 0).sum(dtype=values.dtype)


def _clockwise(seat: Array, p: int) -> Array:
    """``seat % p`` for ``-p <= seat < 2 * p`` as C's remainder (one operation; the floor
    remainder of ``%`` takes several, repeated wherever XLA inlines it)."""
    return jax.lax.rem(seat + p, p)


def _rank_of(spec: Spec, card: Array) -> Array:
    """The rank (0 = the deck's lowest) of card index ``card``: card indices run suit by suit,
    rank by rank (:func:`durak.build_deck`), so it is ``card % r``."""
    return jax.lax.rem(card, spec.r)  # C's remainder: one operation, not floor's several


def _suit_of(spec: Spec, card: Array) -> Array:
    """The suit (0-3) of card index ``card`` (``card // r``)."""
    return jax.lax.div(card, spec.r)


def _beats_rows(spec: Spec, trump: Array, attack: Array) -> Array:
    """``bool[S, N]``: per table slot, which cards beat its attack card (R4.7; R8.1: a trump
    does not beat an attack card of a strict suit unless that suit is the trump suit), from
    the cards' suits and ranks."""
    cards = jnp.arange(spec.n)
    a_suit = _suit_of(spec, attack)[:, None]
    a_rank = _rank_of(spec, attack)[:, None]
    c_suit = _suit_of(spec, cards)[None, :]
    c_rank = _rank_of(spec, cards)[None, :]
    strict = jnp.zeros_like(a_suit, dtype=jnp.bool_)
    for suit in spec.rules.strict_suits:
        strict = strict | (a_suit == int(suit))
    a_trump = a_suit == trump
    higher = (c_suit == a_suit) & (c_rank > a_rank)
    return higher | ((c_suit == trump) & ~a_trump & ~strict)


def _next_active(active: Array, seat: Array, p: int) -> Array:
    """The next active seat strictly clockwise after ``seat``, or ``-1`` (R2.2)."""
    ahead = _clockwise(jnp.arange(p) - seat, p)  # 1 .. p-1 clockwise, 0 for ``seat`` itself
    ahead = jnp.where(active & (ahead > 0), ahead, p)
    step = ahead.min()
    return jnp.where(step < p, _clockwise(seat + step, p), -1).astype(jnp.int32)


# -- the bout's facts -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Facts:
    """What the legality and the actor of one state need (the reference's ``Bout``)."""

    count: Array  # int32[P] hand sizes
    active: Array  # bool[P]
    cap: Array
    limit: Array  # the view's attack limit
    unbeaten_slot: Array  # bool[S]
    unbeaten: Array
    beaten: Array
    match: Array  # bool[N]: cards of a rank on the table
    can_add: Array
    throwers: Array  # bool[P]
    able: Array  # bool[P]
    done: Array  # bool[P]
    may_pass: Array  # bool[P]: a thrower with a decision (R13.2)
    target: Array  # the transfer target (R9.1), -1 for none


def _select_facts(which: Array, a: Facts, b: Facts) -> Facts:
    """``a`` where ``which``, else ``b``, field by field."""
    fields = {
        k.name: jnp.where(which, getattr(a, k.name), getattr(b, k.name))
        for k in dataclasses.fields(Facts)
    }
    return Facts(**fields)


def attack_cap(spec: Spec, c: Core) -> Array:
    """R4.6's cap on the attack cards of a bout: ``max_attack``, or ``first_bout_max`` while its
    scope (the first bout, or until the first discard) lasts."""
    rules = spec.rules
    if rules.first_bout_max is None:
        return _i(rules.max_attack)
    if rules.first_bout_scope is FirstBoutScope.UNTIL_FIRST_DISCARD:
        first = c.defences == 0
    else:
        first = c.bouts == 0
    return jnp.where(first, rules.first_bout_max, rules.max_attack).astype(jnp.int32)


def facts(spec: Spec, c: Core) -> Facts:
    """The bout's facts of ``c`` (R4.4-R4.6, R4.9, R7.1, R9.1)."""
    rules = spec.rules
    p = spec.p
    seats = jnp.arange(p)
    count = c.hands.sum(axis=1, dtype=jnp.int32)
    stock_n = c.stock_end - c.stock_top
    active = (c.places == 0) & ((count > 0) | (stock_n > 0))
    cap = attack_cap(spec, c)
    slot = jnp.arange(spec.s)
    on_table = slot < c.table_n
    beaten_slot = on_table & (c.beat >= 0)
    unbeaten_slot = on_table & (c.beat < 0)
    unbeaten = unbeaten_slot.sum(dtype=jnp.int32)
    beaten = beaten_slot.sum(dtype=jnp.int32)
    ranks = jnp.arange(spec.r)
    by_attack = (ranks[None, :] == _rank_of(spec, c.attack)[:, None]) & on_table[:, None]
    by_beat = (ranks[None, :] == _rank_of(spec, c.beat)[:, None]) & beaten_slot[:, None]
    present = by_attack.any(axis=0) | by_beat.any(axis=0)  # bool[R]: ranks on the table
    match = jnp.tile(present, 4)  # card indices run suit by suit
    has_table = c.table_n > 0
    defender_count = _pick(count, c.defender)
    limit = jnp.where(
        has_table, jnp.minimum(cap, c.defender_hand), jnp.minimum(cap, defender_count)
    )
    room = c.table_n < limit
    can_add = has_table & room & (True if rules.throw_after_take else ~c.taken)
    target = _next_active(active, c.defender, p)
    if rules.throwers is Throwers.ATTACKER:
        throwers = seats == c.attacker
    elif rules.throwers is Throwers.NEIGHBOURS:
        throwers = (seats == c.attacker) | ((seats == target) & (target != c.attacker))
    else:
        throwers = (seats != c.defender) & (active | (seats == c.attacker))
    throwers = throwers & has_table
    holds = (c.hands & match[None, :]).any(axis=1)
    able = can_add & throwers & holds & active
    done = c.passed | ~able
    if rules.throw_order is ThrowOrder.ATTACKER_FIRST:
        turn = (seats == c.attacker) | _pick(done, c.attacker)
    else:
        turn = jnp.ones(p, dtype=jnp.bool_)
    may_pass = able & ~c.passed & (seats != c.defender) & turn
    return Facts(
        count=count,
        active=active,
        cap=cap,
        limit=limit,
        unbeaten_slot=unbeaten_slot,
        unbeaten=unbeaten,
        beaten=beaten,
        match=match,
        can_add=can_add,
        throwers=throwers,
        able=able,
        done=done,
        may_pass=may_pass,
        target=target,
    )


def next_actor(spec: Spec, c: Core, f: Facts | None = None) -> Array:
    """The one actor of R13.2 (:func:`durak.next_actor`), ``-1`` once the game is over."""
    if f is None:
        f = facts(spec, c)
    p = spec.p
    ahead = _clockwise(jnp.arange(p) - c.attacker, p)  # clockwise from the main attacker
    ahead = jnp.where(f.may_pass, ahead, p).min()
    thrower = jnp.where(ahead < p, _clockwise(c.attacker + ahead, p), -1)
    defends = ~c.taken & (f.unbeaten > 0)
    actor = jnp.where(c.table_n == 0, c.attacker, jnp.where(defends, c.defender, thrower))
    return jnp.where(c.over, -1, actor).astype(jnp.int32)


def legal_mask(spec: Spec, c: Core, player: Array, f: Facts | None = None) -> Array:
    """``bool[A]``: ``player``'s legal action ids (:func:`durak.rl.encoding.legal_mask`)."""
    rules = spec.rules
    if f is None:
        f = facts(spec, c)
    n = spec.n
    me = jnp.arange(spec.p) == player
    hand = (c.hands & me[:, None]).any(axis=0) & ~c.over & _pick(f.active, player)
    has_table = c.table_n > 0
    is_def = (player == c.defender) & has_table & ~c.taken & (f.unbeaten > 0)
    take = is_def
    thrower = _pick(f.may_pass, player) & has_table
    lead = ~has_table & (player == c.attacker) & (f.limit >= 1)
    attack = hand & (lead | (thrower & f.match))
    rows = _beats_rows(spec, c.trump, c.attack)  # [S, N]
    beat = rows & f.unbeaten_slot[:, None] & hand[None, :] & is_def
    first_ok = True if rules.transfer_first_bout else c.bouts > 0
    cards = jnp.arange(n)
    lead_rank = _rank_of(spec, c.attack[0])
    can_move = is_def & (f.beaten == 0) & (f.target >= 0) & first_ok
    target_room = jnp.minimum(f.cap, _pick(f.count, f.target))
    same = hand & (_rank_of(spec, cards) == lead_rank)
    if rules.transfer_by_card:
        transfer = same & can_move & (target_room - c.table_n >= 1)
    else:
        transfer = jnp.zeros(n, dtype=jnp.bool_)
    if rules.transfer_by_showing_trump:
        trump = _suit_of(spec, cards) == c.trump
        show = same & trump & ~c.shown & can_move & (c.table_n <= target_room)
    else:
        show = jnp.zeros(n, dtype=jnp.bool_)
    fixed = jnp.stack([take, thrower, jnp.bool_(False)])
    return jnp.concatenate(
        [fixed, attack, beat.reshape(-1), transfer, show, jnp.zeros(n, dtype=jnp.bool_)]
    )


# -- applying an action ---------------------------------------------------------------------


def _bout_over(c: Core, f: Facts) -> Array:
    """R4.10: whether the bout of ``c`` (with its facts ``f``) is over."""
    settled = (f.unbeaten == 0) | c.taken
    someone = (f.throwers & ~c.passed & (c.hands & f.match[None, :]).any(axis=1)).any()
    return (c.table_n > 0) & settled & (~f.can_add | ~someone)


def _over(spec: Spec, c: Core) -> Array:
    """R4.10: whether the bout of ``c`` is over."""
    return _bout_over(c, facts(spec, c))


def _draw_ranks(spec: Spec, c: Core) -> Array:
    """``int32[P]``: per seat his place in R5.1's draw order (``0`` draws first): the attackers
    (the leader first, then clockwise or in the order they joined), then the others clockwise
    from the leader, the defender last; seats out of the game after every one."""
    rules = spec.rules
    p = spec.p
    seats = jnp.arange(p)
    offset = _clockwise(seats - c.leader, p)
    joined = c.join_pos >= 0
    attackers = joined | (seats == c.leader)
    if rules.draw_order is DrawOrder.JOIN_ORDER:
        first = jnp.where(seats == c.leader, -1, c.join_pos)
    else:
        first = offset
    key = jnp.where(attackers, first, p + offset)
    key = jnp.where(seats == c.defender, 3 * p, key)
    key = jnp.where(c.places == 0, key, 4 * p)
    # the stable order of the keys: how many seats sort before each
    before = (key[None, :] < key[:, None]) | (
        (key[None, :] == key[:, None]) & (seats[None, :] < seats[:, None])
    )
    return before.sum(axis=1, dtype=jnp.int32)


def _end_bout(spec: Spec, c: Core) -> Core:
    """R4.10, R5, R6, R7: clear or take the table, draw, record outs, end or rotate."""
    rules = spec.rules
    p, n, s = spec.p, spec.n, spec.s
    seats = jnp.arange(p)
    cards = jnp.arange(n)
    slot = jnp.arange(s)
    on_table = slot < c.table_n
    beaten_slot = on_table & (c.beat >= 0)
    table = ((cards[None, :] == c.attack[:, None]) & on_table[:, None]).any(axis=0) | (
        (cards[None, :] == c.beat[:, None]) & beaten_slot[:, None]
    ).any(axis=0)
    taker = (seats == c.defender)[:, None] & c.taken & table[None, :]
    hands = c.hands | taker
    known = c.known | taker
    # R4.10: the table's cards onto the discard pile, pair by pair, unless taken (a bout
    # ends untaken only with every attack card beaten, so the pairs are the first 2 * table_n
    # entries of ``pairs``)
    pairs = jnp.stack([c.attack, c.beat], axis=1).reshape(-1)
    put = jnp.where(c.taken, 0, 2 * c.table_n)
    pile = jnp.arange(n) - c.discard_n  # per pile position, its index in ``pairs``
    discard = jnp.where((pile >= 0) & (pile < put), pairs[jnp.clip(pile, 0, 2 * s - 1)], c.discard)
    discard_n = c.discard_n + put
    defences = c.defences + jnp.where(c.taken, 0, 1)
    # R5.1: the draw, in the order of _draw_ranks, from the top of the stock
    eligible = c.places == 0
    count = hands.sum(axis=1, dtype=jnp.int32)
    need = jnp.maximum(spec.hand - count, 0) * eligible
    place = _draw_ranks(spec, c)
    earlier = place[None, :] < place[:, None]  # [seat, other]: other draws before seat
    start = c.stock_top + jnp.where(earlier, need[None, :], 0).sum(axis=1)
    start = jnp.minimum(start, c.stock_end)
    end = jnp.minimum(start + need, c.stock_end)
    new_top = jnp.minimum(c.stock_top + need.sum(), c.stock_end)
    pos = jnp.arange(n)
    mine = (pos[None, :] >= start[:, None]) & (pos[None, :] < end[:, None])  # [P, positions]
    drawn = mine.any(axis=0)
    drawer = (mine * seats[:, None]).sum(axis=0)
    # the step's one scatter: the drawn cards into their drawers' hands (by position)
    hands = hands.at[drawer, jnp.maximum(c.stock, 0)].max(drawn)
    last = jnp.maximum(c.stock_end - 1, 0)
    face_up = (
        (new_top == c.stock_end)
        & (c.stock_top < c.stock_end)
        & (_pick(c.stock, last) == c.trump_card)
        & (c.trump_card >= 0)
    )
    # the face-up trump is the last card of the stock: every player knows who drew it
    last_drawer = ((last >= start) & (last < end)) & face_up
    known = known | (last_drawer[:, None] & (cards == c.trump_card)[None, :])
    # R7: outs, places, the result
    count = hands.sum(axis=1, dtype=jnp.int32)
    newly_out = (new_top == c.stock_end) & (c.places == 0) & (count == 0)
    place = 1 + (c.places > 0).sum(dtype=jnp.int32)
    places = jnp.where(newly_out, place, c.places)
    some_out = newly_out.any()
    placed = places > 0
    durak = _i(-1)
    draw = jnp.bool_(False)
    if rules.objective is Objective.FIRST_OUT:
        over = some_out
        lost = placed.sum(dtype=jnp.int32) + 1
        final = jnp.where(placed, 1, lost)
        winners = placed
    else:
        left_n = (~placed).sum(dtype=jnp.int32)
        over = some_out & (left_n <= 1)
        one = left_n == 1
        last_seat = jnp.argmax(~placed)
        if rules.on_last_cleared is OnLastCleared.DEFENDER_LOSES:
            durak = jnp.where(one, last_seat, c.defender).astype(jnp.int32)
        else:
            durak = jnp.where(one, last_seat, -1).astype(jnp.int32)
            draw = left_n == 0
        final = jnp.where(seats == durak, p, places)
        winners = seats != durak
    places = jnp.where(over, final, places)
    durak = jnp.where(over, durak, -1)
    draw = over & draw
    winners = over & winners
    # R6: the next bout's attacker and defender
    active = places == 0
    nxt = _next_active(active, c.defender, p)
    attacker = jnp.where(~c.taken & _pick(active, c.defender), c.defender, nxt)
    defender = _next_active(active, attacker, p)
    attacker = jnp.where(over, c.attacker, attacker)
    defender = jnp.where(over, c.defender, defender)
    return c.replace(
        hands=hands,
        known=known,
        stock_top=new_top.astype(jnp.int32),
        discard=discard,
        discard_n=discard_n,
        **_fresh_bout(spec, attacker, defender),
        bouts=c.bouts + 1,
        defences=defences,
        places=places,
        over=over,
        durak=durak,
        draw=draw,
        winners=winners,
    )


def _fresh_bout(spec: Spec, attacker: Array, defender: Array) -> dict[str, Array]:
    """The fields of a bout not yet begun (R4.1): an empty table, ``attacker`` leading against
    ``defender``, nobody joined, passed, taken or shown (the deal's and a bout end's)."""
    s, p, n = spec.s, spec.p, spec.n
    return {
        "attack": jnp.full(s, -1, dtype=jnp.int32),
        "beat": jnp.full(s, -1, dtype=jnp.int32),
        "table_n": _i(0),
        "attacker": attacker.astype(jnp.int32),
        "defender": defender.astype(jnp.int32),
        "leader": attacker.astype(jnp.int32),
        "join_pos": jnp.full(p, -1, dtype=jnp.int32),
        "joined_n": _i(0),
        "defender_hand": _i(0),
        "taken": jnp.bool_(False),
        "passed": jnp.zeros(p, dtype=jnp.bool_),
        "shown": jnp.zeros(n, dtype=jnp.bool_),
    }


def _play(spec: Spec, c: Core, player: Array, action: Array) -> Core:
    """``c`` after ``player`` plays the legal action id ``action``, before any bout end:
    elementwise updates (a one-hot of the card, of the seat, of the slot)."""
    p, n, s = spec.p, spec.n, spec.s
    seats = jnp.arange(p)
    cards = jnp.arange(n)
    slots = jnp.arange(s)
    action = action.astype(jnp.int32)
    is_take = action == 0
    is_pass = action == 1
    is_attack = (action >= 3) & (action < spec.beat_offset)
    is_beat = (action >= spec.beat_offset) & (action < spec.transfer_offset)
    is_transfer = (action >= spec.transfer_offset) & (action < spec.show_offset)
    is_show = (action >= spec.show_offset) & (action < spec.show_offset + n)
    beat_index = action - spec.beat_offset
    card = jnp.where(
        is_attack,
        action - 3,
        jnp.where(
            is_beat,
            jax.lax.rem(beat_index, n),
            jnp.where(is_transfer, action - spec.transfer_offset, action - spec.show_offset),
        ),
    )
    card = jnp.clip(card, 0, n - 1)
    slot = jnp.clip(jax.lax.div(beat_index, n), 0, s - 1)
    me = seats == player
    the_card = cards == card
    mine = me[:, None] & the_card[None, :]  # [P, N]
    is_lead = is_attack & (c.table_n == 0)
    plays = is_attack | is_beat | is_transfer
    hands = c.hands & ~(mine & plays)
    adds = is_attack | is_transfer
    attack = jnp.where((slots == c.table_n) & adds, card, c.attack)
    table_n = c.table_n + adds.astype(jnp.int32)
    beat = jnp.where((slots == slot) & is_beat, card, c.beat)
    joins = adds & (_pick(c.join_pos, player) < 0) & ~is_lead
    join_pos = jnp.where(me & joins, c.joined_n, c.join_pos)
    joined_n = c.joined_n + joins.astype(jnp.int32)
    join_pos = jnp.where(is_lead, jnp.where(me, 0, -1), join_pos)
    joined_n = jnp.where(is_lead, 1, joined_n)
    leader = jnp.where(is_lead, player, c.leader)
    moves = is_transfer | is_show
    count = hands.sum(axis=1, dtype=jnp.int32)
    active = (c.places == 0) & (
        (c.hands.sum(axis=1, dtype=jnp.int32) > 0) | (c.stock_end > c.stock_top)
    )
    target = jnp.maximum(_next_active(active, c.defender, p), 0)
    defender_hand = jnp.where(
        is_lead,
        _pick(count, c.defender),
        jnp.where(moves, _pick(count, target), c.defender_hand),
    )
    attacker = jnp.where(moves, player, c.attacker)
    defender = jnp.where(moves, target, c.defender)
    shown = c.shown | (the_card & is_show)
    known = (c.known | (mine & is_show)) & hands
    passed = jnp.where(is_pass, c.passed | me, jnp.zeros(p, dtype=jnp.bool_))
    taken = c.taken | is_take
    return c.replace(
        hands=hands,
        known=known,
        attack=attack,
        beat=beat,
        table_n=table_n.astype(jnp.int32),
        leader=leader.astype(jnp.int32),
        join_pos=join_pos.astype(jnp.int32),
        joined_n=joined_n.astype(jnp.int32),
        defender_hand=defender_hand.astype(jnp.int32),
        attacker=attacker.astype(jnp.int32),
        defender=defender.astype(jnp.int32),
        shown=shown,
        passed=passed,
        taken=taken,
    )


def step_with_facts(spec: Spec, c: Core, player: Array, action: Array) -> tuple[Core, Facts]:
    """:func:`step`, and the bout's facts of the state it returns (:func:`facts`), computed
    once: the facts after the action decide whether the bout ends (R4.10), and serve as the
    new state's facts unless it ended, when they are those of the fresh bout."""
    new = _play(spec, c, player, action)
    f = facts(spec, new)
    over = _bout_over(new, f)
    ended = _end_bout(spec, new)
    out: Core = jax.tree_util.tree_map(lambda a, b: jnp.where(over, a, b), ended, new)
    return out, _select_facts(over, facts(spec, ended), f)


def step(spec: Spec, c: Core, player: Array, action: Array) -> Core:
    """``c`` after ``player`` plays the action id ``action`` (:func:`durak.apply`), the bout
    ended if it ends (R4.10). The action must be legal (:func:`legal_mask`): an illegal one
    gives an undefined state."""
    return step_with_facts(spec, c, player, action)[0]


# -- the deal -------------------------------------------------------------------------------


def deal(spec: Spec, order: Array, dealer: int | Array | None = None) -> Core:
    """A new game dealt from ``order`` (card indices, top card first): R2.3 dealing, R2.4
    trump, R3 the first attacker (:func:`durak.new_game` with ``deck=``)."""
    p, n, h = spec.p, spec.n, spec.hand
    seats = jnp.arange(p)
    dealer_ = _i(p - 1 if dealer is None else dealer)
    order = order.astype(jnp.int32)
    dealt = p * h
    pos = jnp.arange(dealt)
    to = (dealer_ + 1 + pos % p) % p
    hands = jnp.zeros((p, n), dtype=jnp.bool_).at[to, order[:dealt]].set(True)
    rest = n - dealt
    if rest:
        trump_card = order[dealt]
        stock = jnp.concatenate([order[dealt + 1 :], order[dealt : dealt + 1], order[:dealt]])
        stock_end = _i(rest)
        holder = _i(-1)
    else:
        trump_card = order[dealt - 1]
        stock = order
        stock_end = _i(0)
        holder = to[dealt - 1]
    suit = jnp.asarray(spec.suit)
    rank = jnp.asarray(spec.rank)
    trump = suit[trump_card]
    trumps = hands & (suit == trump)[None, :]
    low = jnp.where(trumps, rank[None, :], 99).min(axis=1)  # per seat, his lowest trump
    clockwise = (dealer_ + 1 + seats) % p
    lows = low[clockwise]
    best = jnp.argmin(lows)  # the first of the lowest, clockwise from the dealer's left
    has = lows[best] < 99
    attacker = jnp.where(has, clockwise[best], (dealer_ + 1) % p)
    known = jnp.zeros((p, n), dtype=jnp.bool_)
    known = known.at[jnp.maximum(holder, 0), trump_card].set(holder >= 0)
    low_card = jnp.argmax(hands[attacker] & (suit == trump) & (rank == lows[best]))
    known = known.at[attacker, low_card].max(has)
    return Core(
        hands=hands,
        known=known,
        stock=stock,
        stock_top=_i(0),
        stock_end=stock_end,
        trump=trump.astype(jnp.int32),
        trump_card=trump_card,
        discard=jnp.full(n, -1, dtype=jnp.int32),
        discard_n=_i(0),
        dealer=dealer_,
        **_fresh_bout(spec, attacker, (attacker + 1) % p),
        bouts=_i(0),
        defences=_i(0),
        places=jnp.zeros(p, dtype=jnp.int32),
        over=jnp.bool_(False),
        durak=_i(-1),
        draw=jnp.bool_(False),
        winners=jnp.zeros(p, dtype=jnp.bool_),
    )


# -- observations ---------------------------------------------------------------------------


def observe(spec: Spec, c: Core, player: Array, f: Facts | None = None) -> Array:
    """``float32[L]``: ``player``'s observation tensor, equal to
    :func:`durak.rl.encoding.observe` (layout: :func:`durak.rl.encoding.observation_layout`);
    read only from what he may know (R13)."""
    rules = spec.rules
    if f is None:
        f = facts(spec, c)
    p, n, s = spec.p, spec.n, spec.s
    f32 = jnp.float32
    # k / N and k / S as the reference rounds them (float64, then float32): a lookup
    per_n = jnp.asarray(np.arange(n + 1) / n, dtype=f32)
    per_s = jnp.asarray(np.arange(s + 1) / s, dtype=f32)
    rel = _clockwise(player + jnp.arange(p), p)
    slot = jnp.arange(s)
    on_table = slot < c.table_n
    att_valid = on_table
    beat_valid = on_table & (c.beat >= 0)
    cards = jnp.arange(n)
    att_hot = (c.attack[:, None] == cards[None, :]) & att_valid[:, None]  # [S, N]
    beat_hot = (c.beat[:, None] == cards[None, :]) & beat_valid[:, None]
    table_attack = att_hot.any(axis=0)
    unbeaten = (att_hot & (c.beat < 0)[:, None]).any(axis=0)
    beating = beat_hot.any(axis=0)
    slots = jnp.stack([att_hot, beat_hot], axis=1)  # [S, 2, N]
    in_pile = jnp.arange(n) < c.discard_n
    discard = jnp.zeros(n, dtype=jnp.bool_).at[jnp.maximum(c.discard, 0)].max(in_pile)
    trump_card = (jnp.arange(n) == c.trump_card) & (c.trump_card >= 0)
    hand = c.hands[player]
    stock_n = c.stock_end - c.stock_top
    seen = hand | discard | table_attack | beating | c.known.any(axis=0)
    seen = seen | (trump_card & (stock_n > 0))
    unseen = ~seen
    actor = next_actor(spec, c, f)
    over = c.over
    throwers = f.throwers & (c.table_n > 0)
    seats = jnp.arange(p)
    by_seat = jnp.stack(  # [P, SEAT_FEATURES] by absolute seat, then turned to ``player``'s view
        [
            per_n[f.count],
            seats == c.attacker,
            seats == c.defender,
            seats == c.leader,
            seats == c.dealer,
            throwers,
            throwers & f.done,
            c.passed,
            c.join_pos >= 0,
            f.active,
            c.places > 0,
            jnp.zeros(p, dtype=jnp.bool_),
            seats == actor,
        ],
        axis=1,
    ).astype(f32)
    seat_rows = by_seat[rel]
    assert seat_rows.shape[1] == len(SEAT_FEATURES)
    trump_suit = jnp.arange(4) == c.trump
    limit = jnp.where(over, 0, f.limit)
    last = jnp.maximum(c.stock_end - 1, 0)
    face_up = (stock_n > 0) & (c.stock[last] == c.trump_card)
    scalars = jnp.stack(
        [
            per_n[stock_n],
            per_s[c.table_n],
            per_s[jnp.clip(limit, 0, s)],
            per_n[jnp.clip(c.defender_hand, 0, n)],
            c.taken.astype(f32),
            (c.bouts == 0).astype(f32),
            (c.defences > 0).astype(f32),
            over.astype(f32),
            face_up.astype(f32),
        ]
    ).astype(f32)
    assert scalars.shape[0] == len(SCALAR_FEATURES)
    del rules
    parts = [
        hand,
        c.known[rel].reshape(-1),
        table_attack,
        unbeaten,
        beating,
        slots.reshape(-1),
        discard,
        trump_card,
        c.shown,
        jnp.zeros(n, dtype=jnp.bool_),
        unseen,
    ]
    flat = [x.astype(f32) for x in parts]
    flat += [seat_rows.reshape(-1), trump_suit.astype(f32), scalars]
    return jnp.concatenate(flat)
