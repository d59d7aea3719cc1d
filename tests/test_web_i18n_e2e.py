"""The web page in the browser's language: a whole game in Polish (Accept-Language pl), every
text from the message catalogs (the presets' descriptions and the server's refusals too), then
the language menu, remembered across pages; and the German table, whose picture the README
shows (with ``DURAK_DOCS_SCREENSHOT=1`` it is written to ``docs/img/table-de.png``). Real
headless Chromium, as in test_web_e2e."""

from __future__ import annotations

import os
import shutil
from typing import Any

from test_web_e2e import (  # noqa: F401
    DESKTOP,
    DOCS_IMG,
    _errors,
    _over,
    _play,
    _shot,
    _wait_turn,
    browser,
    server,
)

from durak.web import TableManager


def test_a_whole_game_in_polish_then_the_remembered_language_menu(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    base, tables = server
    context = browser.new_context(viewport=DESKTOP, locale="pl-PL")
    page = context.new_page()
    errors = _errors(page)
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows select")
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.input_value("#lang") == "pl"
    assert page.inner_text("#start h1") == "Nowy stół"
    assert page.inner_text("label[for=seat-1]") == "Miejsce P1"
    assert "Bot z zasadami" in page.inner_text("#seat-1")
    page.select_option("#preset", "perevodnoy")  # the preset's description, from the catalogs
    assert page.inner_text("#preset-desc") == (
        "Gra przekazywana: obrońca może przekazać atak dalej kartą tej samej wysokości "
        "(polska strona z zasadami; artykuł niemiecki; pagat.com)"
    )
    page.select_option("#preset", "podkidnoy")
    assert page.inner_text("#preset-desc").startswith("Dureń z dokładaniem: klasyczna gra")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "rule")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#take").startswith("Biorę")
    assert page.inner_text("#done").startswith("Pas")
    assert "Atut" in page.inner_text("#deck")
    label = page.locator("#hand .card").first.get_attribute("aria-label") or ""
    assert any(suit in label for suit in ("trefl", "karo", "kier", "pik")), label

    # A typed action the rules refuse (no trump-six exchange in podkidnoy): the reason in Polish.
    page.fill("#typed-action", "p0 exchange 6h")
    page.click("#typed button[type=submit]")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == (
        "Wymiana szóstki atutowej jest wyłączona (trump_six_exchange) (R12.1)"
    )
    # A request the server refuses (an action for the other seat): the server says it in Polish.
    page.fill("#typed-action", "p1 take")
    page.click("#typed button[type=submit]")
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.startsWith('Siedzisz')"
    )
    assert page.inner_text("#toast") == (
        "Siedzisz na miejscu 0 (P0): nie możesz grać za P1 (p1 take)."
    )

    _play(page, 0, moves=400)
    page.wait_for_selector("#result", state="visible")
    table = tables.get(page.url.rsplit("/", 1)[1])
    assert table is not None and table.state.result is not None
    result = page.inner_text("#result")
    assert any(w in result for w in ("Wygrałeś!", "Jesteś durniem!", "Remis")), result
    assert "Zagraj ponownie" in result
    log = page.locator("#log li").all_inner_texts()
    assert any("wychodzi" in line or "Wychodzisz" in line for line in log), log[:5]
    assert any(" kart" in line for line in log), log[:5]  # plural forms: karta, karty, kart
    assert not any(" drew " in line or " led " in line for line in log), log[:5]  # no English
    _shot(page, "result-polish")

    # The menu: German, remembered on the next page despite the browser's Polish.
    page.click("#show-table")
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement?.lang === 'de'")  # none mid-load
    page.wait_for_selector("#hand .card, #result:not([hidden])")
    other = context.new_page()
    other.goto(base + "/")
    other.wait_for_selector("#seat-rows select")
    assert other.inner_text("#start h1") == "Einen Tisch anlegen"
    assert other.input_value("#lang") == "de"
    assert not errors, errors
    context.close()


def test_the_german_table_for_the_readme(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    """A game of Podkidnoy against the rule bot in German (Accept-Language de), played until
    cards lie on the table: the picture of the README."""
    base, tables = server
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = context.new_page()
    errors = _errors(page)
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows select")
    assert page.inner_text("#start h1") == "Einen Tisch anlegen"
    assert page.inner_text("#preset-desc").startswith("Durak mit Zuwerfen")
    page.select_option("#preset", "podkidnoy")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "rule")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    table = tables.get(page.url.rsplit("/", 1)[1])
    assert table is not None and [s.kind for s in table.seats] == ["human", "rule"]
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#take").startswith("Aufnehmen")
    made = _play(page, 0, moves=6)
    for _ in range(30):  # on to a moment with cards on the table
        _wait_turn(page, 0)
        if _over(page) or page.locator("#pairs .pair").count():
            break
        made += _play(page, 0, moves=1)
    assert made >= 6 and page.locator("#log li").count() > 3
    log = page.locator("#log li").all_inner_texts()
    assert not any(" drew " in line or " led " in line for line in log), log[:5]  # no English
    picture = _shot(page, "table-german")
    if os.environ.get("DURAK_DOCS_SCREENSHOT"):
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, DOCS_IMG / "table-de.png")
    assert not errors, errors
    context.close()
