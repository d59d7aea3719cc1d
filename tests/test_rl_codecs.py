"""The RL action encoding as a registry of per-kind codecs (durak.rl.encoding.ActionCodec).

The rule book's ids are compared against the layout computed here, independently of the
module; a plug-in kind (examples/house_rule.py's Concede) gets its own segment after them.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest
from optional_parts import need

from durak import (
    Beat,
    ExchangeTrump,
    GameState,
    InvalidError,
    Lead,
    Pass,
    Redeal,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    build_deck,
    legal_actions,
    new_game,
    new_position,
    next_actor,
)
from durak.actions import Action, register_action
from durak.cards import Card, special_card
from durak.presets import get_preset
from durak.rl import encoding as enc
from durak.rules.bout import Bout
from durak.rules.modules import RuleModule, register

EXAMPLES = Path(__file__).parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))
house_rule = importlib.import_module("house_rule")

CONCEDE = enc.register_codec(
    enc.ActionCodec(
        "concede",
        ("concede",),
        shape=lambda rules: (1,),
        encode=lambda action, rules, context: 0,
        decode=lambda i, player, rules, context: house_rule.Concede(player),
        description="Concede the game (house:concede)",
    )
)

RULE_BOOK = [
    Rules(),
    Rules(deck_size=52),
    Rules(deck_size=24, decks=2, players=4),
    Rules(deck_size=32, max_attack=5, first_bout_max=5),
    get_preset("perevodnoy-show-trump").rules(
        players=3, trump_six_exchange=True, misdeal_suit_count=3
    ),
]


def expected_layout(rules: Rules) -> list[tuple[str, int, tuple[int, ...]]]:
    """The rule book's segments (name, offset, shape), from the documented formulas."""
    n = rules.deck_size * rules.decks
    s = min(n, max(rules.max_attack, rules.first_bout_max or 0))
    return [
        ("take", 0, (1,)),
        ("pass", 1, (1,)),
        ("redeal", 2, (1,)),
        ("attack", 3, (n,)),
        ("beat", 3 + n, (s, n)),
        ("transfer", 3 + n + s * n, (n,)),
        ("show", 3 + 2 * n + s * n, (n,)),
        ("exchange", 3 + 3 * n + s * n, (n,)),
    ]


def context(rules: Rules, table: Iterable[tuple[Card, Card | None]] = ()) -> Any:
    """What encode and decode read of a state: the rules and the table."""
    return SimpleNamespace(rules=rules, table=tuple(table))


@pytest.mark.parametrize("rules", RULE_BOOK)
def test_built_in_ids_are_unchanged(rules: Rules) -> None:
    layout = expected_layout(rules)
    assert [(p.name, p.offset, p.shape) for p in enc.action_layout(rules)] == layout
    n = rules.deck_size * rules.decks
    s = layout[4][2][0]
    assert enc.action_space_size(rules) == 3 + n * (s + 4)
    empty = context(rules)
    for action, index in ((Take(1), 0), (Pass(1), 1), (Redeal(1), 2)):
        assert enc.encode(action, empty) == index
        assert enc.decode(index, empty, 1) == action
    deck = build_deck(rules.deck_size, rules.decks)
    offsets = {name: offset for name, offset, _ in layout}
    attack = deck[-1]
    table = context(rules, [(deck[0], deck[1])] * (s - 1) + [(attack, None)])
    for k, card in enumerate(deck):
        assert enc.card_index(card, rules) == k and enc.index_card(k, rules) == card
        cases: list[tuple[Action, int, Any]] = [
            (Lead(1, (card,)), offsets["attack"] + k, empty),
            (ThrowIn(1, card), offsets["attack"] + k, table),
            (Beat(1, attack, card), offsets["beat"] + (s - 1) * n + k, table),
            (Transfer(1, (card,)), offsets["transfer"] + k, table),
            (ShowTrump(1, card), offsets["show"] + k, table),
            (ExchangeTrump(1, card), offsets["exchange"] + k, empty),
        ]
        for action, index, where in cases:
            assert enc.encode(action, where) == index, action
            assert enc.decode(index, where, 1) == action, action
    assert enc.describe(offsets["attack"] + 1, rules) == f"attack {deck[1]}"
    assert enc.describe(offsets["beat"] + n + 2, rules) == f"beat slot 1 with {deck[2]}"
    assert enc.describe(offsets["exchange"], rules) == f"exchange {deck[0]}"


def test_the_built_in_codecs_come_first_in_the_documented_order() -> None:
    names = [codec.name for codec in enc.codecs()]
    assert names[:8] == [name for name, _, _ in expected_layout(Rules())]
    assert enc.codec_of(ThrowIn(0, "7h")) is enc.codec_of(Lead(0, "7h"))
    assert enc.table_cards(Beat(0, "7h", "9h")) == (Card.parse("9h"),)
    assert enc.table_cards(Transfer(0, "7h")) == (Card.parse("7h"),)
    assert enc.table_cards(ShowTrump(0, "7h")) == ()
    assert enc.table_cards(house_rule.Concede(0)) == ()


# --------------------------------------------------------------------------------------------
# A plug-in codec: Concede
# --------------------------------------------------------------------------------------------

CONCEDING = Rules(players=3, house_rules=["concede"])


def _end_position(rules: Rules) -> GameState:
    hands = ["7h 8c", "9h Tc", "Jd Qd"]
    used = " ".join(hands).split()
    discard = [str(c) for c in build_deck(36) if str(c) not in used]
    return new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)


