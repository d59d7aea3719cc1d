"""The message catalogs (durak.messages, durak.i18n, src/durak/locale): every reason code and
every event said in en, de, pl and ru, nothing missing or left in English, placeholders intact,
plural forms right, the compiled .mo files the same as their .po sources, and the template
up to date with the sources."""

from __future__ import annotations

import io
import pickle
import re
import string
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from durak import Rules, apply, legal_actions, new_game
from durak.actions import Beat, Lead, Take
from durak.cards import Card, Rank, Suit
from durak.errors import IllegalActionError
from durak.events import (
    Acted,
    Beaten,
    BoutEnded,
    Drew,
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
    describe_event,
)
from durak.i18n import LANGUAGES, Language, choose_language, from_accept_language, normalize
from durak.messages import TEMPLATES, Message, canonical, message
from durak.state import Result

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "durak" / "locale"
TRANSLATED = ("de", "pl", "ru")

#: Texts that are the same in English and a translation: rank letters, and words the
#: language shares with English (Polish "partner").
SAME_OK = {("rank letter", "A"), ("rank letter", "K"), ("rank letter", "Q"), ("rank letter", "J")}
SAME_WORD = {("pl", "partner")}
#: Server texts that are a JSON key of the request (or an action's notation) and the library's
#: English detail or reason: the same in every language (the reason is said on its own).
SAME_CODE = {
    "server.bad-rules",
    "server.engine-bad-seed",
    "server.engine-bad-state",
    "server.engine-bad-action",
    "server.engine-illegal",
    "error.rules",
    "error.at",
}
SAME_OK |= {(code, TEMPLATES[code][0]) for code in SAME_CODE}


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with open(LOCALE / lang / "LC_MESSAGES" / "durak.po", "rb") as f:
        return read_po(f, locale=lang)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


SAMPLE = {
    "player": 2,
    "defender": 1,
    "attacker": 2,
    "to": 1,
    "target": 1,
    "partner": 3,
    "players": (1, 2),
    "card": Card.parse("Qh"),
    "attack": Card.parse("Jc"),
    "face_up": Card.parse("As"),
    "cards": (Card.parse("7d"), Card.parse("7h")),
    "rank": Rank.KING,
    "trump": Suit.SPADES,
    "place": 2,
    "limit": 5,
    "cap": 6,
    "hand": 5,
    "seat": 7,
    "count": 4,
    "action": message("action.take"),
    "kind": "Frobnicate",
    "throwers": "neighbours",
    "rule": "no sixes",
    "text": "a house rule's reason",
    "detail": "throwers: unknown value 'x'",
    "given": "'frobnicate'",
    "known": "preset, seats, rules",
    "settings": "decks = 16, lead = same_rank",
    "where": "/hands",
    "preset": "podkidnoy",
    "notation": "p2 throw Qh",
    "reason": message("not-in-hand", card=Card.parse("Qh"), player=2),
    "other": 3,
    "low": 2,
    "high": 6,
    "need": 54,
    "total": 36,
    "decks": 2,
    "size": 36,
    "teams": (message("rules.team-preset", preset="pairs", n=4),),
    "readings": (message("action.take"), message("action.pass")),
    "asked": 3,
    "setting": "hand_size",
    "field": "defender_hand",
    "near": "podkidnoy",
    "line": 3,
    "expected": 2,
    "index": 7,
}


