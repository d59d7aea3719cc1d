"""The command line before and around a game in the player's language: ``durak rules``
translated, the errors a player meets before a game starts said from their codes, the
tournament table within 80 columns, the plural of several cards in a lead or a transfer, and
what the protocol page says of the WebSocket's ``result_text``."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from durak.actions import Lead, Transfer
from durak.cards import Card
from durak.cli import main
from durak.errors import RulesError
from durak.events import Led, Transferred, describe_event
from durak.i18n import Language
from durak.presets import get_preset
from durak.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
X = "\N{MULTIPLICATION SIGN}"  # as the catalogs write a product of counts


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


# -- durak rules ----------------------------------------------------------------------------


def test_R14_rules_list_in_the_language_of_lang(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "de"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    de = Language("de")
    podkidnoy = get_preset("podkidnoy")
    assert " ".join(de.gettext(podkidnoy.description).split()) in out
    assert "Quelle:" in out and "(Standard)" in out
    assert "source:" not in out and "aliases:" not in out
    assert "throw-in" in out  # the aliases as --preset takes them


def test_R14_rules_follow_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["rules", "pairs"]) == 0
    out = capsys.readouterr().out
    assert "источник" in out and "настройка" in out and "значение" in out
    assert "players" in out and "teams" in out  # settings' names stay the rules file's keys
    assert "* отличается от умолчания (" in out
    assert "'durak rules pairs --toml'" in out


def test_R14_rules_of_a_preset_in_polish_with_english_left_nowhere(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "polish", "--lang", "pl"]) == 0
    out = capsys.readouterr().out
    for english in ("aliases", "source", "setting", "differs from the default"):
        assert english not in out
    assert "źródło" in out and "ustawienie" in out and "wartość" in out
    assert main(["rules", "polish"]) == 0  # English without --lang (the tests' environment)
    assert "source" in capsys.readouterr().out


def test_R14_rules_unknown_preset_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "nope", "--lang", "ru"]) == 2
    err = capsys.readouterr().err
    assert "preset: неизвестный вариант 'nope' (известны: podkidnoy" in err


# -- errors before a game starts ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "lang", "said"),
    [
        (
            ["--preset", "pairs", "--players", "3"],
            "pl",
            "players: wariant pairs jest dla 4 graczy w stałych drużynach, nie dla 3 "
            "(warianty drużynowe: pairs dla 4, pairs-3x2 dla 6)",
        ),
        (
            ["--bots", "rule,random", "--players", "2"],
            "pl",
            "bots: 2 boty (rule, random) dają liczbę graczy 3, ale --players to 2",
        ),
        (
            ["--bots", "rule,random,random,random,random", "--players", "4"],
            "ru",
            "bots: 5 ботов (rule, random, random, random, random) дают число игроков 6, но "
            "--players равно 4",
        ),
        (["--preset", "nope"], "de", "preset: unbekannte Variante 'nope' (bekannt: podkidnoy"),
        (["--set", "foo=1"], "ru", "foo: неизвестная настройка (известны: preset, players"),
        (["--set", "lead=x"], "pl", "lead: nieznana wartość 'x' (znane: 'single', 'same_rank')"),
        (["--set", "jokers=5"], "de", "jokers: muss von 0 bis 2 sein, nicht 5"),
        (["--set", "cheating=3"], "ru", "cheating: должно быть true или false, а не 3"),
        (["--players", "1"], "pl", "players: musi wynosić co najmniej 2, a nie 1"),
        (
            ["--players", "9"],
            "ru",
            f"players: игроки {X} карты на руки = 9 {X} 6 = 54, а в колоде всего карт: 36 (R2.1)",
        ),
        (
            ["--set", "decks=2", "--set", "players=13"],
            "de",
            f"players: Spieler {X} Handkarten = 13 {X} 6 = 78 Karten, aber 2 Spiele zu 36 Karten "
            "haben nur 72 (R2.1)",
        ),
    ],
)
def test_R14_errors_before_the_game_in_the_chosen_language(
    args: list[str], lang: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--line", *args, "--lang", lang]) == 2
    assert f"durak: error: {said}" in capsys.readouterr().err


def test_R14_errors_before_the_game_follow_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["play", "--line", "--preset", "pairs", "--players", "3"]) == 2
    assert "вариант pairs — для 4 игроков в постоянных командах" in capsys.readouterr().err


def test_R14_a_bad_rules_file_in_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "house.toml"
    path.write_text('players = "x"\nhand_size = 6\n', encoding="utf-8")
    assert main(["play", "--line", "--rules", str(path), "--lang", "de"]) == 2
    assert "players: muss eine ganze Zahl sein, nicht 'x'" in capsys.readouterr().err
    path.write_text("frobnicate = 1\n", encoding="utf-8")
    assert main(["play", "--line", "--rules", str(path), "--lang", "pl"]) == 2
    assert "frobnicate: nieznane ustawienie (znane: preset, players" in capsys.readouterr().err


def test_R2_1_rules_errors_keep_their_english_text_and_setting_and_add_a_code() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(players=9)
    exc = caught.value
    assert str(exc) == "players: 9 players x 6 cards need 54 cards, but the deck has 36 (R2.1)"
    assert exc.setting == "players"
    assert exc.code == "rules.deal-too-big"
    assert dict(exc.params) == {"count": 9, "hand": 6, "need": 54, "total": 36}
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == str(exc) and again.code == exc.code and again.setting == "players"
    with pytest.raises(RulesError) as caught:
        Rules(players=13, decks=2)
    assert str(caught.value).endswith("but 2 decks of 36 has 72 (R2.1)")
    assert caught.value.code == "rules.deal-too-big-decks"
    with pytest.raises(RulesError) as caught:
        get_preset("nope")
    assert caught.value.code == "rules.unknown-preset"
    assert caught.value.params["given"] == "'nope'"
    with pytest.raises(RulesError) as caught:
        Rules(frobnicate=1)  # type: ignore[call-arg]
    assert (caught.value.setting, caught.value.code) == ("frobnicate", "rules.unknown-setting")
    with pytest.raises(RulesError) as caught:
        Rules(lead="x")  # type: ignore[arg-type]
    assert str(caught.value) == "lead: unknown value 'x' (known: 'single', 'same_rank')"
    assert caught.value.code == "rules.unknown-value"


def test_R10_1_team_preset_error_keeps_its_english_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--line", "--preset", "pairs", "--players", "3"]) == 2
    assert capsys.readouterr().err == (
        "durak: error: players: the preset pairs is for 4 players in fixed teams, not 3 "
        "(team presets: pairs for 4, pairs-3x2 for 6)\n"
    )


# -- the tournament table -----------------------------------------------------------------


def test_tournament_table_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--bots", "search,rule,random,random", "--games", "4", "--seed", "3"]
    assert main([*args, "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    text = "\n".join(lines)
    for seat, kind in enumerate(("search", "rule", "random", "random")):
        assert text.count(f"\n{kind} (seat {seat}) ") == 2  # both tables
    for column in ("games", "durak", "decided", "draws", "durak rate", "95% CI"):
        assert column in text
    assert "cpu ms/move" in text and "wall ms/move" in text


# -- several cards: the plural ------------------------------------------------------------


def test_R9_4_transfer_with_several_cards_says_the_plural() -> None:
    several = _cards("7d 7h")
    one = _cards("7h")
    pl, ru = Language("pl"), Language("ru")
    assert pl.say(Transfer(0, several).describe()) == "przekaż kartami 7♦ 7♥"
    assert pl.say(Transfer(0, one).describe()) == "przekaż kartą 7♥"
    assert ru.say(Transfer(0, several).describe()) == "перевести картами 7♦ 7♥"
    assert ru.say(Transfer(0, one).describe()) == "перевести картой 7♥"
    event = describe_event(Transferred(0, 1, cards=several))
    assert event.params["n"] == 2
    assert pl.say(event) == "gracz 0 przekazuje kartami 7♦ 7♥, teraz broni się: gracz 1"
    assert ru.say(event, you=1).startswith("игрок 0 переводит картами 7♦ 7♥")
    assert str(event) == "player 0 transferred with 7d 7h to player 1"


def test_R4_2_lead_of_several_cards_says_the_plural() -> None:
    several = _cards("9c 9h 9s")
    pl, ru = Language("pl"), Language("ru")
    assert pl.say(Lead(0, several).describe()) == "wyjdź kartami 9♣ 9♥ 9♠"
    assert ru.say(Lead(0, several[:1]).describe()) == "сходить картой 9♣"
    event = describe_event(Led(0, several, 1))
    assert ru.say(event, you=0) == "ты ходишь картами 9♣ 9♥ 9♠, отбивается: игрок 1"
    assert pl.say(describe_event(Led(0, several[:1], 1))).startswith("gracz 0 wychodzi kartą 9♣")
    assert str(event) == "player 0 led 9c 9h 9s against player 1"


# -- the web protocol ------------------------------------------------------------------------


def test_protocol_page_says_result_text_is_english_and_where_the_result_is() -> None:
    text = " ".join((ROOT / "docs" / "protocol.md").read_text("utf-8").split())
    assert "`result_text` is English too, whatever the connection's language" in text
    assert "`view.result`" in text and "`event.durak`" in text
