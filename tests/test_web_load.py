"""What keeps ``durak serve`` fast under load without changing what it sends or keeps: one
view per state and seat, the events' shared parts once per broadcast (each checked against
what it replaces, and for leaks between seats, R13; the encoders by field type are checked in
test_views_events.py); commits grouped by a writer thread (every change still stored before a
restart); the garbage collector settled at start-up."""

from __future__ import annotations

import asyncio
import gc
import json
import random
from pathlib import Path

import starlette  # noqa: F401

from durak import Rules, new_game, view
from durak.engine import apply_with_events, legal_actions, next_actor
from durak.events import events_for
from durak.serialize import view_to_dict
from durak.web.app import settle_collector
from durak.web.config import ServerConfig
from durak.web.protocol import EventCache, events_to_dicts, seat_names
from durak.web.store import Store, TableRow
from durak.web.tables import Connection, TableManager


def test_view_to_dict_gives_each_caller_its_own_lists() -> None:
    seen = view(new_game(Rules(players=3), seed=3), 0)
    first = view_to_dict(seen)
    first["rules"]["strict_suits"].append("x")
    first["rules"]["players"] = 99
    first["hand"].clear()
    again = view_to_dict(seen)
    assert again["rules"] == Rules(players=3).to_dict()
    assert len(again["hand"]) == 6


def _manager() -> TableManager:
    return TableManager(ServerConfig(bot_delay=0, allow_fixed_seeds=True))


def test_R13_seat_view_gives_each_seat_its_own_view_of_the_current_state() -> None:
    async def run() -> None:
        table = _manager().create("podkidnoy", ["human", "human", "human"], seed=7)
        for _ in range(3):
            table.claim(None)
        rng = random.Random(7)
        for _ in range(40):
            if table.state.result is not None:
                break
            for seat in [None, 0, 1, 2]:
                seen, data = table.seat_view(seat)
                assert seen == view(table.state, seat)
                assert data == view_to_dict(view(table.state, seat))
                assert table.seat_view(seat)[1] is data  # built once per state and seat
                hand = [] if seat is None else [str(c) for c in table.state.hands[seat]]
                assert data["hand"] == hand  # its own cards, nobody else's
            actor = next_actor(table.state)
            assert actor is not None
            before = table.seat_view(actor)[1]
            chosen = rng.choice(legal_actions(table.state, actor))
            assert await table.submit(actor, str(chosen)) is None
            assert table.seat_view(actor)[1] is not before  # a new state: new views

    asyncio.run(run())


def test_R13_broadcast_sends_each_seat_its_own_message() -> None:
    async def run() -> None:
        # A demo seed that reads like the mark the rules are encoded under changes nothing.
        table = _manager().create("podkidnoy", ["human", "human", "human"], seed="\x00rules\x00")
        for _ in range(3):
            table.claim(None)
        conns = [Connection(seat) for seat in (0, 1, 2, None, 1)]
        for conn in conns:
            table.join(conn)
        for conn in conns:
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
        actor = next_actor(table.state)
        assert actor is not None
        action = legal_actions(table.state, actor)[0]
        state = table.state
        after, events = apply_with_events(state, action)
        assert await table.submit(actor, str(action)) is None
        for conn in conns:
            raw = conn.outbox.get_nowait()
            assert isinstance(raw, str)
            message = json.loads(raw)
            assert raw == json.dumps(message, ensure_ascii=False, separators=(",", ":"))
            assert message["seat"] == conn.seat and message["fixed_seed"] == "\x00rules\x00"
            assert message["view"]["rules"] == Rules(players=3).to_dict()
            assert message["view"] == view_to_dict(view(after, conn.seat))
            name = seat_names(["P0", "P1", "P2"], conn.seat)
            expected = events_to_dicts(events_for(events, conn.seat), conn.seat, name)
            assert message["events"] == json.loads(json.dumps(expected, ensure_ascii=False))

    asyncio.run(run())


def test_event_cache_says_each_seat_its_own_text_and_hides_others_draws() -> None:
    rules = Rules(players=3)
    rng = random.Random(5)
    state = new_game(rules, seed=5)
    cache = EventCache()
    for _ in range(120):
        if state.is_over:
            break
        state, events = apply_with_events(state, rng.choice(legal_actions(state)))
        for seat in [None, 0, 1, 2]:
            mine = events_for(events, seat)
            name = seat_names(["P0", "P1", "P2"], seat)
            assert cache.to_dicts(mine, seat, name) == events_to_dicts(mine, seat, name)


def test_grouped_commits_store_every_action_before_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = Store(path)
    actions = [f"p{n % 2} pass" for n in range(2000)]

    async def play() -> None:
        store.save_table(
            TableRow("t1", "podkidnoy", {"players": 2}, ["human", "rule"], None,
                     0.0, 1.0, 1, 77, 1, None)
        )
        for n, text in enumerate(actions):
            store.add_action("t1", 1, n, text)
        assert store.commits == 0  # on a running loop the changes wait a moment ...
        assert store.actions("t1", 1) == actions  # ... but a read sees every one of them
        assert store.commits == 1  # committed together
        store.add_action("t1", 1, len(actions), "p0 take")
        await asyncio.sleep(0.1)  # the moment passes: committed without a read
        assert store.commits == 2
        store.add_action("t1", 1, len(actions) + 1, "p1 pass")  # waiting when the store closes

    asyncio.run(play())
    store.close()  # commits what waits
    again = Store(path)
    assert again.actions("t1", 1) == [*actions, "p0 take", "p1 pass"]
    assert [row.id for row in again.open_tables()] == ["t1"]
    again.close()


def test_a_change_that_cannot_be_stored_leaves_the_others(tmp_path: Path) -> None:
    store = Store(tmp_path / "tables.sqlite3")

    async def play() -> None:
        store.add_action("t1", 1, 0, "p0 lead 7h")
        store.add_action("t1", 1, 0, "p0 lead 8h")  # the same action number again: refused
        store.add_action("t1", 1, 1, "p1 take")

    asyncio.run(play())
    assert store.actions("t1", 1) == ["p0 lead 7h", "p1 take"]
    store.close()


def test_without_a_loop_each_change_is_committed_at_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "tables.sqlite3")
    store.add_action("t1", 1, 0, "p0 lead 7h")
    assert store.commits == 1
    store.close()
    again = Store(tmp_path / "tables.sqlite3")
    assert again.actions("t1", 1) == ["p0 lead 7h"]
    again.close()


def test_a_store_in_memory_writes_at_once() -> None:
    store = Store(":memory:")
    store.add_action("t1", 1, 0, "p0 lead 7h")
    assert store.commits == 1 and store.actions("t1", 1) == ["p0 lead 7h"]
    store.close()


def test_settle_collector_freezes_the_start_up_objects_and_sets_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        frozen = settle_collector((1000, 20, 50))
        # Frozen objects that die afterwards leave the count (Python 3.13 drops them at once),
        # so the count read now may be a little below the one returned (a few hundred of some
        # hundred thousand), never above it.
        assert frozen > 1000
        assert frozen * 0.99 <= gc.get_freeze_count() <= frozen
        assert gc.get_threshold() == (1000, 20, 50)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