def _sample(code: str, n: int = 5) -> Message:
    names: set[str] = set()
    for key in (code, code.partition(":")[0]):
        singular, plural = TEMPLATES[key]
        names |= _fields(singular) | (_fields(plural) if plural else set())
    params = {name: SAMPLE[name] for name in names if name != "n"}
    if "n" in names:
        params["n"] = n
    return message(code.partition(":")[0], **params)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_is_said_in_every_language(lang: str) -> None:
    said = Language(lang)
    english = Language("en")
    for code in TEMPLATES:
        for n in (1, 2, 5, 21):
            msg = _sample(code, n)
            you = 2 if code.endswith(":you") else None
            text = said.say(msg, you=you)
            assert text and "{" not in text, (lang, code, text)
            if "card" in msg.params:  # the card as the language writes it (D♥, Д♥)
                assert said.card(SAMPLE["card"]) in text, (lang, code, text)
            if lang != "en" and code.partition(":")[0] not in SAME_CODE - {"server.engine-illegal"}:
                assert text != english.say(msg, you=you), (lang, code, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_complete_no_english_left_placeholders_intact(lang: str) -> None:
    catalog = _catalog(lang)
    assert catalog.num_plurals == (2 if lang == "de" else 3)
    entries = [m for m in catalog if m.id]
    assert len(entries) == len([m for m in _catalog("en") if m.id])
    for m in entries:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), (lang, m.context, ids[0])  # nothing missing
        assert "fuzzy" not in m.flags, (lang, m.context, ids[0])
        if (m.context, ids[0]) not in SAME_OK and (lang, ids[0]) not in SAME_WORD:
            assert not set(strings) & set(ids), (lang, m.context, ids[0])  # not left in English
        for s in strings:  # placeholders intact in every form
            assert _fields(s) == _fields(ids[-1]) | ({"n"} & _fields(ids[0])), (lang, ids[0], s)
        if isinstance(m.id, tuple):
            assert len(strings) == catalog.num_plurals, (lang, ids[0])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / "durak.po"
    with open(po, "rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    assert po.with_suffix(".mo").read_bytes() == compiled.getvalue(), (
        f"{po.with_suffix('.mo')} is stale: run python tools/catalogs.py compile"
    )


def test_template_and_catalogs_hold_every_text_of_the_sources() -> None:
    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
        "npgettext": ((1, "c"), 2, 3),
        "N_": None,
        "_m": ((1, "c"), 2),
        "_mp": ((1, "c"), 2, 3),
        "_c": ((1, "c"), 2),
        "n_": (1, 2),
        "t": None,
        "tn": (1, 2),
    }
    sys.path.insert(0, str(ROOT))  # tools.catalogs:extract_html reads the page's marked texts
    method_map = [
        ("**.py", "python"),
        ("**/static/**.js", "javascript"),
        ("**/static/**.html", "tools.catalogs:extract_html"),
    ]
    found = set()
    for _, _, msg, _, context in extract_from_dir(
        str(ROOT / "src" / "durak"), method_map, keywords=keywords
    ):
        found.add((context, msg if isinstance(msg, str) else msg[0]))
    found.discard((None, ""))
    with open(LOCALE / "durak.pot", "rb") as f:
        template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f)}
    template.discard((None, ""))
    assert found == template, "run python tools/catalogs.py extract, then translate"
    for lang in LANGUAGES:
        keys = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _catalog(lang)}
        assert template <= keys, lang


def test_every_code_the_library_uses_has_a_template() -> None:
    used = set()
    for path in (ROOT / "src" / "durak").rglob("*.py"):
        text = path.read_text("utf-8")
        used |= set(re.findall(r"""\bmessage\(\s*"([a-z.:-]+)\"""", text))
        # the readers' reasons (durak._input.Reason): Reason(english, "code", ...)
        used |= set(re.findall(r"""\bReason\(\s*(?:f?"[^"]*"|\w+),\s*"([a-z.:-]+)\"""", text))
    assert used, "no message() calls found"
    used = {canonical(code) for code in used}
    assert used <= set(TEMPLATES) | {"other"}, used - set(TEMPLATES)
    base = {code.partition(":")[0] for code in TEMPLATES}
    assert base - used - {"other"} <= {"illegal.no-beat-module"} | {
        c for c in base if c.startswith(("event.", "action."))
    }


