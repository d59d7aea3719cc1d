"""Game tables of the web front-end: one :class:`~durak.state.GameState` per table, kept on the
server, with people and bots in its seats.

A :class:`Table` owns the whole truth of its game and hands each connected seat only its own
view (R13): :meth:`Table.message_for` builds a seat's message from
:func:`~durak.views.view` and :func:`~durak.events.events_for` alone. Actions are applied one at
a time under the table's :class:`asyncio.Lock`, each checked against the then-current state
(per-player legality, R13.1), so throw-ins from several people arriving at once are
serialized. Bot seats act server-side whenever they are :func:`~durak.engine.next_actor`
(R13.2), after ``bot_delay`` seconds.

>>> tables = TableManager(bot_delay=0)
>>> table = tables.create("podkidnoy", ["human", "rule"], seed=1)
>>> table.claim(None)[0], table.started
(0, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import durak.bots as bots_module
from durak.actions import Action
from durak.bots import RandomBot
from durak.engine import apply, apply_with_events, check, is_legal, new_game, next_actor
from durak.errors import DurakError, RulesError
from durak.events import Event, events_for
from durak.presets import PRESETS, get_preset
from durak.rules import Rules
from durak.serialize import view_to_dict
from durak.state import GameState
from durak.views import view
from durak.web.protocol import (
    acting_seats,
    action_from_message,
    events_to_dicts,
    result_text,
    seat_names,
)

#: ``durak.bots.make_bot`` (``None`` in a bots module without it: seats then get RandomBot).
_make_bot: Callable[..., Any] | None = getattr(bots_module, "make_bot", None)

__all__ = [
    "BOT_KINDS",
    "SEAT_KINDS",
    "Connection",
    "Seat",
    "Table",
    "TableError",
    "TableManager",
    "preset_catalogue",
    "replay_states",
]

log = logging.getLogger(__name__)

#: The computer players a seat may hold (names for :func:`durak.bots.make_bot`).
BOT_KINDS: tuple[str, ...] = ("random", "rule", "search")

#: What a seat may hold: a person, or one of the bots.
SEAT_KINDS: tuple[str, ...] = ("human", *BOT_KINDS)

_BOT_TITLES = {"random": "Random bot", "rule": "Rule bot", "search": "Search bot"}


class Refusal(str):
    """Why an action was refused, in English (the string), with the broken rule's id and its
    reason as data (:mod:`durak.messages`) when the rules refused it, for the page to say it in
    its own language.

    Attributes:
        broken: ``(rule id, reason)`` as :func:`~durak.engine.check` gives it, or ``None``.
    """

    broken: tuple[str, str] | None

    def __new__(cls, text: str, broken: tuple[str, str] | None = None) -> Refusal:
        out = super().__new__(cls, text)
        out.broken = broken
        return out


class TableError(DurakError):
    """A request about tables that cannot be granted (bad settings, unknown table). Like every
    error of the library it is a :class:`~durak.errors.DurakError`, and so a
    :class:`ValueError`."""


def _bot(kind: str, seed: int | str) -> Any:
    """A bot of ``kind`` with its own seed: :func:`durak.bots.make_bot` where it exists, else a
    :class:`~durak.bots.RandomBot`."""
    if _make_bot is None:  # pragma: no cover
        return RandomBot(seed)
    return _make_bot(kind, seed)


@dataclass
class Seat:
    """One seat of a table.

    Attributes:
        index: the seat number (R2.2).
        kind: ``"human"`` or a bot name of :data:`BOT_KINDS`.
        token: the secret of the person who took the seat (``None`` while free, and for bots).
        bot: the computer player of a bot seat.
    """

    index: int
    kind: str
    token: str | None = None
    bot: Any = None

    @property
    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind != "human"

    @property
    def label(self) -> str:
        """The seat's short name, as in the notation: ``P0``, ``P1`` ..."""
        return f"P{self.index}"

    @property
    def title(self) -> str:
        """What sits there: ``Person`` or the bot's name."""
        return _BOT_TITLES.get(self.kind, "Person")


