"""The error contract of the text forms and constructors: cards (R1.3), the action and position
notation, Rules(...) (R14) and the web front-end's errors."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from durak import Card, DurakError, InvalidCardError, Rules, RulesError, parse_cards
from durak.cards import MAX_COPIES, Rank, Suit
from durak.errors import InvalidError, PositionError
from durak.notation import parse_action, parse_position

# --- R1.3: one written form per copy -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7h#1", "'7h'"),
        ("7h#01", "'7h'"),
        ("10h#1", "'Th'"),
        ("7h#02", "'7h#2'"),
        ("Qs#0016", "'Qs#16'"),
    ],
)
def test_R1_3_a_copy_suffix_that_is_not_canonical_names_the_canonical_form(
    text: str, canonical: str
) -> None:
    with pytest.raises(InvalidCardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)
    assert canonical in str(err.value)


@pytest.mark.parametrize(
    "text", ["7h#+2", "7h#", "7h#0", "7h#17", "7h#2#3", "7h#x", "7h#٢", "7h#²", "7h#2.0", "7h#-2"]
)
def test_R1_3_a_copy_is_two_to_sixteen_in_ascii_digits(text: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)
    assert f"2-{MAX_COPIES} in ASCII digits" in str(err.value)
    assert "'7h#2'" in str(err.value)


@pytest.mark.parametrize("text", ["7h #2", "7h# 2", "7h\t#2"])
def test_R1_3_a_copy_follows_its_card_without_spaces(text: str) -> None:
    with pytest.raises(InvalidCardError, match="right after its card"):
        Card.parse(text)


def test_R1_3_every_copy_has_one_text_that_reads_back() -> None:
    for copy in range(MAX_COPIES):
        card = Card.of(Rank.QUEEN, Suit.HEARTS, copy)
        text = str(card)
        assert text == ("Qh" if copy == 0 else f"Qh#{copy + 1}")
        assert Card.parse(text) is card
        assert Card.parse(card.pretty) is card
    assert parse_cards("Qh Qh#2 qH#3 Q♥#16") == tuple(
        Card.of(Rank.QUEEN, Suit.HEARTS, c) for c in (0, 1, 2, 15)
    )


def test_R1_3_text_in_other_scripts_is_no_card() -> None:
    # an Arabic-Indic seven, a full-width h, a full-width T, two Arabic-Indic threes
    for text in ("\u0667h", "7\uff48", "\uff34h", "\u0663\u0663h"):
        with pytest.raises(InvalidCardError):
            Card.parse(text)


# --- R1.3: Card(...) ---------------------------------------------------------------------------


def test_R1_3_card_of_text_is_card_parse_so_the_repr_evaluates_back() -> None:
    assert Card("6c") is Card.parse("6c")
    assert Card("Qh#2") is Card.of(Rank.QUEEN, Suit.HEARTS, 1)
    for card in (Card.parse("Td"), Card.parse("As#3")):
        assert eval(repr(card), {"Card": Card}) is card
    assert Card(int(Card.parse("7h"))) is Card.parse("7h")
    assert pickle.loads(pickle.dumps(Card.parse("7h#2"))) is Card.parse("7h#2")


@pytest.mark.parametrize("value", ["10", "6c#1", "", "seven of hearts"])
def test_R1_3_card_of_bad_text_is_an_invalid_card_error(value: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        Card(value)
    assert repr(value) in str(err.value)


# 15 and 1 are free slots of cards outside the 52 (the joker, R15.1, takes 15 once used): 32 and
# 48 have rank 0 and are never cards.
@pytest.mark.parametrize(
    "value", [0, 32, -1, 48, 10**6, pytest.param(10**5000, id="5001-digits"), 64 * 16 + 6]
)
def test_R1_3_card_of_an_integer_that_is_no_card(value: int) -> None:
    with pytest.raises(InvalidCardError, match="not a card value"):
        Card(value)


@pytest.mark.parametrize("value", [None, 6.0, 3.5, True, b"6c", [6], object()])
def test_R1_3_card_of_what_is_neither_an_integer_nor_text_is_a_type_error(value: Any) -> None:
    with pytest.raises(TypeError, match="integer value or its text form"):
        Card(value)


@pytest.mark.parametrize("value", [None, 5, 2.0, b"h", ["h"], object()])
def test_R1_3_suit_rank_and_card_parse_reject_what_is_not_text(value: Any) -> None:
    for parse in (Suit.parse, Rank.parse, Card.parse):
        with pytest.raises(InvalidCardError, match="expected text"):
            parse(value)


def test_R1_3_parse_returns_a_suit_rank_or_card_as_it_is() -> None:
    assert Suit.parse(Suit.HEARTS) is Suit.HEARTS
    assert Rank.parse(Rank.TEN) is Rank.TEN
    card = Card.parse("7h#2")
    assert Card.parse(card) is card


@pytest.mark.parametrize("value", [b"7h 8h", bytearray(b"7h"), [b"7h"], [None], [7], {"7h": 1.5}])
def test_R1_3_parse_cards_of_junk_is_an_invalid_card_error(value: Any) -> None:
    if isinstance(value, dict):
        assert parse_cards(value) == (Card.parse("7h"),)  # a mapping is an iterable of its keys
        return
    with pytest.raises(InvalidCardError):
        parse_cards(value)


@pytest.mark.parametrize("args", [("7", "h"), (7.0, 2), (None, 2), (7, 2, 1.0), (7, 2, True)])
def test_R1_3_card_of_needs_integers(args: tuple[Any, ...]) -> None:
    with pytest.raises(TypeError, match=r"Card\.of takes integers"):
        Card.of(*args)


def test_R1_3_long_text_is_quoted_briefly() -> None:
    with pytest.raises(InvalidCardError) as err:
        Card.parse("x" * 100_000)
    assert len(str(err.value)) < 300


# --- the action and position notation: ASCII digits ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "p\u0663 take",  # an Arabic-Indic three
        "p\uff13 take",  # a full-width three
        "p² take",
        "p1 ta\u212ae",  # the Kelvin sign, whose lower case is an ASCII k
        "p1 pa\u017fs",  # a long s, whose upper case is an ASCII S
        "p" + "9" * 5_000 + " take",
        "p1 lead 7h#1",
        "p1 lead 7h#٢",
    ],
)
def test_actions_are_written_in_ascii(text: str) -> None:
    with pytest.raises(InvalidError) as err:
        parse_action(text)
    assert "not an action" in str(err.value)
    assert len(str(err.value)) < 300


def test_actions_in_ascii_still_parse() -> None:
    assert parse_action("P3 TAKE") == parse_action("p3 take")
    assert str(parse_action("p12 lead 7h#2")) == "p12 lead 7h#2"
    assert str(parse_action("p1 beat 10h Qh#16")) == "p1 beat Th Qh#16"


# an Arabic-Indic zero, a full-width one, ...
@pytest.mark.parametrize("attacker", ["\u0660", "\uff11", "1.0", "+1", "9" * 5_000, "one"])
def test_position_numbers_are_ascii_digits(attacker: str) -> None:
    text = f"hands: 6h 7h 8c / 9s Ts; stock: Kc; trump: d; attacker: {attacker}"
    with pytest.raises(PositionError, match="attacker must be a seat number in ASCII digits"):
        parse_position(text, Rules())


@pytest.mark.parametrize(("text", "rules"), [(None, Rules()), (b"hands: -", Rules()), ("", None)])
def test_position_of_what_is_not_text_or_rules_is_a_type_error(text: Any, rules: Any) -> None:
    with pytest.raises(TypeError):
        parse_position(text, rules)


# --- R14: Rules(...) ---------------------------------------------------------------------------


def test_R14_an_unknown_setting_given_to_rules_is_a_rules_error() -> None:
    with pytest.raises(RulesError) as err:
        Rules(bogus=1)  # type: ignore[call-arg]
    assert err.value.setting == "bogus"
    assert err.value.reason.startswith("unknown setting (known: players, deck_size, ")
    with pytest.raises(RulesError) as err:
        Rules(players=3, zeta=1, alpha=2)  # type: ignore[call-arg]
    assert err.value.setting == "alpha"  # the first unknown name, as Rules.replace says it
    with pytest.raises(RulesError) as replaced:
        Rules().replace(bogus=1)
    assert str(replaced.value) == str(RulesError("bogus", err.value.reason))


def test_R14_settings_given_by_position_are_a_clear_type_error() -> None:
    with pytest.raises(TypeError, match=r"by name, e\.g\. Rules\(players=4\), not by position"):
        Rules(4)  # type: ignore[call-arg]


def test_R14_rules_stay_hashable_comparable_and_picklable() -> None:
    rules = Rules(players=4, teams=[[0, 2], [1, 3]])
    assert rules == Rules(players=4, teams=((0, 2), (1, 3)))
    assert hash(rules) == hash(Rules(players=4, teams=[[1, 3], [0, 2]]))
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert rules.replace(players=4) == rules
    # Rules pickle as their changes from the defaults: every kind of setting survives, and
    # rules read back twice are one object, shared as the rules of states built by play are.
    changed = Rules(
        players=3, strict_suits=["c"], first_bout_max=None, lead="same_rank", house_rules=()
    )
    again = pickle.loads(pickle.dumps(changed))
    assert again == changed and hash(again) == hash(changed)
    assert pickle.loads(pickle.dumps(changed)) is again
    assert b"strict_suits" in pickle.dumps(changed)
    assert b"throw_order" not in pickle.dumps(changed)
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        ({1: 2}, "1"),
        ({("players",): 2}, "('players',)"),
        ({"deck_size": [36]}, "deck_size"),
        ({"strict_suits": [10**5000]}, "strict_suits"),
        ({"players": 10**5000}, "players"),
        ({"hand_size": 10**5000}, "players"),
    ],
)
def test_R14_rules_from_junk_settings_is_a_rules_error(data: Any, setting: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_dict(data)
    assert err.value.setting == setting
    assert len(str(err.value)) < 400


# --- the web front-end's error -----------------------------------------------------------------


def test_table_error_is_a_library_error() -> None:
    tables = pytest.importorskip("durak.web.tables")
    assert issubclass(tables.TableError, DurakError)
    assert issubclass(tables.TableError, ValueError)
    with pytest.raises(DurakError, match="unknown seat kind"):
        tables.TableManager(bot_delay=0).create("podkidnoy", ["human", "robot"])
