"""End-to-end tests of the web front-end in a real headless browser.

Playwright for Python drives Debian's Chromium (``/usr/bin/chromium``, or ``$DURAK_CHROMIUM``;
Playwright's own browser download is never used) against ``durak serve``'s app, run by uvicorn
in a thread on a free port. Screenshots go to ``tests/output/`` (start, mid-game, result, at
desktop and phone sizes); with ``DURAK_DOCS_SCREENSHOT=1`` the mid-game desktop one is copied
to ``docs/img/table.png``.

Skipped where Playwright, the ``web`` extra or Chromium is missing, except under CI (``CI``
set), where a missing library or browser is an error: ``.ci/run`` installs them.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import starlette  # noqa: F401
from playwright import sync_api
from web_helpers import serving

from durak.web import TableManager, create_app
from durak.web.config import ServerConfig

CHROMIUM = os.environ.get("DURAK_CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: .ci/run must install Debian's chromium")
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

#: The flags this machine's Chromium needs (no sandbox as root, no network but loopback).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

OUTPUT = Path(__file__).parent / "output"
DOCS_IMG = Path(__file__).parents[1] / "docs" / "img"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

Page = Any


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, TableManager]]:
    """The web app served by uvicorn on a free loopback port; bots act at once."""
    tables = TableManager(ServerConfig(bot_delay=0, allow_fixed_seeds=True))
    with serving(create_app(tables=tables)) as port:
        yield f"http://127.0.0.1:{port}", tables


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    OUTPUT.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _shot(page: Page, name: str) -> Path:
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _errors(page: Page) -> list[str]:
    """Collect the page's JavaScript errors."""
    found: list[str] = []
    page.on("pageerror", lambda exc: found.append(str(exc)))
    return found


