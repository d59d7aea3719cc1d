"""The web pages as a new user finds them (issue 27, "also found as a new user would"): every
page fits a 390 px phone in every language, the game log never pushes the table off a
1280x800 screen, and ``?lang=`` in a page's address chooses its language. Real headless
Chromium, as in test_web_e2e."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import (  # noqa: F401
    DESKTOP,
    PHONE,
    _errors,
    _over,
    _play,
    _shot,
    browser,
    server,
)

from durak.web import TableManager

LANGUAGES = ("en", "de", "pl", "ru")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_fits_a_phone_in_every_language(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
) -> None:
    base, tables = server
    table = tables.create("podkidnoy", ["human", "rule"])
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = _errors(page)
    pages = {
        "start": ("/", "#seat-rows select"),
        "table": (f"/table/{table.id}", "#hand .card"),
        "replay": ("/replay", "#replay-form"),
    }
    for name, (path, ready) in pages.items():
        page.goto(f"{base}{path}?lang={lang}")
        page.wait_for_selector(ready)
        page.wait_for_function("l => document.documentElement?.lang === l", arg=lang)
        width = page.evaluate("document.documentElement.scrollWidth")
        _shot(page, f"{name}-phone-{lang}")
        assert width <= PHONE["width"], f"the {name} page is {width} px wide in {lang}"
    assert not errors, errors
    context.close()


def test_the_log_keeps_the_table_on_a_desktop_screen(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    base, tables = server
    table = tables.create("podkidnoy", ["human", "rule"], overrides={"deck_size": 52})
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{base}/table/{table.id}")
    page.wait_for_selector("#hand .card")
    _play(page, 0, moves=40)
    assert page.locator("#log li").count() >= 30
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP["height"]
    for part in ("#take", "#done", "#hand", "#typed-action", "#log"):
        bottom = page.evaluate(f"document.querySelector('{part}').getBoundingClientRect().bottom")
        assert bottom <= DESKTOP["height"], f"{part} ends at {bottom} px"
    _shot(page, "long-log-desktop")
    assert not errors, errors
    context.close()


def test_lang_in_the_page_address_chooses_the_language(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    base, _ = server
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.goto(base + "/?lang=pl")
    page.wait_for_selector("#seat-rows select")
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.inner_text("#start h1") == "Nowy stół"
    page.select_option("#preset", "podkidnoy")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "rule")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#hand .card")
    assert page.url.endswith("?lang=pl")  # the table page keeps the language asked for
    assert page.inner_text("#take").startswith("Biorę")
    page.goto(base + "/?lang=de")  # the address, not the browser's language, decides
    page.wait_for_function("() => document.documentElement?.lang === 'de'")  # none mid-load
    context.close()