def test_a_plugin_codec_adds_a_segment_after_the_built_in_ones() -> None:
    plain = Rules(players=3)
    assert enc.action_space_size(plain) == 363
    assert enc.action_layout(CONCEDING)[:-1] == enc.action_layout(plain)
    last = enc.action_layout(CONCEDING)[-1]
    assert (last.name, last.offset, last.shape) == ("concede", 363, (1,))
    assert enc.action_space_size(CONCEDING) == 364
    assert enc.describe(363, CONCEDING) == "concede"
    with pytest.raises(ValueError, match="outside 0-362"):
        enc.describe(363, plain)


def test_a_plugin_codec_round_trips() -> None:
    state = apply(_end_position(CONCEDING), Lead(0, "7h"))
    concede = house_rule.Concede(1)
    assert enc.encode(concede, state) == 363
    assert enc.decode(363, state, 1) == concede
    assert enc.decode(363, state) == concede  # the defender acts next
    assert 363 in enc.legal_ids(state, 1)
    mask = enc.legal_mask(state, 1)
    assert mask.dtype == np.bool_ and mask.shape == (364,) and mask[363]
    end = apply(state, enc.decode(363, state, 1))
    assert end.result is not None and end.result.durak == 1
    with pytest.raises(ValueError, match="no id under these rules"):
        enc.encode(concede, apply(_end_position(Rules(players=3)), Lead(0, "7h")))


def test_random_games_with_a_plugin_kind_encode_every_legal_action() -> None:
    rng = random.Random(4)
    seen = False
    for seed in range(6):
        state = new_game(CONCEDING, seed=seed)
        while not state.is_over:
            actor = next_actor(state)
            assert actor is not None
            actions = legal_actions(state, actor)
            ids = [enc.encode(a, state) for a in actions]
            assert len(set(ids)) == len(ids)
            assert [enc.decode(i, state, actor) for i in ids] == list(actions)
            seen = seen or 363 in ids
            state = apply(state, rng.choice(actions))
    assert seen


# --------------------------------------------------------------------------------------------
# What check_supported refuses
# --------------------------------------------------------------------------------------------


def _seat(_instance: object, _attribute: object, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(f"a player is a seat number, not {value!r}")


@register_action
@attrs.frozen
class Knock:
    """A test kind that no codec encodes: ``p0 knock``."""

    player: int = attrs.field(validator=_seat)
    kind: ClassVar[str] = "knock"

    def describe(self) -> str:
        return "knock"

    def __str__(self) -> str:
        return f"p{self.player} knock"


class Knocking(RuleModule):
    name = "test-rl-knock"
    description = "a kind of action without a codec"
    rule = "house:test-rl-knock"
    kinds = (Knock,)

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        return ()


class OneJoker(RuleModule):
    name = "test-rl-joker"
    description = "a card outside the 52"
    rule = "house:test-rl-joker"

    def deck(self, rules: Rules, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return (*cards, special_card("Jk"))


register(Knocking())
register(OneJoker())


def test_a_kind_without_a_codec_is_refused_by_name() -> None:
    rules = Rules(house_rules=["test-rl-knock"])
    with pytest.raises(enc.UnsupportedRulesError, match="'knock'") as info:
        enc.check_supported(rules)
    assert info.value.setting == "house_rules"
    assert "Knock" in str(info.value)
    with pytest.raises(enc.UnsupportedRulesError, match="knock"):
        enc.action_space_size(rules)
    with pytest.raises(enc.UnsupportedRulesError, match="knock"):
        enc.observation_layout(rules)
    enc.check_supported(CONCEDING)  # Concede has its codec


def test_a_deck_with_cards_outside_the_52_is_refused_naming_them() -> None:
    with pytest.raises(enc.UnsupportedRulesError, match="Jk") as info:
        enc.check_supported(Rules(house_rules=["test-rl-joker"]))
    assert info.value.setting == "house_rules"


def test_R4_2_R9_4_every_rule_book_setting_is_supported() -> None:
    enc.check_supported(get_preset("german-classic").rules())
    enc.check_supported(Rules(transfer_by_card=True, transfer_several=True))


def test_register_codec_refuses_clashes() -> None:
    assert enc.register_codec(CONCEDE) is CONCEDE  # again: nothing changes
    twin = attrs.evolve(CONCEDE, name="concede-again")
    with pytest.raises(InvalidError, match="'concede' is encoded by the codec 'concede'"):
        enc.register_codec(twin)
    with pytest.raises(InvalidError, match="taken"):
        enc.register_codec(attrs.evolve(CONCEDE, kinds=("knock",)))
    with pytest.raises(InvalidError, match="not an action kind"):
        enc.register_codec(attrs.evolve(CONCEDE, name="nothing", kinds=("nothing",)))
    assert enc.codec_of(Knock(0)) is None


def test_the_openspiel_game_plays_a_plugin_kind_and_refuses_one_without_a_codec() -> None:
    pyspiel = need("pyspiel")
    from durak.rl.openspiel_game import game_rules

    game = pyspiel.load_game(
        "python_durak", {"players": 3, "rules": '{"house_rules": ["concede"]}'}
    )
    assert game.num_distinct_actions() == 364
    rng = random.Random(2)
    texts: set[str] = set()
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            action = rng.choice(state.legal_actions())
            texts.add(state.action_to_string(state.current_player(), action).split()[1])
            state.apply_action(action)
    assert "concede" in texts
    with pytest.raises(enc.UnsupportedRulesError, match="'knock'"):
        game_rules({"rules": '{"house_rules": ["test-rl-knock"]}'})