def _version(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.version || ''"))


def _over(page: Page) -> bool:
    return bool(page.evaluate("!document.getElementById('result').hidden"))


def _wait_turn(page: Page, seat: int, timeout: float = 15_000) -> None:
    """Wait until ``seat`` is the next actor (R13.2) or the game is over."""
    page.wait_for_function(
        "s => document.body.dataset.next === s || !document.getElementById('result').hidden",
        arg=str(seat),
        timeout=timeout,
    )


def _wait_change(page: Page, before: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "v => (document.body.dataset.version || '') !== v", arg=before, timeout=timeout
    )


def _act(page: Page, keyboard: bool) -> str:
    """Make one move as a person would: Done when there is nothing to lead or beat, else the
    first glowing card (a chooser's first option if one opens), else Take. By clicking, or by
    the keyboard (arrow keys + Enter, D, T). Returns what was done."""
    playable = page.locator("#hand .card.playable")
    done_enabled = page.is_enabled("#done")
    if done_enabled:
        if keyboard:
            page.keyboard.press("d")
        else:
            page.click("#done")
        return "done"
    if playable.count():
        if keyboard:
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("ArrowRight")  # focuses the first glowing card
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused == playable.first.get_attribute("data-card")
            page.keyboard.press("Enter")
        else:
            playable.first.click()
        if page.is_visible("#chooser"):
            choice = page.locator("#chooser .choice").first
            if keyboard:
                page.keyboard.press("Enter")  # the chooser's first option has the focus
            else:
                choice.click()
            return "chose"
        return "card"
    if page.is_enabled("#take"):
        if keyboard:
            page.keyboard.press("t")
        else:
            page.click("#take")
        return "take"
    raise AssertionError(f"seat to act but nothing to do: {page.inner_text('#status')}")


def _play(page: Page, seat: int, moves: int, keyboard_every: int = 3) -> int:
    """Play up to ``moves`` moves for ``seat`` (stops at the end of the game); every
    ``keyboard_every``-th move uses the keyboard. Returns the moves made."""
    made = 0
    while made < moves:
        _wait_turn(page, seat)
        if _over(page):
            break
        before = _version(page)
        _act(page, keyboard=made % keyboard_every == keyboard_every - 1)
        _wait_change(page, before)
        made += 1
    return made


def _start_page(
    browser: Any, base: str, lang: str | None = None
) -> tuple[Any, Page, list[str]]:
    """A desktop page on the start page (in ``lang``, a browser of that locale, where given),
    two-player Podkidnoy chosen; its JavaScript errors."""
    locale = {"de": "de-DE", "pl": "pl-PL", "ru": "ru-RU"}.get(lang or "")
    context = browser.new_context(viewport=DESKTOP, **({"locale": locale} if locale else {}))
    page = context.new_page()
    errors = _errors(page)
    page.goto(base + (f"/?lang={lang}" if lang else "/"))
    page.wait_for_selector("#seat-rows select")
    page.select_option("#preset", "podkidnoy")
    page.select_option("#players", "2")
    return context, page, errors


def test_a_whole_game_against_a_bot_by_clicks_and_keys(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    context, page, errors = _start_page(browser, base)
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "rule")
    _shot(page, "start-desktop")
    page.click("button[type=submit]")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    table = tables.get(table_id)
    assert table is not None and [s.kind for s in table.seats] == ["human", "rule"]
    page.wait_for_selector("#hand .card")
    assert page.evaluate("document.body.dataset.seat") == "0"
    # Cards have text alternatives; buttons are real buttons.
    label = page.locator("#hand .card").first.get_attribute("aria-label")
    assert label is not None and " of " in label
    assert page.locator("#take").evaluate("b => b.tagName") == "BUTTON"
    assert "Trump" in page.inner_text("#deck")

    made = _play(page, 0, moves=6)
    assert made == 6
    for _ in range(30):  # on to a moment with cards on the table, for the picture
        _wait_turn(page, 0)
        if _over(page) or page.locator("#pairs .pair").count():
            break
        made += _play(page, 0, moves=1)
    mid = _shot(page, "table-desktop")
    if os.environ.get("DURAK_DOCS_SCREENSHOT"):
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copy(mid, DOCS_IMG / "table.png")
    page.set_viewport_size(PHONE)
    _shot(page, "table-phone")
    page.set_viewport_size(DESKTOP)
    assert page.locator("#log li").count() > 3

    made += _play(page, 0, moves=400)
    page.wait_for_selector("#result", state="visible")
    assert table.state.result is not None
    result_text = page.inner_text("#result")
    assert any(words in result_text for words in ("You won!", "You are the durak", "A draw")), (
        result_text
    )
    _shot(page, "result-desktop")
    page.set_viewport_size(PHONE)
    _shot(page, "result-phone")
    assert not errors, errors
    context.close()


def test_two_people_at_one_table(server: tuple[str, TableManager], browser: Any) -> None:
    base = server[0]
    body = json.dumps({"preset": "perevodnoy", "seats": ["human", "human"], "seed": 21}).encode()
    request = urllib.request.Request(
        base + "/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        url = base + json.load(answer)["url"]
    # Two people: two browsers (contexts), so two seat tokens.
    alice_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE)
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    alice_errors, bob_errors = _errors(alice), _errors(bob)
    alice.goto(url)
    alice.wait_for_selector("#hand .card")
    assert alice.is_visible("#share") and url in alice.input_value("#share-link")
    _shot(alice, "waiting-desktop")
    bob.goto(url)
    bob.wait_for_selector("#hand .card")
    alice.wait_for_selector("#share", state="hidden")
    pages = {int(alice.evaluate("document.body.dataset.seat")): alice}
    pages[int(bob.evaluate("document.body.dataset.seat"))] = bob
    assert sorted(pages) == [0, 1]

    # A move for the other seat, typed by hand, is refused with a message on the page.
    bob_seat = 0 if pages[0] is bob else 1
    bob.click("#log-box summary")  # the log (and the typing field) is folded on a phone
    bob.fill("#typed-action", f"p{1 - bob_seat} take")
    bob.press("#typed-action", "Enter")
    bob.wait_for_selector("#toast", state="visible")
    assert f"cannot act for P{1 - bob_seat}" in bob.inner_text("#toast")

    moves = 0
    while moves < 24:
        nxt = alice.evaluate("document.body.dataset.next")
        if nxt == "" or _over(alice):
            break
        page = pages[int(nxt)]
        _wait_turn(page, int(nxt))
        before = _version(page)
        _act(page, keyboard=moves % 2 == 1)
        _wait_change(page, before)
        # Both pages follow every move.
        after = _version(page)
        other = pages[1 - int(nxt)]
        other.wait_for_function("v => document.body.dataset.version === v", arg=after)
        assert alice.evaluate("document.body.dataset.next") == bob.evaluate(
            "document.body.dataset.next"
        )
        moves += 1
        if moves == 6:
            _shot(bob, "two-people-phone")
            _shot(alice, "two-people-desktop")
            # A reload finds the same seat and the same game.
            seat = alice.evaluate("document.body.dataset.seat")
            hand = sorted(
                alice.locator("#hand .card").evaluate_all("e => e.map(c => c.dataset.card)")
            )
            alice.reload()
            alice.wait_for_function("v => document.body.dataset.version === v", arg=after)
            assert alice.evaluate("document.body.dataset.seat") == seat
            again = alice.locator("#hand .card").evaluate_all("e => e.map(c => c.dataset.card)")
            assert sorted(again) == hand
    assert moves >= 6
    assert not alice_errors and not bob_errors, alice_errors + bob_errors
    alice_ctx.close()
    bob_ctx.close()


def test_house_rules_reload_and_replay_in_the_browser(
    server: tuple[str, TableManager], browser: Any
) -> None:
    """The set-up page's house rules reach the table (a 52-card deck, transfers); the trump card
    lies upright; the typed-action example names our own seat; a reload keeps the game log; a
    finished game's record steps through on the replay page."""
    base, tables = server
    context, page, errors = _start_page(browser, base)
    page.select_option("#seat-1", "random")
    page.select_option("#deck-size", "52")
    page.check("#transfer")
    page.click("#new-table button[type=submit], button.primary")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    table = tables.get(table_id)
    assert table is not None
    assert table.rules.deck_size == 52 and table.rules.transfer_by_card
    page.wait_for_function("() => document.body.dataset.seat === '0'")
    assert page.get_attribute("#typed-action", "placeholder").startswith("p0 ")  # type: ignore[union-attr]
    transform = page.evaluate("getComputedStyle(document.querySelector('.trump-card')).transform")
    assert transform in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    _play(page, 0, 4)
    logged = page.locator("#log li").count()
    assert logged >= 4
    page.reload()
    page.wait_for_function("() => document.body.dataset.seat === '0'")
    page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=logged)
    _play(page, 0, 400)
    assert _over(page)
    href = page.get_attribute("#download", "href")
    assert href == f"/api/tables/{table_id}/record?game=1"
    page.goto(base + f"/replay?table={table_id}&game=1")
    page.wait_for_selector("#replay-view:not([hidden])")
    assert page.inner_text("#replay-pos").startswith("step 0 of ")
    page.click("#replay-next")
    assert page.inner_text("#replay-pos").startswith("step 1 of ")
    assert page.locator("#replay-hands .chip").count() > 0
    _shot(page, "replay-desktop")
    assert not errors, errors
    context.close()


def test_key_hints_are_hidden_on_touch_screens(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, _ = server
    shown = {}
    for touch in (False, True):
        context = browser.new_context(viewport=PHONE, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#seat-rows select")
        shown[touch] = page.evaluate(
            "getComputedStyle(document.querySelector('.key-hint')).display !== 'none'"
        )
        context.close()
    assert shown == {False: True, True: False}


def test_the_others_sit_in_playing_order_around_the_table(
    server: tuple[str, TableManager], browser: Any
) -> None:
    base, tables = server
    table = tables.create("podkidnoy", ["rule", "random", "human", "rule", "random"])
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base}/table/{table.id}")
    page.wait_for_function("() => document.body.dataset.seat === '2'")
    order = page.evaluate(
        "[...document.querySelectorAll('#opponents .opponent')]"
        ".map(e => [e.dataset.seat, e.dataset.arc])"
    )
    # From the seat after ours, round the far side, to the seat before ours (R2.2).
    assert order == [["3", "near"], ["4", "far"], ["0", "far"], ["1", "near"]]
    context.close()
