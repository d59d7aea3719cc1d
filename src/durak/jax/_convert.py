"""Conversions between the reference engine's :class:`~durak.GameState` and :class:`Core`."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from durak.cards import Card
from durak.jax._core import Core, spec_of
from durak.rl.encoding import card_index
from durak.state import GameState, Result

_FIELDS = tuple(Core.__dataclass_fields__)


def from_state(state: GameState) -> Core:
    """One game's :class:`Core` (no batch axis, on the default device) holding the reference
    position ``state``.

    Raises:
        TypeError: ``state`` is not a :class:`~durak.GameState`.
        RulesError: its rules hold a setting this engine does not play (the setting is named).
    """
    core: Core = jax.tree_util.tree_map(jnp.asarray, host_core(state))
    return core


def host_core(state: GameState) -> Core:
    """:func:`from_state` with NumPy arrays (on the host: stack many before moving them).

    Raises:
        TypeError: ``state`` is not a :class:`~durak.GameState`.
        RulesError: its rules hold a setting this engine does not play (the setting is named).
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    spec = spec_of(state.rules)
    p, n, s = spec.p, spec.n, spec.s
    rules = state.rules

    def idx(card: Card) -> int:
        return card_index(card, rules)

    hands = np.zeros((p, n), dtype=np.bool_)
    known = np.zeros((p, n), dtype=np.bool_)
    for seat, hand in enumerate(state.hands):
        hands[seat, [idx(c) for c in hand]] = True
    for seat, cards in enumerate(state.known):
        known[seat, [idx(c) for c in cards]] = True
    stock = np.full(n, -1, dtype=np.int32)
    stock[: len(state.stock)] = [idx(c) for c in state.stock]
    attack = np.full(s, -1, dtype=np.int32)
    beat = np.full(s, -1, dtype=np.int32)
    for j, (a, b) in enumerate(state.table):
        attack[j] = idx(a)
        beat[j] = -1 if b is None else idx(b)
    discard = np.full(n, -1, dtype=np.int32)
    discard[: len(state.discard)] = [idx(c) for c in state.discard]
    join_pos = np.full(p, -1, dtype=np.int32)
    for k, seat in enumerate(state.joined):
        join_pos[seat] = k
    passed = np.zeros(p, dtype=np.bool_)
    passed[list(state.passed)] = True
    shown = np.zeros(n, dtype=np.bool_)
    shown[[idx(c) for c in state.shown]] = True
    places = np.array([0 if x is None else x for x in state.places], dtype=np.int32)
    result = state.result
    winners = np.zeros(p, dtype=np.bool_)
    if result is not None:
        winners[list(result.winners)] = True
    i32 = np.int32
    fields: dict[str, Any] = {
        "hands": hands,
        "known": known,
        "stock": stock,
        "stock_top": i32(0),
        "stock_end": i32(len(state.stock)),
        "trump": i32(int(state.trump)),
        "trump_card": i32(-1 if state.trump_card is None else idx(state.trump_card)),
        "attack": attack,
        "beat": beat,
        "table_n": i32(len(state.table)),
        "discard": discard,
        "discard_n": i32(len(state.discard)),
        "dealer": i32(state.dealer),
        "attacker": i32(state.attacker),
        "defender": i32(state.defender),
        "leader": i32(state.leader),
        "join_pos": join_pos,
        "joined_n": i32(len(state.joined)),
        "defender_hand": i32(state.defender_hand),
        "taken": np.bool_(state.taken),
        "passed": passed,
        "shown": shown,
        "bouts": i32(state.bouts),
        "defences": i32(state.defences),
        "places": places,
        "over": np.bool_(result is not None),
        "durak": i32(-1 if result is None or result.durak is None else result.durak),
        "draw": np.bool_(result is not None and result.draw),
        "winners": winners,
    }
    return Core(**fields)


def to_state(
    core: Core,
    rules: Any,
    index: int | None = None,
    *,
    seed: int | str | None = None,
    shuffles: int = 0,
    appointed: int | None = None,
) -> GameState:
    """The reference :class:`~durak.GameState` of one game: ``core`` itself, or slot
    ``index`` of a batch. The fields the arrays do not hold (the deal's ``seed``, its
    ``shuffles`` and a match's ``appointed`` leader) are given.

    Raises:
        RulesError: a setting this engine does not play.
        IndexError: ``index`` is outside the batch.
    """
    spec = spec_of(rules)
    a = {k: np.asarray(getattr(core, k)) for k in _FIELDS}
    if index is not None:
        a = {k: v[index] for k, v in a.items()}
    deck = spec.deck
    p = spec.p

    def cards(mask: np.ndarray[Any, Any]) -> tuple[Card, ...]:
        return tuple([deck[i] for i in mask.nonzero()[0]])

    table: list[tuple[Card, Card | None]] = []
    for j in range(int(a["table_n"])):
        b = int(a["beat"][j])
        table.append((deck[int(a["attack"][j])], None if b < 0 else deck[b]))
    joined = sorted((int(k), seat) for seat, k in enumerate(a["join_pos"]) if k >= 0)
    places = tuple(None if x == 0 else int(x) for x in a["places"])
    result = None
    if bool(a["over"]):
        winners = tuple(int(x) for x in np.flatnonzero(a["winners"]))
        durak = int(a["durak"])
        draw = bool(a["draw"])
        result = Result(
            durak=None if durak < 0 else durak,
            draw=draw,
            places=tuple(int(x) for x in a["places"]),
            winners=winners,
            losers=() if draw else tuple(x for x in range(p) if x not in winners),
        )
    trump_card = int(a["trump_card"])
    top, end = int(a["stock_top"]), int(a["stock_end"])
    return GameState(
        rules=rules,
        hands=tuple(cards(a["hands"][seat]) for seat in range(p)),
        stock=tuple(deck[int(i)] for i in a["stock"][top:end]),
        trump=deck[0].suit.__class__(int(a["trump"])),
        trump_card=None if trump_card < 0 else deck[trump_card],
        table=tuple(table),
        discard=tuple(deck[int(i)] for i in a["discard"][: int(a["discard_n"])]),
        dealer=int(a["dealer"]),
        attacker=int(a["attacker"]),
        defender=int(a["defender"]),
        leader=int(a["leader"]),
        joined=tuple(seat for _, seat in joined),
        defender_hand=int(a["defender_hand"]),
        taken=bool(a["taken"]),
        passed=frozenset(int(x) for x in np.flatnonzero(a["passed"])),
        shown=frozenset(cards(a["shown"])),
        bouts=int(a["bouts"]),
        defences=int(a["defences"]),
        places=places,
        result=result,
        seed=seed,
        shuffles=shuffles,
        appointed=appointed,
        known=tuple(frozenset(cards(a["known"][seat])) for seat in range(p)),
    )