EVENTS = [
    Led(2, (Card.parse("7d"),), 0),
    ThrownIn(2, Card.parse("7h")),
    Beaten(0, Card.parse("7d"), Card.parse("Qd")),
    Transferred(0, 1, cards=(Card.parse("7s"),)),
    Transferred(0, 1, shown=Card.parse("7s")),
    TakeDeclared(0),
    Passed(2),
    TrumpExchanged(0, Card.parse("6s"), Card.parse("As")),
    Redealt(1),
    Acted(0, "p0 take"),
    BoutEnded(0, True, (Card.parse("7d"),)),
    BoutEnded(0, False, (Card.parse("7d"), Card.parse("Qd"))),
    Drew(0, 2, (Card.parse("9c"), Card.parse("Tc"))),
    Drew(1, 2, None),
    Drew(1, 1, None, Card.parse("As")),
    PlayerOut(2, 1),
    PlayerLeft(1, 1, 3),
    NewBout(0, 1),
    GameOver(Result(durak=1, draw=False, places=(1, 3, 2), winners=(0, 2), losers=(1,))),
    GameOver(Result(durak=None, draw=True, places=(1, 1), winners=(), losers=())),
    GameOver(Result(durak=None, draw=False, places=(1, 2, 3, 3), winners=(0, 1), losers=(2, 3))),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_is_said_to_you_and_about_others(lang: str) -> None:
    said = Language(lang)
    codes = set()
    for event in EVENTS:
        msg = describe_event(event)
        codes.add(msg.code)
        for you in (None, 0, 1):
            text = said.say(msg, you=you, name=lambda seat: f"p{seat}")
            assert text and "{" not in text, (lang, event, text)
    assert {code for code in TEMPLATES if code.startswith("event.") and ":" not in code} == codes


def test_russian_and_polish_plural_forms() -> None:
    ru, pl, de = Language("ru"), Language("pl"), Language("de")
    forms = {n: ru.say(message("event.picked-up", player=1, n=n)) for n in (1, 2, 5, 11, 21, 22)}
    assert forms[1].endswith("1 карту") and forms[21].endswith("21 карту")
    assert forms[2].endswith("2 карты") and forms[22].endswith("22 карты")
    assert forms[5].endswith("5 карт") and forms[11].endswith("11 карт")
    assert pl.say(message("event.drew", player=1, n=1)).endswith("1 kartę")
    assert pl.say(message("event.drew", player=1, n=3)).endswith("3 karty")
    assert pl.say(message("event.drew", player=1, n=12)).endswith("12 kart")
    assert pl.say(message("event.drew", player=1, n=22)).endswith("22 karty")
    assert de.say(message("event.drew", player=1, n=1)).endswith("1 Karte")
    assert Language("en").say(message("event.picked-up", player=1, n=1)) == (
        "player 1 picked up 1 card"
    )


def test_cards_suits_and_ranks_in_each_language_s_custom() -> None:
    queen, jack, ace, ten = (Card.parse(t) for t in ("Qh", "Js", "Ad", "Tc"))
    assert [Language(lang).card(queen) for lang in LANGUAGES] == ["Q♥", "D♥", "D♥", "Д♥"]
    assert [Language(lang).card(jack) for lang in LANGUAGES] == ["J♠", "B♠", "W♠", "В♠"]
    assert [Language(lang).card(ace) for lang in LANGUAGES] == ["A♦", "A♦", "A♦", "Т♦"]
    assert [Language(lang).card(ten) for lang in LANGUAGES] == ["10♣"] * 4
    assert [Language(lang).rank_name(Rank.KING) for lang in LANGUAGES] == [
        "king",
        "König",
        "król",
        "король",
    ]
    assert [Language(lang).suit_name(Suit.HEARTS) for lang in LANGUAGES] == [
        "hearts",
        "Herz",
        "kier",
        "червы",
    ]
    assert Language("de").card_name(queen) == "Herz-Dame"
    assert Language("ru").card_name(queen) == "дама червей"
    assert Language("en").card(queen, ascii=True) == "Qh"


def test_choosing_a_language_from_option_environment_and_accept_language() -> None:
    assert choose_language("de") == "de"
    assert choose_language("pl_PL.UTF-8") == "pl"
    with pytest.raises(ValueError, match="no catalog for the language 'xx'"):
        choose_language("xx")
    assert choose_language(None, {"LANGUAGE": "fr:ru", "LANG": "de_DE.UTF-8"}) == "ru"
    assert choose_language(None, {"LC_ALL": "pl_PL.UTF-8", "LANG": "de_DE.UTF-8"}) == "pl"
    assert choose_language(None, {"LANG": "de_AT.UTF-8"}) == "de"
    assert choose_language(None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "en"  # gettext: LANG decides
    assert choose_language(None, {}) == "en"
    assert from_accept_language("fr-CH, fr;q=0.9, pl;q=0.8, de;q=0.7, *;q=0.5") == "pl"
    assert from_accept_language("ru;q=0.5, de-DE") == "de"
    assert from_accept_language("de;q=x, ru;q=0.2") == "ru"
    assert from_accept_language("") == from_accept_language(None) == "en"
    assert normalize("RU") == "ru" and normalize("pt") is None


def _error(state, action) -> IllegalActionError:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as err:
        apply(state, action)
    return err.value


def test_R13_3_illegal_action_errors_carry_code_and_parameters() -> None:
    state = new_game(Rules(), seed=3)
    attacker = state.attacker
    missing = next(c for c in state.stock if c not in state.hands[attacker])
    err = _error(state, Lead(attacker, (missing,)))
    assert (err.rule, err.code, dict(err.params)) == (
        "R13.1",
        "illegal.not-in-hand",
        {"card": missing, "player": attacker},
    )
    assert str(err) == (
        f"player {attacker} cannot lead {missing}: {missing} is not in player {attacker}'s hand "
        "(R13.1)"
    )
    german = Language("de")
    assert (
        german.say(err.reason, you=attacker) == f"{german.card(missing)} hast du nicht auf der Hand"
    )
    assert (
        german.say(err.reason)
        == f"{german.card(missing)} ist nicht im Blatt von Spieler {attacker}"
    )
    err = _error(state, Take(state.defender))
    assert (err.rule, err.code, dict(err.params)) == ("R4.2", "illegal.not-led", {})
    again = pickle.loads(pickle.dumps(err))
    assert (again.code, again.rule, str(again)) == (err.code, err.rule, str(err))
    assert err.description.code == "action.take" and err.action == Take(state.defender)


def test_R4_7_no_beat_names_its_cards_and_the_trump_in_every_language() -> None:
    state = new_game(Rules(), seed=3)
    lead = next(a for a in legal_actions(state) if isinstance(a, Lead))
    state = apply(state, lead)
    attack, defender = lead.cards[0], state.defender
    beats = {a.card for a in legal_actions(state, defender) if isinstance(a, Beat)}
    low = next(c for c in state.hands[defender] if c not in beats)
    err = _error(state, Beat(defender, attack, low))
    assert (err.rule, err.code) == ("R4.7", "illegal.no-beat")
    assert dict(err.params) == {"card": low, "attack": attack, "trump": state.trump}
    for lang in LANGUAGES:
        said = Language(lang)
        text = said.say(err.reason, you=defender)
        assert said.card(low) in text and said.card(attack) in text
        assert said.suit_name(state.trump) in text


_VOID = frozenset({"meta", "link", "input", "br", "img", "hr"})  # elements without an end tag


class _PageTexts(HTMLParser):
    """The web page's words outside the texts it marks for translation: text not inside an
    element marked ``data-i18n`` or ``data-i18n-html``, and ``aria-label`` values without
    ``data-i18n-label``."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.unmarked: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        label = names.get("aria-label")
        if label and "data-i18n-label" not in names:
            self.unmarked.append(f"aria-label={label!r}")
        if tag in _VOID:
            return
        marked = bool(self.stack and self.stack[-1][1]) or bool(
            {"data-i18n", "data-i18n-html"} & set(names)
        )
        self.stack.append((tag, marked))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        inside = {tag for tag, _ in self.stack}
        if not re.search(r"[A-Za-z]", text) or inside & {"title", "kbd", "script", "style"}:
            return
        if not (self.stack and self.stack[-1][1]) and text != "Durak":  # the game's name
            self.unmarked.append(text)


def test_every_word_of_the_web_page_is_marked_for_translation() -> None:
    page = _PageTexts()
    page.feed((ROOT / "src" / "durak" / "web" / "static" / "index.html").read_text("utf-8"))
    assert page.stack == [] and page.unmarked == []
