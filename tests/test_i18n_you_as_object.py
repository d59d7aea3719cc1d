"""A seat said as "you" where it is not the subject: the attack passed to you, a partner who
leaves with you (R9.1, R10). German, Polish and Russian inflect "you" and the verb there, so
such a message has its own text (``event.transferred:to-you`` ...) rather than "you" put in the
place of a seat's name."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from durak.cards import Card
from durak.i18n import LANGUAGES, Language, web_catalog
from durak.messages import TEMPLATES, message

CARDS = (Card.parse("7h"),)
TRANSFERRED = message("event.transferred", player=2, cards=CARDS, to=0)
SHOWN = message("event.shown", player=2, card=Card.parse("7d"), to=0)
LEFT = message("event.left", player=2, partner=0, place=1)


def _name(lang: Language):  # type: ignore[no-untyped-def]
    """Seats as the terminal game names them: "you" for seat 0, p1, p2 for the others."""
    you = lang.pgettext("seat", "you")
    return lambda seat: you if seat == 0 else f"p{seat}"


EXPECTED = {
    "de": (
        "p2 schiebt mit 7♥ weiter an dich",
        "p2 zeigt den Trumpf 7♦: der Angriff geht weiter an dich",
        "p2 geht mit dir (1. Platz)",
    ),
    "pl": (
        "p2 przekazuje kartą 7♥, teraz ty się bronisz",
        "p2 pokazuje atut 7♦: atak przechodzi na ciebie",
        "p2 odchodzi razem z tobą (1. miejsce)",
    ),
    "ru": (
        "p2 переводит картой 7♥, теперь отбиваешься ты",
        "p2 показывает козырь 7♦: теперь отбиваешься ты",
        "p2 уходит вместе с тобой (1-е место)",
    ),
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_R9_1_the_attack_passed_to_you_and_a_partner_leaving_with_you(lang: str) -> None:
    language = Language(lang)
    said = tuple(language.say(m, you=0, name=_name(language)) for m in (TRANSFERRED, SHOWN, LEFT))
    assert said == EXPECTED[lang]


def test_R9_1_the_same_messages_about_others_keep_the_seat_s_name() -> None:
    language = Language("de")
    assert language.say(TRANSFERRED, you=1) == "Spieler 2 schiebt mit 7♥ weiter an Spieler 0"
    assert language.say(TRANSFERRED) == "Spieler 2 schiebt mit 7♥ weiter an Spieler 0"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_object_twin_is_in_every_catalog(lang: str) -> None:
    twins = [code for code in TEMPLATES if code.endswith(("to-you", "partner-you"))]
    assert len(twins) == 3
    templates = web_catalog(lang)["templates"]
    for code in twins:
        assert set(templates[code]) and "{to}" not in templates[code]["other"]
        assert "{partner}" not in templates[code]["other"]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_web_page_says_the_attack_passed_to_you_in_polish() -> None:
    """The page's ``say`` picks the same twin (its script run by node, the DOM left out)."""
    script = (Path(__file__).parent.parent / "src/durak/web/static/app.js").read_text("utf-8")
    start = script.index("  function fill(")
    end = script.rindex("\n", 0, script.index(" cards and actions\n")) + 1
    cards = script.index("  const SUITS =")
    cards_end = script.index("  /** A card's parts")
    harness = (
        "const I18N = " + json.dumps(web_catalog("pl")) + ";\n"
        "const ui = {seat: 0};\n"
        "const plural = new Intl.PluralRules('pl');\n"
        "const pretty = (c) => c;\n"
        "const ordinal = (n) => n + '.';\n"
        "const t = (s) => s;\n"
        + script[cards:cards_end]
        + script[start:end]
        + "const said = (to) =>\n"
        + "  say({code: 'event.transferred', params: {player: 2, cards: ['7h'], to}});\n"
        + "console.log(said(0));\nconsole.log(said(1));\n"
    )
    # The script goes in on stdin: the catalog alone is near the 128 KiB limit of one argument.
    out = subprocess.run(
        ["node"], input=harness, capture_output=True, text=True, timeout=60, check=True
    ).stdout.splitlines()
    assert out == [
        "P2 przekazuje kartą 7h, teraz ty się bronisz",
        "P2 przekazuje kartą 7h, teraz broni się: P1",
    ]


def test_the_protocol_page_tells_a_front_end_which_you_template_to_take() -> None:
    page = (Path(__file__).parent.parent / "docs/protocol.md").read_text("utf-8")
    suffixes = {code[code.index(":") :] for code in TEMPLATES if ":" in code}
    assert suffixes == {":you", ":to-you", ":partner-you", ":defender-you"}
    assert all(f"`{suffix}`" in page for suffix in suffixes)
