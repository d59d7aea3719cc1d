"""The R15 extensions in the browser: the house-rule switches of the start page, the joker's
picture, and the Catch button on a cheat (R15.5). Same set-up as test_web_e2e (Debian's
Chromium driven by Playwright against the app on a loopback port)."""

from __future__ import annotations

from typing import Any

from test_web_e2e import DESKTOP, _errors, _shot, browser, server

from durak import Beat, Lead, Rules, apply, build_deck, new_position
from durak.rules.extensions import Catch
from durak.views import view
from durak.web import TableManager

__all__ = ["browser", "server"]  # the fixtures, shared with test_web_e2e


def test_R15_start_page_switches_house_rules_on_and_shows_jokers(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    context, page, errors = _open(browser, base + "/")
    page.wait_for_selector("#seat-rows select")
    page.select_option("#preset", "deck-52")
    page.select_option("#players", "3")
    page.select_option("#jokers", "2")
    page.check("#cheating")
    page.check("#pogony")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    table = tables.get(page.url.rsplit("/", 1)[1])
    assert table is not None
    assert (table.rules.jokers, table.rules.cheating, table.rules.pogony) == (2, True, True)
    assert not table.rules.throw_in_by_suit
    page.wait_for_selector("#hand .card")
    assert sum(c.special for c in table.state.all_cards()) == 2  # Jk and Jk#2 in the game
    context.close()
    assert not errors, errors


def _position(rules: Rules, hands: list[str], extra: tuple[str, ...] = ()) -> Any:
    """A position of two seats, the stock 6c 7d 8s (spades trump), every other card of the
    deck (and ``extra``) discarded; seat 0 to lead."""
    used = set(" ".join(hands).split()) | {"6c", "7d", "8s"}
    rest = [str(c) for c in build_deck(rules.deck_size) if str(c) not in used] + list(extra)
    return new_position(rules, hands=hands, stock="6c 7d 8s", discard=rest, attacker=0)


def _open(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    """A new browser page at ``url``: its context, the page and its JavaScript errors."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = _errors(page)
    page.goto(url)
    return context, page, errors


def test_R15_5_a_catch_button_on_the_cheat_catches_it(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    table = tables.create("podkidnoy", ["human", "rule"], seed=1, overrides={"cheating": True})
    state = _position(Rules(cheating=True), ["9h 8d", "7c Ks Kd"])
    # The bot (seat 1) "beat" the person's 9h with 7c: a cheat (R4.7) standing on the table.
    table.state = table.initial = apply(apply(state, Lead(0, "9h")), Beat(1, "9h", "7c"))
    context, page, errors = _open(browser, f"{base}/table/{table.id}")
    button = page.locator("#pairs button.catch")
    button.wait_for(timeout=15_000)
    assert button.count() == 1 and button.get_attribute("data-action") == str(Catch(0, "7c"))
    _shot(page, "catch-desktop")
    button.click()
    page.wait_for_function("() => !document.querySelector('#pairs button.catch')")
    # Caught: 7c went back to the defender, who took the table at once (R15.5).
    assert table.actions[:1] == [Catch(0, "7c")]
    assert "9h" in {str(c) for c in table.state.hands[1]}
    context.close()
    assert not errors, errors


def test_R15_1_the_joker_is_drawn_with_its_picture(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    table = tables.create("deck-52", ["human", "rule"], seed=3, overrides={"jokers": 2})
    table.state = table.initial = _position(table.rules, ["Jk 9h 8d", "7c Ks Kd"], ("Jk#2",))
    context, page, errors = _open(browser, f"{base}/table/{table.id}")
    card = page.locator("#hand .card.joker")
    card.wait_for(timeout=15_000)
    assert (card.get_attribute("aria-label") or "").startswith("joker")
    assert "🃏" in card.inner_text()
    context.close()
    assert not errors, errors


def test_R15_1_a_stock_of_jokers_alone_shows_no_face_up_card(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    table = tables.create("deck-52", ["human", "rule"], seed=3, overrides={"jokers": 2})
    hands = ["9h 8d 7s", "7c Ks Kd"]
    used = set(" ".join(hands).split())
    rest = [str(c) for c in build_deck(52) if str(c) not in used] + ["Jk"]
    # The stock holds a joker alone: 7s, a dealt card in the person's hand, fixed trump.
    state = new_position(
        table.rules, hands=hands, stock="Jk#2", trump_card="7s", discard=rest, attacker=0
    )
    assert state.face_up is None
    table.state = table.initial = state
    context, page, errors = _open(browser, f"{base}/table/{table.id}")
    page.wait_for_selector("#deck .card.back")
    assert page.locator("#deck .trump-card").count() == 0  # nothing lies face up (R15.1)
    assert "1 card" in (page.locator("#deck .card.back").get_attribute("aria-label") or "")
    context.close()
    assert not errors, errors
    # Played since (here in the discard pile): still nothing face up under the stock.
    hands = ["9h 8d", "7c Ks Kd"]
    used = set(" ".join(hands).split())
    rest = [str(c) for c in build_deck(52) if str(c) not in used] + ["Jk"]
    state = new_position(
        table.rules, hands=hands, stock="Jk#2", trump_card="7s", discard=rest, attacker=0
    )
    assert state.face_up is None and view(state, 0).face_up is None
    table.state = table.initial = state
    context, page, errors = _open(browser, f"{base}/table/{table.id}")
    page.wait_for_selector("#deck .card.back")
    assert page.locator("#deck .trump-card").count() == 0
    context.close()
    assert not errors, errors


def test_R15_bad_house_rule_settings_are_refused_naming_them() -> None:
    import pytest

    from durak.web.tables import TableError

    tables = TableManager(bot_delay=0)
    for settings, words in [
        ({"jokers": 2}, "jokers"),  # a 36-card preset
        ({"bogus": True}, "bogus"),
        ({"cheating": "yes"}, "cheating"),
        ({"jokers": 7}, "jokers"),
    ]:
        with pytest.raises(TableError, match=words):
            tables.create("podkidnoy", ["human", "rule"], overrides=settings)
    table = tables.create("shchelkovsky", ["human", "rule", "rule"], overrides={"pogony": True})
    assert table.rules.jokers == 2 and table.rules.pogony and table.rules.show_sends_back