@dataclass(eq=False)
class Connection:
    """One WebSocket connection: its seat (``None`` for an onlooker) and its outbox. The table
    puts messages in the outbox in order; the connection's writer sends them."""

    seat: int | None
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for sending."""
        self.outbox.put_nowait(message)


class Table:
    """A game table: the state, the seats, the connections and the bots' turns.

    Args:
        table_id: the table's id in its link (``/table/<id>``).
        preset: the preset's name.
        rules: the rules of the game.
        kinds: one :data:`SEAT_KINDS` entry per seat.
        seed: the first deal's seed (``None``: random).
        bot_delay: seconds a bot waits before it acts, so people can follow.
    """

    def __init__(
        self,
        table_id: str,
        preset: str,
        rules: Rules,
        kinds: Sequence[str],
        seed: int | str | None = None,
        bot_delay: float = 0.6,
    ) -> None:
        self.id = table_id
        self.preset = preset
        self.rules = rules
        self.bot_delay = bot_delay
        self.seats = [Seat(i, kind) for i, kind in enumerate(kinds)]
        base = seed if seed is not None else secrets.randbelow(1 << 62)
        for seat in self.seats:
            if seat.is_bot:
                seat.bot = _bot(seat.kind, f"{base}/{seat.index}")
        #: The current game (the whole truth: never sent to anyone).
        self.state: GameState = new_game(rules, seed=seed)
        #: The game's deal before any action and the actions applied since (a replayable record).
        self.initial: GameState = self.state
        self.actions: list[Action] = []
        #: The number of the game at this table (1 for the first; ``restart`` adds one).
        self.game = 1
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.created = time.monotonic()
        self.touched = self.created
        self._driver: asyncio.Task[None] | None = None

    # --- seats -------------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether play has begun: every person's seat is taken."""
        return all(s.is_bot or s.token is not None for s in self.seats)

    @property
    def version(self) -> int:
        """The number of actions applied in the current game."""
        return len(self.actions)

    def claim(self, token: str | None) -> tuple[int | None, str | None]:
        """The seat of the person holding ``token``, or the first free person's seat with a new
        token; ``(None, None)`` (an onlooker) when ``token`` is unknown and no seat is free."""
        if token:
            for seat in self.seats:
                if seat.token is not None and secrets.compare_digest(seat.token, token):
                    return seat.index, seat.token
        for seat in self.seats:
            if not seat.is_bot and seat.token is None:
                seat.token = secrets.token_urlsafe(18)
                return seat.index, seat.token
        return None, None

    def seat_info(self) -> list[dict[str, Any]]:
        """Public facts about the seats: kind, label, title, taken, online."""
        online = {c.seat for c in self.connections}
        return [
            {
                "seat": s.index,
                "kind": s.kind,
                "label": s.label,
                "title": s.title,
                "taken": s.is_bot or s.token is not None,
                "online": s.is_bot or s.index in online,
            }
            for s in self.seats
        ]

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (no cards)."""
        return {
            "id": self.id,
            "preset": self.preset,
            "players": len(self.seats),
            "seats": self.seat_info(),
            "started": self.started,
            "over": self.state.result is not None,
            "game": self.game,
        }

    # --- messages ----------------------------------------------------------------------------

    def message_for(self, seat: int | None, events: Sequence[Event] = ()) -> dict[str, Any]:
        """The ``state`` message for ``seat``: only what that seat may know (R13): its view and
        its events (:func:`~durak.events.events_for`), plus public facts about the table."""
        v = view(self.state, seat)
        labels = [s.label for s in self.seats]
        name = seat_names(labels, seat)
        mine = events_for(events, seat)
        return {
            "type": "state",
            "table": self.id,
            "preset": self.preset,
            "game": self.game,
            "version": self.version,
            "seat": seat,
            "started": self.started,
            "seats": self.seat_info(),
            "acting": acting_seats(v) if self.started else [],
            "view": view_to_dict(v),
            "events": events_to_dicts(mine, seat, name),
            "result_text": None if v.result is None else result_text(v.result, seat, name),
        }

    def broadcast(self, events: Sequence[Event] = ()) -> None:
        """Queue each connection's own ``state`` message."""
        for conn in self.connections:
            conn.send(self.message_for(conn.seat, events))

    def join(self, conn: Connection) -> None:
        """Add a connection and tell everyone (seats online)."""
        self.connections.append(conn)
        self.touched = time.monotonic()
        self.broadcast()
        self.kick()

    def leave(self, conn: Connection) -> None:
        """Remove a connection and tell the others."""
        with contextlib.suppress(ValueError):
            self.connections.remove(conn)
        self.broadcast()

    # --- actions -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        """Apply a legal ``action`` and send everyone his part of what happened."""
        self.state, events = apply_with_events(self.state, action)
        self.actions.append(action)
        self.touched = time.monotonic()
        self.broadcast(events)

    def refusal(self, seat: int | None, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, or ``None`` if it may."""
        if seat is None:
            return "You are watching this table: onlookers cannot act."
        if self.state.result is not None:
            return "The game is over."
        if not self.started:
            return "The game starts when every seat is taken: share the link."
        if action.player != seat:
            return (
                f"You sit at seat {seat} (P{seat}): you cannot act for P{action.player} ({action})."
            )
        if not is_legal(self.state, action):
            broken = check(self.state, action)
            reason = f"{broken[1]} ({broken[0]})" if broken else "not allowed now"
            return Refusal(f"Illegal action {action}: {reason}.", broken)
        return None

    async def submit(self, seat: int | None, message: str | Mapping[str, Any]) -> str | None:
        """Apply the action in ``message`` for ``seat`` if it is that seat's and legal now
        (R13.1), checked against the state current when the table's lock is held.

        Returns:
            ``None`` when applied, else the reason it was refused (nothing changed).
        """
        try:
            action = action_from_message(message)
        except DurakError as exc:
            return f"Not understood: {exc}"
        async with self.lock:
            reason = self.refusal(seat, action)
            if reason is not None:
                return reason
            self._apply(action)
        self.kick()
        return None

    async def restart(self, seat: int | None) -> str | None:
        """Deal the next game at this table, once the current one is over; the durak deals
        (R11.1). Returns the reason it was refused, or ``None``."""
        async with self.lock:
            result = self.state.result
            if seat is None:
                return "Onlookers cannot start a game."
            if result is None:
                return "The game is still being played."
            dealer = result.durak if result.durak is not None else (self.state.dealer + 1)
            self.state = new_game(self.rules, dealer=dealer % len(self.seats))
            self.initial = self.state
            self.actions = []
            self.game += 1
            self.broadcast()
        self.kick()
        return None

    # --- bots --------------------------------------------------------------------------------

    def kick(self) -> None:
        """Let bot seats act if one is :func:`~durak.engine.next_actor` (one driver task per
        table)."""
        if self._driver is not None and not self._driver.done():
            return
        if self._bot_to_act() is None:
            return
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _bot_to_act(self) -> int | None:
        if not self.started or self.state.result is not None:
            return None
        actor = next_actor(self.state)
        if actor is None or not self.seats[actor].is_bot:
            return None
        return actor

    async def _drive(self) -> None:
        """Play the bot seats while one of them is the next actor (R13.2)."""
        try:
            await self._drive_bots()
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, the table stays usable
            log.exception("the bots of table %s stopped", self.id)

    async def _drive_bots(self) -> None:
        while True:
            async with self.lock:
                actor = self._bot_to_act()
                if actor is None:
                    return
                state, game, version = self.state, self.game, self.version
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            action = await asyncio.to_thread(self._bot_choice, state, actor)
            async with self.lock:
                if (game, version) != (self.game, self.version):
                    continue  # someone acted meanwhile: think again
                self._apply(action)

    def _bot_choice(self, state: GameState, actor: int) -> Action:
        """The bot's action for ``actor`` (a random legal one if the bot fails)."""
        bot = self.seats[actor].bot
        try:
            action: Action = bot.choose(view(state, actor))
            if action.player == actor and is_legal(state, action):
                return action
            log.warning("bot at seat %s chose an illegal action %s", actor, action)
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %s failed", actor)
        fallback: Action = RandomBot(f"{self.id}/{self.version}").choose(view(state, actor))
        return fallback

    async def close(self) -> None:
        """Stop the bots' driver task."""
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver


def preset_catalogue(max_players: int = 8) -> list[dict[str, Any]]:
    """Every preset (R14) with its description and the numbers of players its rules can deal
    (R2.1), for the start page."""
    out = []
    for preset in PRESETS.values():
        counts = []
        for n in range(2, max_players + 1):
            try:
                preset.rules(players=n)
            except RulesError:
                continue
            counts.append(n)
        default = preset.rules().players
        out.append(
            {
                "name": preset.name,
                "description": preset.description,
                "source": preset.source,
                "players": counts,
                "default_players": default if default in counts else counts[0],
            }
        )
    return out


class TableManager:
    """All tables of a server, by id.

    Args:
        bot_delay: seconds a bot waits before acting (0 in tests).
        max_tables: the most tables kept; creating one more drops the least recently used.
    """

    def __init__(self, bot_delay: float = 0.6, max_tables: int = 500) -> None:
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}

    def create(
        self,
        preset: str,
        kinds: Sequence[str],
        seed: int | str | None = None,
    ) -> Table:
        """A new table for ``preset`` with one seat per entry of ``kinds``.

        Raises:
            TableError: an unknown preset or seat kind, no person at the table, or a number of
                players the preset cannot deal (the message names the problem).
        """
        if not isinstance(preset, str):
            raise TableError("the preset must be a name")
        try:
            found = get_preset(preset)
        except RulesError as exc:
            raise TableError(str(exc)) from None
        if not isinstance(kinds, Sequence) or isinstance(kinds, str) or not kinds:
            raise TableError("give one seat kind per player")
        bad = [k for k in kinds if k not in SEAT_KINDS]
        if bad:
            raise TableError(f"unknown seat kind {bad[0]!r} (known: {', '.join(SEAT_KINDS)})")
        if "human" not in kinds:
            raise TableError("at least one seat must be a person")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise TableError("the seed must be a number or text")
        try:
            rules = found.rules(players=len(kinds))
        except RulesError as exc:
            raise TableError(
                f"{found.name} cannot be played by {len(kinds)} players: {exc}"
            ) from None
        while len(self.tables) >= self.max_tables:
            oldest = min(self.tables.values(), key=lambda t: t.touched)
            del self.tables[oldest.id]
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        table = Table(table_id, found.name, rules, kinds, seed=seed, bot_delay=self.bot_delay)
        self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table | None:
        """The table with that id, or ``None``."""
        return self.tables.get(table_id)

    async def close(self) -> None:
        """Stop every table's bots."""
        for table in self.tables.values():
            await table.close()


def replay_states(initial: GameState, actions: Sequence[Action]) -> list[GameState]:
    """The states of a table's game, one per version (``[initial, after action 1, ...]``): for
    tests and tools that check what was sent at each version."""
    states = [initial]
    for action in actions:
        states.append(apply(states[-1], action))
    return states
