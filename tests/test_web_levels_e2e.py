"""The strength levels on the web set-up page (issue 29, item 4), in a real headless Chromium
as in test_web_e2e: every computer seat offers the levels, in the page's language, with their
descriptions as tooltips, and a table is created with the level chosen."""

from __future__ import annotations

from typing import Any

from test_web_e2e import _start_page, browser, server  # noqa: F401

from durak.bots import RuleBot
from durak.levels import LEVELS
from durak.web import TableManager


def test_issue29_the_set_up_page_offers_the_levels_in_its_language(
    server: tuple[str, TableManager],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    base, tables = server
    context, page, errors = _start_page(browser, base, "de")
    assert page.input_value("#seat-1") == "normal"  # the default computer player
    options = page.eval_on_selector_all(
        "#seat-1 option", "els => els.map(e => [e.value, e.textContent, e.title])"
    )
    values = [value for value, _, _ in options]
    assert values[: 1 + len(LEVELS)] == ["human", *LEVELS]
    assert {"rule", "random", "search"} <= set(values)
    by_value = {value: (text, title) for value, text, title in options}
    assert by_value["hard"] == ("Bot: schwer", by_value["hard"][1])
    assert by_value["hard"][1].startswith("Schwer:")
    groups = page.eval_on_selector_all("#seat-1 optgroup", "els => els.map(e => e.label)")
    assert groups == ["Computer nach Stufe", "Computer nach Art"]
    page.select_option("#seat-1", "easy")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#hand .card")
    table = tables.get(page.url.split("/table/")[1].split("?")[0])
    assert table is not None and [s.kind for s in table.seats] == ["human", "easy"]
    assert isinstance(table.seats[1].bot, RuleBot) and table.seats[1].bot.blunder == 0.3
    assert "Bot: leicht" in page.inner_text("body")  # the seat's title, translated
    assert not errors
    context.close()
