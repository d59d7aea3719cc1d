"""Game tables of the web front-end: one :class:`~durak.state.GameState` per table, kept on the
server, with people and bots in its seats.

A :class:`Table` owns the whole truth of its game and hands each connected seat only its own
view (R13): :meth:`Table.message_for` builds a seat's message from
:func:`~durak.views.view` and :func:`~durak.events.events_for` alone. Actions are applied one at
a time under the table's :class:`asyncio.Lock`, each checked against the then-current state
(per-player legality, R13.1), so throw-ins from several people arriving at once are
serialized. Bot seats act server-side whenever they are :func:`~durak.engine.next_actor`
(R13.2), after ``bot_delay`` seconds; search bots think in other processes
(:mod:`durak.web.thinking`).

Every deal comes from a secret seed the server draws (:func:`secrets.randbits`); a fixed seed
is taken only where the server allows it (:attr:`~durak.web.config.ServerConfig.allow_fixed_seeds`)
and is then shown to every seat. Each table, seat, action and finished game is written to the
server's :class:`~durak.web.store.Store`, from which a restarted server resumes the tables.

>>> tables = TableManager(ServerConfig(bot_delay=0))
>>> table = tables.create("podkidnoy", ["human", "rule"])
>>> table.claim(None)[0], table.started, table.fixed_seed
(0, True, None)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import attrs

import durak.bots as bots_module
from durak._input import brief
from durak.actions import Action
from durak.bots import RandomBot
from durak.engine import apply, apply_with_events, check, is_legal, new_game, next_actor
from durak.errors import DurakError, RulesError
from durak.events import Event, events_for
from durak.i18n import language
from durak.levels import DEFAULT_MOVE_BUDGET, LEVELS, make_level_bot
from durak.messages import Message, as_message, message
from durak.notation import parse_action
from durak.presets import PRESETS, get_preset, rules_from_mapping
from durak.records import Record, dumps
from durak.rules import Rules
from durak.serialize import view_to_dict
from durak.state import GameState
from durak.views import PlayerView, view
from durak.web.config import ServerConfig
from durak.web.protocol import (
    EventCache,
    acting_seats,
    action_from_message,
    events_to_dicts,
    listing_refusal,
    result_text,
    seat_names,
)
from durak.web.store import Store, TableRow, hash_token
from durak.web.thinking import BotPool

#: ``durak.bots.make_bot`` (``None`` in a bots module without it: seats then get RandomBot).
_make_bot: Callable[..., Any] | None = getattr(bots_module, "make_bot", None)

__all__ = [
    "BOT_KINDS",
    "CREATE_KEYS",
    "MAX_SEED_CHARS",
    "SEAT_KINDS",
    "Connection",
    "Seat",
    "Table",
    "TableError",
    "TableManager",
    "level_catalogue",
    "preset_catalogue",
    "replay_states",
]

log = logging.getLogger(__name__)

#: The computer players a seat may hold: the strength levels of :mod:`durak.levels` (weakest
#: first: what the set-up page offers) and the bots by name (for :func:`durak.bots.make_bot`).
BOT_KINDS: tuple[str, ...] = (*LEVELS, "random", "rule", "search")

#: What a seat may hold: a person, or one of the bots.
SEAT_KINDS: tuple[str, ...] = ("human", *BOT_KINDS)

#: The keys ``POST /api/tables`` understands; any other is refused.
CREATE_KEYS: tuple[str, ...] = ("preset", "seats", "rules", "seed", "timer")

#: The longest fixed seed a table may be created with (characters, or digits of an integer).
MAX_SEED_CHARS = 64

#: The most events of the current game sent to a seat that (re)joins (its log).
HISTORY = 120

#: What stands for the rules in a message while it is encoded (:meth:`Table._encode`), and
#: its JSON text.
_RULES_MARK = "\x00rules\x00"
_RULES_MARK_JSON = json.dumps(_RULES_MARK)

_BOT_TITLES = {
    "random": "Random bot",
    "rule": "Rule bot",
    "search": "Search bot",
    "easy": "Easy bot",
    "normal": "Normal bot",
    "hard": "Hard bot",
    "best": "Best bot",
}

#: :func:`~durak.messages.message`, for where a parameter called ``message`` hides it.
_message = message


class TableError(DurakError):
    """A request about tables that cannot be granted. Like every error of the library it is a
    :class:`~durak.errors.DurakError`, and so a :class:`ValueError`.

    Args:
        message: why, a :class:`~durak.messages.Message` (a ``server.`` code of
            :mod:`durak.messages`; plain text is taken as the code ``other``).
        status: the HTTP status.

    Attributes:
        status: the HTTP status that answers it: ``400`` (bad settings), ``429`` (this client
            has too many tables or connections), ``503`` (the server is full).
        message: the reason as a message: ``message.code`` and ``message.params``.
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
        self.message: Message = as_message(message)


def _bot(kind: str, seed: int | str, budget: float) -> Any:
    """A bot of ``kind`` with its own seed: a strength level's bot
    (:func:`durak.levels.make_level_bot`: the hardest level thinks ``budget`` seconds a move,
    the others at most that), else :func:`durak.bots.make_bot` where it exists, else a
    :class:`~durak.bots.RandomBot`; a search bot thinks at most ``budget`` seconds a move."""
    if kind in LEVELS:
        return make_level_bot(kind, seed, budget=budget)
    if _make_bot is None:  # pragma: no cover
        return RandomBot(seed)
    if kind == "search":
        return _make_bot(f"search:time_limit={budget:g}", seed)
    return _make_bot(kind, seed)


@dataclass
class Seat:
    """One seat of a table.

    Attributes:
        index: the seat number (R2.2).
        kind: ``"human"`` or a bot name of :data:`BOT_KINDS`.
        token_hash: the digest of the token of the person who took the seat
            (:func:`~durak.web.store.hash_token`; ``None`` while free, and for bots).
        bot: the computer player of a bot seat, or the stand-in of a person's seat (it plays
            when his turn timer runs out or while he is away).
        away: a person's seat whose player has been gone longer than the turn timer.
    """

    index: int
    kind: str
    token_hash: str | None = None
    bot: Any = None
    away: bool = False
    _timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind != "human"

    @property
    def taken(self) -> bool:
        """Whether someone sits here (a bot, or a person holding a token)."""
        return self.is_bot or self.token_hash is not None

    @property
    def label(self) -> str:
        """The seat's short name, as in the notation: ``P0``, ``P1`` ..."""
        return f"P{self.index}"

    @property
    def title(self) -> str:
        """What sits there: ``Person`` or the bot's name."""
        return _BOT_TITLES.get(self.kind, "Person")

    def cancel_timer(self) -> None:
        """Cancel a pending release or stand-in for this seat."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


@dataclass(eq=False)
class Connection:
    """One WebSocket connection: its seat (``None`` for an onlooker), the client's address and
    a bounded outbox. The table puts messages in the outbox in order; the connection's writer
    sends them. When the outbox is full the client is not reading: the connection is
    ``dropped`` (its outbox emptied) and the server closes it.

    Args:
        seat: the seat, or ``None``.
        limit: the most messages the outbox holds.
        client: the client's address (for the caps per address).
    """

    seat: int | None
    limit: int = 64
    client: str = ""
    #: Messages to send: a dict, or its JSON text when the same message goes to several.
    outbox: asyncio.Queue[dict[str, Any] | str] = field(init=False)
    dropped: asyncio.Event = field(init=False, default_factory=asyncio.Event)
    #: Whether this connection has been sent its history (its first ``state`` message).
    caught_up: bool = False

    def __post_init__(self) -> None:
        self.outbox = asyncio.Queue(maxsize=self.limit)

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a dict, or JSON text) for sending; a full outbox drops the
        connection."""
        if self.dropped.is_set():
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped.set()
            while not self.outbox.empty():
                self.outbox.get_nowait()


class Table:
    """A game table: the state, the seats, the connections and the bots' turns.

    Args:
        table_id: the table's id in its link (``/table/<id>``).
        preset: the preset's name.
        rules: the rules of the game.
        kinds: one :data:`SEAT_KINDS` entry per seat.
        seed: the first deal's seed (``None``: a secret one is drawn).
        bot_delay: seconds a bot waits before it acts, so people can follow.
        fixed_seed: whether ``seed`` was chosen by the table's creator (then it is shown to
            every seat, and the bots' seeds follow from it).
        timer: seconds a person has for a move before his seat's stand-in bot plays it (0:
            no timer); also how long he may be away before the stand-in plays for him.
        store: where the table is kept (none: only in memory).
        pool: where search bots think (none: a pool of one worker).
        seat_grace: seconds a person's seat is kept after he leaves before play began.
        creator: the address of the client that created the table.
        abandoned_after: seconds after which a game under way that nobody is connected to and
            where nothing happened no longer keeps the table :attr:`live`.
    """

    def __init__(
        self,
        table_id: str,
        preset: str,
        rules: Rules,
        kinds: Sequence[str],
        seed: int | str | None = None,
        bot_delay: float = 0.6,
        *,
        fixed_seed: bool = False,
        timer: float = 0.0,
        store: Store | None = None,
        pool: BotPool | None = None,
        seat_grace: float = 60.0,
        creator: str = "",
        abandoned_after: float = 300.0,
    ) -> None:
        self.id = table_id
        self.abandoned_after = abandoned_after
        self.preset = preset
        self.rules = rules
        self.bot_delay = bot_delay
        self.timer = timer
        self.store = store
        self.pool = pool if pool is not None else BotPool(1, DEFAULT_MOVE_BUDGET)
        self.seat_grace = seat_grace
        self.creator = creator
        self.seats = [Seat(i, kind) for i, kind in enumerate(kinds)]
        #: The creator's fixed seed, shown to every seat, or ``None`` (the deal is secret).
        self.fixed_seed: int | str | None = seed if fixed_seed else None
        deal_seed = seed if seed is not None else secrets.randbits(64)
        for seat in self.seats:
            bot_seed = f"{deal_seed}/{seat.index}" if fixed_seed else secrets.randbits(64)
            seat.bot = _bot(seat.kind if seat.is_bot else "rule", bot_seed, self.pool.budget)
        #: The current game (the whole truth: never sent to anyone).
        self.state: GameState = new_game(rules, seed=deal_seed)
        #: The game's deal before any action and the actions applied since (a replayable record).
        self.initial: GameState = self.state
        self.actions: list[Action] = []
        #: What each action of the current game made happen (for a seat's log on joining).
        self.history: list[tuple[Event, ...]] = []
        #: The number of the game at this table (1 for the first; ``restart`` adds one).
        self.game = 1
        #: Whether play has begun: every person's seat has been taken (it stays begun).
        self.started = all(s.taken for s in self.seats)
        #: The seats that asked for the next game.
        self.votes: set[int] = set()
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.created = time.time()
        self.touched = self.born = time.monotonic()
        self._driver: asyncio.Task[None] | None = None
        self._forced: tuple[int, int, int] | None = None  # (game, version, seat) timed out
        self._turn: asyncio.TimerHandle | None = None
        #: The rules' JSON text, once encoded (for :meth:`_encode`), with the rules it encodes.
        self._rules_json: tuple[Rules, str] | None = None
        #: The state whose views :meth:`seat_view` keeps, and those views by seat.
        self._views_of: GameState | None = None
        self._views: dict[int | None, tuple[PlayerView, dict[str, Any]]] = {}

    # --- persistence -------------------------------------------------------------------------

    def _row(self) -> TableRow:
        first = self.initial
        return TableRow(
            self.id,
            self.preset,
            self.rules.to_dict(),
            [s.kind for s in self.seats],
            self.fixed_seed,
            self.timer,
            self.created,
            self.game,
            first.seed if first.seed is not None else 0,
            first.dealer,
            first.appointed,
            self.creator,
        )

    def save(self) -> None:
        """Write the table, its seats and its current game's actions to the store."""
        if self.store is None:
            return
        self.store.save_table(self._row())
        for seat in self.seats:
            if not seat.is_bot:
                self.store.set_seat(self.id, seat.index, seat.token_hash)
        for n, action in enumerate(self.actions):
            self.store.add_action(self.id, self.game, n, str(action))

    @classmethod
    def restore(
        cls,
        row: TableRow,
        store: Store,
        pool: BotPool,
        config: ServerConfig,
    ) -> Table:
        """A stored table as it was: its current game dealt again and its actions replayed.

        Raises:
            DurakError: the stored rules, deal or actions are no longer valid.
        """
        rules = Rules.from_dict(row.rules)
        table = cls(
            row.id,
            row.preset,
            rules,
            row.kinds,
            row.seed,
            config.bot_delay,
            fixed_seed=row.fixed_seed is not None,
            timer=row.timer,
            store=None,
            pool=pool,
            seat_grace=config.seat_grace,
            creator=row.creator,
            abandoned_after=config.abandoned_after,
        )
        table.fixed_seed = row.fixed_seed
        table.created = row.created
        table.game = row.game
        table.state = table.initial = new_game(
            rules, seed=row.seed, dealer=row.dealer, attacker=row.attacker
        )
        for index, digest in store.seats(row.id).items():
            if 0 <= index < len(table.seats):
                table.seats[index].token_hash = digest
        for text in store.actions(row.id, row.game):
            action = parse_action(text)
            table.state, events = apply_with_events(table.state, action)
            table.actions.append(action)
            table.history.append(events)
        table.started = bool(table.actions) or all(s.taken for s in table.seats)
        table.store = store
        return table

    def record(self) -> Record:
        """The current game as a game record (:class:`~durak.records.Record`): the seats'
        labels (``P0``, ``P1`` ...) as the players' names and their kinds (``human``,
        ``rule`` ...) as ``meta["seats"]``, data in no language (a page names them in its
        own)."""
        return attrs.evolve(
            Record.of_game(self.initial, self.actions, self.state),
            players=tuple(s.label for s in self.seats),
            meta={
                "table": self.id,
                "game": self.game,
                "preset": self.preset,
                "seats": [s.kind for s in self.seats],
            },
        )

    # --- seats -------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of actions applied in the current game."""
        return len(self.actions)

    @property
    def live(self) -> bool:
        """Whether the table must not be dropped to make room: someone is connected, it was
        created less than ``seat_grace`` seconds ago (its people have not had time to open the
        link), or a game is under way where something happened in the last
        ``abandoned_after`` seconds (a game nobody has come back to for that long is
        abandoned)."""
        now = time.monotonic()
        if self.connections or now - self.born < self.seat_grace:
            return True
        under_way = self.started and self.state.result is None
        return under_way and now - self.touched < self.abandoned_after

    @property
    def in_use(self) -> bool:
        """Whether the table counts among its creator's open tables
        (:attr:`ServerConfig.tables_per_client`): its game is not over and someone holds a
        person's seat, or it is new (created less than ``seat_grace`` seconds ago). A finished
        game, or a table whose people have all left their seats, no longer counts."""
        if self.state.result is not None:
            return False
        if any(not s.is_bot and s.token_hash is not None for s in self.seats):
            return True
        return not self.started and time.monotonic() - self.born < self.seat_grace

    def claim(self, token: str | None) -> tuple[int | None, str | None]:
        """The seat of the person holding ``token``, or the first free person's seat with a new
        token; ``(None, None)`` (an onlooker) when ``token`` is unknown and no seat is free."""
        if token:
            digest = hash_token(token)
            for seat in self.seats:
                if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                    return seat.index, token
        for seat in self.seats:
            if not seat.is_bot and seat.token_hash is None:
                fresh = secrets.token_urlsafe(18)
                seat.token_hash = hash_token(fresh)
                seat.cancel_timer()
                seat.away = False
                if self.store is not None:
                    self.store.set_seat(self.id, seat.index, seat.token_hash)
                if all(s.taken for s in self.seats):
                    self.started = True
                return seat.index, fresh
        return None, None

    def release(self, seat: int) -> None:
        """Free a person's seat: his token no longer returns him there, and the next visitor
        takes it. While it is free and the table has a turn timer, the stand-in bot plays it."""
        place = self.seats[seat]
        if place.is_bot or place.token_hash is None:
            return
        place.token_hash = None
        place.cancel_timer()
        place.away = self.started and self.timer > 0
        self.votes.discard(seat)
        for conn in self.connections:
            if conn.seat == seat:
                conn.seat = None
        if self.store is not None:
            self.store.set_seat(self.id, seat, None)
        self.broadcast()
        self.kick()

    def online(self) -> set[int]:
        """The seats with a connection."""
        return {c.seat for c in self.connections if c.seat is not None}

    def seat_info(self) -> list[dict[str, Any]]:
        """Public facts about the seats: kind, label, title, taken, online, away."""
        online = self.online()
        return [
            {
                "seat": s.index,
                "kind": s.kind,
                "label": s.label,
                "title": s.title,
                "taken": s.taken,
                "online": s.is_bot or s.index in online,
                "away": s.away,
            }
            for s in self.seats
        ]

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (no cards). ``fixed_seed`` is the seed the table's
        creator chose (``None``: the server dealt from a secret seed); ``games`` the numbers
        of the finished games whose records can be downloaded."""
        return {
            "id": self.id,
            "preset": self.preset,
            "players": len(self.seats),
            "seats": self.seat_info(),
            "started": self.started,
            "over": self.state.result is not None,
            "game": self.game,
            "fixed_seed": self.fixed_seed,
            "timer": self.timer,
            "rules": self.rules.to_dict(),
            "games": [] if self.store is None else self.store.games(self.id),
        }

    # --- messages ----------------------------------------------------------------------------

    def message_for(
        self, seat: int | None, events: Sequence[Event] = (), history: bool = False
    ) -> dict[str, Any]:
        """The ``state`` message for ``seat``: only what that seat may know (R13): its view and
        its events (:func:`~durak.events.events_for`), plus public facts about the table. With
        ``history``, also ``history``: the seat's part of the last :data:`HISTORY` events of
        the current game, for its log.

        The view is built once per state and seat (:meth:`seat_view`); the message itself is
        new each time."""
        return self._message(seat, events, history, self.seat_info(), EventCache())

    def _message(
        self,
        seat: int | None,
        events: Sequence[Event],
        history: bool,
        seats: list[dict[str, Any]],
        said: EventCache,
    ) -> dict[str, Any]:
        """:meth:`message_for` with the parts every seat shares given: the seats' public
        facts and the events' seat-independent parts."""
        v, view_data = self.seat_view(seat)
        labels = [s.label for s in self.seats]
        name = seat_names(labels, seat)
        mine = events_for(events, seat)
        message: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "preset": self.preset,
            "game": self.game,
            "version": self.version,
            "seat": seat,
            "started": self.started,
            "seats": seats,
            "acting": acting_seats(v) if self.started else [],
            "view": view_data,
            "events": said.to_dicts(mine, seat, name),
            "result_text": None if v.result is None else result_text(v.result, seat, name),
            "fixed_seed": self.fixed_seed,
            "timer": self.timer,
            "restart_votes": sorted(self.votes),
        }
        if history:
            past: list[Event] = []
            for happened in self.history:
                past.extend(events_for(happened, seat))
            message["history"] = events_to_dicts(past[-HISTORY:], seat, name)
        return message

    def seat_view(self, seat: int | None) -> tuple[PlayerView, dict[str, Any]]:
        """``seat``'s :func:`~durak.views.view` of the current state and its JSON form
        (:func:`~durak.serialize.view_to_dict`), built once per state and seat: the messages of
        one state (a broadcast, a join, a vote) share them. Each seat has its own entry, so no
        seat is ever given another's view. The JSON form is shared: do not change it."""
        if self._views_of is not self.state:
            self._views_of = self.state
            self._views = {}
        kept = self._views.get(seat)
        if kept is None:
            v = view(self.state, seat)
            kept = self._views[seat] = (v, view_to_dict(v))
        return kept

    def _encode(self, message: dict[str, Any]) -> str:
        """A ``state`` message as compact JSON text, its view's rules (the same in every
        message of the table) encoded once and put in place."""
        view_data = message["view"]  # the current state's view (:meth:`seat_view`)
        rules = self.state.rules
        if self._rules_json is None or self._rules_json[0] is not rules:
            encoded = json.dumps(view_data["rules"], ensure_ascii=False, separators=(",", ":"))
            self._rules_json = (rules, encoded)
        text = json.dumps(
            {**message, "view": {**view_data, "rules": _RULES_MARK}},
            ensure_ascii=False,
            separators=(",", ":"),
        )
        # Everything before the view is the server's own (ids, names, seat facts), so the first
        # match is the mark, whatever text a client may have put later in the message.
        return text.replace(_RULES_MARK_JSON, self._rules_json[1], 1)

    def broadcast(self, events: Sequence[Event] = ()) -> None:
        """Queue each connection's own ``state`` message (built and encoded once per seat; the
        seats' facts and the events' shared parts once for all)."""
        built: dict[int | None, str] = {}
        seats = self.seat_info()
        said = EventCache()
        for conn in list(self.connections):
            if not conn.caught_up:
                conn.caught_up = True
                conn.send(self._message(conn.seat, (), True, seats, said))
                continue
            if conn.seat not in built:
                message = self._message(conn.seat, events, False, seats, said)
                built[conn.seat] = self._encode(message)
            conn.send(built[conn.seat])
            if conn.dropped.is_set():
                self.connections.remove(conn)

    def join(self, conn: Connection) -> None:
        """Add a connection and tell everyone (seats online); a returning person's seat is his
        own again (no stand-in)."""
        self.connections.append(conn)
        self.touched = time.monotonic()
        if conn.seat is not None:
            place = self.seats[conn.seat]
            place.cancel_timer()
            place.away = False
        self.broadcast()
        self._arm_turn()
        self.kick()

    def leave(self, conn: Connection) -> None:
        """Remove a connection and tell the others. A person whose last connection this was
        keeps his seat for ``seat_grace`` seconds before play began; after, with a turn timer,
        the stand-in bot plays for him once he has been gone for the timer's time."""
        with contextlib.suppress(ValueError):
            self.connections.remove(conn)
        self.touched = time.monotonic()
        seat = conn.seat
        if seat is not None and seat not in self.online():
            place = self.seats[seat]
            place.cancel_timer()
            loop = asyncio.get_running_loop()
            if not self.started:
                if self.seat_grace <= 0:
                    self.release(seat)
                else:
                    place._timer = loop.call_later(self.seat_grace, self.release, seat)
            elif self.timer > 0:
                place._timer = loop.call_later(self.timer, self._go_away, seat)
        self.broadcast()

    def _go_away(self, seat: int) -> None:
        place = self.seats[seat]
        place._timer = None
        if seat not in self.online():
            place.away = True
            self.broadcast()
            self.kick()

    # --- actions -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        """Apply a legal ``action``, store it, and send everyone his part of what happened."""
        self.state, events = apply_with_events(self.state, action)
        self.actions.append(action)
        self.history.append(events)
        self.touched = time.monotonic()
        if self.store is not None:
            self.store.add_action(self.id, self.game, len(self.actions) - 1, str(action))
            if self.state.result is not None:
                try:
                    text = dumps(self.record(), indent=None)
                except DurakError as exc:  # a game set up from a deck order has no seed
                    log.warning("no record of table %s game %s: %s", self.id, self.game, exc)
                else:
                    self.store.finish_game(self.id, self.game, text)
        self.broadcast(events)
        self._arm_turn()

    def refusal(self, seat: int | None, action: Action) -> Message | None:
        """Why ``seat`` may not take ``action`` now (a ``server.`` message of
        :mod:`durak.messages`; ``server.illegal-action`` carries the broken rule's id and
        reason), or ``None`` if it may."""
        if seat is None:
            return message("server.onlooker-acts")
        if self.state.result is not None:
            return message("server.game-over")
        if not self.started:
            return message("server.not-started")
        if action.player != seat:
            return message(
                "server.not-your-seat", seat=seat, other=action.player, notation=str(action)
            )
        if not is_legal(self.state, action):
            broken = check(self.state, action)
            if broken is None:
                return message("server.not-allowed-now", notation=str(action))
            return message(
                "server.illegal-action",
                notation=str(action),
                reason=as_message(broken[1]),
                rule=broken[0],
            )
        return None

    async def submit(self, seat: int | None, message: str | Mapping[str, Any]) -> Message | None:
        """Apply the action in ``message`` for ``seat`` if it is that seat's and legal now
        (R13.1), checked against the state current when the table's lock is held.

        Returns:
            ``None`` when applied, else the reason it was refused (nothing changed), as a
            message of :mod:`durak.messages`.
        """
        try:
            action = action_from_message(message)
        except DurakError as exc:
            return _message("server.not-understood", detail=str(exc))
        async with self.lock:
            reason = self.refusal(seat, action)
            if reason is not None:
                return reason
            self._apply(action)
        self.kick()
        return None

    def _needed_votes(self) -> set[int]:
        """The seats that must agree to the next game: every person's seat that is taken and
        connected (at a table of one person and bots, that person: its creator)."""
        online = self.online()
        return {s.index for s in self.seats if not s.is_bot and s.taken and s.index in online}

    async def restart(self, seat: int | None) -> Message | None:
        """Ask for the next game once the current one is over; it is dealt when every seated,
        connected person has asked (the durak deals, R11.1). Returns the reason it was refused,
        or ``None``."""
        async with self.lock:
            result = self.state.result
            if seat is None:
                return message("server.onlooker-restart")
            if result is None:
                return message("server.game-running")
            self.votes.add(seat)
            if not self._needed_votes() <= self.votes:
                self.broadcast()
                return None
            dealer = result.durak if result.durak is not None else (self.state.dealer + 1)
            seed = self.fixed_seed
            seed = f"{seed}/{self.game + 1}" if seed is not None else secrets.randbits(64)
            self.state = new_game(self.rules, seed=seed, dealer=dealer % len(self.seats))
            self.initial = self.state
            self.actions = []
            self.history = []
            self.votes = set()
            self.game += 1
            if self.store is not None:
                self.store.drop_actions(self.id, self.game - 1)
                self.store.save_table(self._row())
            self.broadcast()
            self._arm_turn()
        self.kick()
        return None

    # --- turn timer --------------------------------------------------------------------------

    def _arm_turn(self) -> None:
        """Start the turn timer for the person who is the next actor (a table with a timer)."""
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        if self.timer <= 0 or not self.started or self.state.result is not None:
            return
        actor = next_actor(self.state)
        if actor is None or self.seats[actor].is_bot or self.seats[actor].away:
            return
        key = (self.game, self.version, actor)
        self._turn = asyncio.get_running_loop().call_later(self.timer, self._time_out, key)

    def _time_out(self, key: tuple[int, int, int]) -> None:
        self._turn = None
        if key == (self.game, self.version, key[2]):
            self._forced = key
            self.kick()

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
        """The seat a bot should play now: a bot's seat, a person's seat whose player is away
        (or which is free at a table with a timer), or the seat whose time just ran out."""
        if not self.started or self.state.result is not None:
            return None
        actor = next_actor(self.state)
        if actor is None:
            return None
        seat = self.seats[actor]
        if seat.is_bot or seat.away or self._forced == (self.game, self.version, actor):
            return actor
        return None

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
            if self.bot_delay > 0 and self.seats[actor].is_bot:
                await asyncio.sleep(self.bot_delay)
            action = await self._bot_choice(state, actor)
            async with self.lock:
                if (game, version) != (self.game, self.version):
                    continue  # someone acted meanwhile: think again
                self._forced = None
                self._apply(action)

    async def _bot_choice(self, state: GameState, actor: int) -> Action:
        """The bot's action for ``actor`` (a random legal one if the bot fails)."""
        seat = self.seats[actor]
        try:
            action, seat.bot = await self.pool.choose(seat.bot, view(state, actor))
            if action.player == actor and is_legal(state, action):
                return action
            log.warning("bot at seat %s chose an illegal action %s", actor, action)
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %s failed", actor)
        fallback: Action = RandomBot(f"{self.id}/{self.version}").choose(view(state, actor))
        return fallback

    async def close(self) -> None:
        """Stop the bots' driver task and the timers."""
        if self._turn is not None:
            self._turn.cancel()
        for seat in self.seats:
            seat.cancel_timer()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver


def level_catalogue(budget: float, lang: str = "en") -> list[dict[str, Any]]:
    """The strength levels (:data:`durak.levels.LEVELS`, weakest first) for the start page:
    ``name`` (a seat kind), ``description`` (English), ``localized_description`` (in the
    language ``lang``, from the message catalogs) and ``budget``: the seconds the level's bot
    may think about a move at a server whose per-move budget is ``budget`` (0 for a bot that
    does not search).

    Raises:
        ValueError: no catalog for ``lang``.
    """
    said = language(lang)
    out = []
    for level in LEVELS.values():
        seconds = 0.0
        if level.budget is not None:
            seconds = budget if level.full_budget else min(level.budget, budget)
        out.append(
            {
                "name": level.name,
                "description": level.description,
                "localized_description": said.gettext(level.description),
                "budget": seconds,
            }
        )
    return out


def preset_catalogue(max_players: int = 8, lang: str = "en") -> list[dict[str, Any]]:
    """Every preset (R14) with its description and source (in English, and as
    ``localized_description`` and ``localized_source`` in the language ``lang`` from the
    message catalogs) and the numbers of players its rules can deal (R2.1), for the start
    page.

    Raises:
        ValueError: no catalog for ``lang``.
    """
    said = language(lang)
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
                "localized_description": said.gettext(preset.description),
                "localized_source": said.gettext(preset.source),
                "players": counts,
                "default_players": default if default in counts else counts[0],
                "rules": preset.rules().to_dict(),
            }
        )
    return out


def _check_seed(seed: object) -> int | str:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TableError(message("server.seed-type"))
    if isinstance(seed, int) and not 0 <= seed < 10**MAX_SEED_CHARS:
        raise TableError(message("server.seed-number", n=MAX_SEED_CHARS))
    if isinstance(seed, str) and not 0 < len(seed) <= MAX_SEED_CHARS:
        raise TableError(message("server.seed-text", n=MAX_SEED_CHARS))
    return seed


def _check_timer(timer: object, longest: float) -> float:
    if isinstance(timer, bool) or not isinstance(timer, int | float):
        raise TableError(message("server.timer-type"))
    if not 0 <= timer <= longest:
        most = int(longest) if longest == int(longest) else longest
        raise TableError(message("server.timer-range", n=most))
    return float(timer)


class TableManager:
    """All tables of a server, by id, with the server's limits.

    Args:
        config: the server's limits and switches (the defaults of
            :class:`~durak.web.config.ServerConfig`; a number is taken as ``bot_delay``).
        store: where tables are kept between runs; the open tables in it are resumed. By
            default a store in memory, which ends with the process.
        max_tables: instead of ``config.max_tables`` (kept for callers of earlier versions).
    """

    def __init__(
        self,
        config: ServerConfig | float | None = None,
        store: Store | None = None,
        *,
        bot_delay: float | None = None,
        max_tables: int | None = None,
    ) -> None:
        if not isinstance(config, ServerConfig):
            delay = config if isinstance(config, int | float) else bot_delay
            config = ServerConfig(bot_delay=0.6 if delay is None else float(delay))
        if max_tables is not None:  # the reserve follows, unless it still fits
            reserve = config.reserved_tables
            kept = reserve if reserve is not None and reserve < max_tables else None
            config = dataclasses.replace(config, max_tables=max_tables, reserved_tables=kept)
        self.config = config
        self.bot_delay = config.bot_delay
        self.max_tables = config.max_tables
        self.store = store if store is not None else Store(":memory:")
        self.pool = BotPool(config.search_workers, config.move_budget)
        self.tables: dict[str, Table] = {}
        #: Open connections per client address.
        self.sockets: Counter[str] = Counter()
        for row in self.store.open_tables():
            try:
                table = Table.restore(row, self.store, self.pool, config)
            except (DurakError, ValueError, TypeError, KeyError) as exc:
                log.warning("table %s cannot be resumed: %s", row.id, exc)
                continue
            self.tables[table.id] = table

    # --- creating ----------------------------------------------------------------------------

    def settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments of :meth:`create` from a ``POST /api/tables`` body.

        Raises:
            TableError: an unknown key (named), or a value of the wrong type.
        """
        unknown = sorted(str(k) for k in body if k not in CREATE_KEYS)
        if unknown:
            raise TableError(
                message("server.unknown-key", given=brief(unknown[0]), known=", ".join(CREATE_KEYS))
            )
        overrides = body.get("rules", {})
        if not isinstance(overrides, Mapping):
            raise TableError(message("server.rules-not-object"))
        return {
            "preset": body.get("preset", "podkidnoy"),
            "kinds": body.get("seats", []),
            "seed": body.get("seed"),
            "overrides": overrides,
            "timer": body.get("timer", 0),
        }

    def create(
        self,
        preset: str,
        kinds: Sequence[str],
        seed: int | str | None = None,
        *,
        overrides: Mapping[str, Any] | None = None,
        timer: float = 0,
        client: str = "",
    ) -> Table:
        """A new table for ``preset`` (changed by ``overrides``, any settings of the rule book
        as in a rules file) with one seat per entry of ``kinds``.

        Raises:
            TableError: (``400``) an unknown preset, setting or seat kind, a setting of the
                wrong type (the message names the key), no person at the table, a number of
                players the rules cannot deal, rules whose positions may list more legal
                actions than :attr:`ServerConfig.max_listing`, a seed where the server does not
                allow one or a bad seed or timer; (``429``) the client has
                :attr:`ServerConfig.tables_per_client` open tables, or one while only the
                reserved places are left; (``503``) the server holds
                :attr:`ServerConfig.max_tables` live tables.
        """
        config = self.config
        if not isinstance(preset, str):
            raise TableError(message("server.preset-not-name"))
        try:
            found = get_preset(preset)
        except RulesError:
            raise TableError(
                message("server.unknown-preset", given=brief(preset), known=", ".join(PRESETS))
            ) from None
        if not isinstance(kinds, Sequence) or isinstance(kinds, str) or not kinds:
            raise TableError(message("server.no-seats"))
        bad = [k for k in kinds if k not in SEAT_KINDS]
        if bad:
            raise TableError(
                message(
                    "server.unknown-seat-kind", given=brief(bad[0]), known=", ".join(SEAT_KINDS)
                )
            )
        if "human" not in kinds:
            raise TableError(message("server.no-person"))
        if seed is not None:
            if not config.allow_fixed_seeds:
                raise TableError(message("server.no-fixed-seeds"))
            seed = _check_seed(seed)
        timer = _check_timer(timer, config.max_timer)
        settings = dict(overrides or {})
        if "preset" in settings:
            raise TableError(message("server.preset-in-rules"))
        players = settings.pop("players", len(kinds))
        if players != len(kinds):
            raise TableError(message("server.players-mismatch", given=brief(players), n=len(kinds)))
        try:
            rules = rules_from_mapping({"preset": found.name, **settings, "players": len(kinds)})
        except RulesError as exc:
            if settings:
                raise TableError(message("server.bad-rules", detail=str(exc))) from None
            raise TableError(
                message("server.cannot-deal", preset=found.name, n=len(kinds), detail=str(exc))
            ) from None
        too_long = listing_refusal(rules, config.max_listing)
        if too_long is not None:
            raise TableError(too_long)
        self._make_room(client)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        table = Table(
            table_id,
            found.name,
            rules,
            kinds,
            seed=seed,
            bot_delay=config.bot_delay,
            fixed_seed=seed is not None,
            timer=timer,
            store=self.store,
            pool=self.pool,
            seat_grace=config.seat_grace,
            creator=client,
            abandoned_after=config.abandoned_after,
        )
        table.save()
        self.tables[table_id] = table
        return table

    def open_tables(self, client: str) -> int:
        """How many tables created from ``client`` count against its cap (:attr:`Table.in_use`:
        a game not over with someone in a person's seat, or a new table)."""
        return sum(1 for t in self.tables.values() if t.creator == client and t.in_use)

    def _make_room(self, client: str) -> None:
        """Expire idle tables; refuse a client with too many tables, one that has a table
        while only the reserved places are left, or a full server."""
        config = self.config
        self.expire()
        mine = self.open_tables(client) if client else 0
        if mine >= config.tables_per_client:
            raise TableError(
                message("server.too-many-tables", count=mine, limit=config.tables_per_client),
                429,
            )
        idle = [t for t in self.tables.values() if not t.live]
        left = config.max_tables - len(self.tables) + len(idle)
        if mine and 0 < left <= config.reserve:
            raise TableError(message("server.tables-reserved", count=mine, n=config.reserve), 429)
        if len(self.tables) >= config.max_tables:
            if not idle:
                raise TableError(message("server.server-full", n=len(self.tables)), 503)
            self._drop(min(idle, key=lambda t: t.touched))

    def expire(self, now: float | None = None) -> list[str]:
        """Forget every table nobody is connected to where nothing happened for
        :attr:`ServerConfig.idle_expiry` seconds; the ids of those forgotten."""
        now = time.monotonic() if now is None else now
        old = [
            t
            for t in self.tables.values()
            if not t.connections and now - t.touched >= self.config.idle_expiry
        ]
        for table in old:
            self._drop(table)
        return [t.id for t in old]

    def _drop(self, table: Table) -> None:
        del self.tables[table.id]
        self.store.close_table(table.id)
        if table._driver is not None:
            table._driver.cancel()
        if table._turn is not None:
            table._turn.cancel()
        for seat in table.seats:
            seat.cancel_timer()

    # --- connections -------------------------------------------------------------------------

    def admit(self, table: Table, client: str) -> Message | None:
        """Count a new connection from ``client`` to ``table``; the reason it is refused (too
        many connections to the table, ``server.table-crowded``, or from the address,
        ``server.client-crowded``), or ``None``."""
        if len(table.connections) >= self.config.sockets_per_table:
            return message("server.table-crowded", n=len(table.connections))
        if self.sockets[client] >= self.config.sockets_per_client:
            return message(
                "server.client-crowded",
                count=self.sockets[client],
                limit=self.config.sockets_per_client,
            )
        self.sockets[client] += 1
        return None

    def dismiss(self, client: str) -> None:
        """Count a connection from ``client`` as closed."""
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]

    def get(self, table_id: str) -> Table | None:
        """The table with that id, or ``None``."""
        return self.tables.get(table_id)

    def finished_record(self, table_id: str, game: int | None = None) -> tuple[int, str] | None:
        """A finished game's record text and number (the last one when ``game`` is ``None``),
        also of a table that has expired; ``None`` if there is none."""
        return self.store.record(table_id, game)

    async def close(self) -> None:
        """Stop every table's bots and the search workers, and commit the store's waiting
        changes."""
        for table in self.tables.values():
            await table.close()
        self.pool.close()
        self.store.flush()


def replay_states(initial: GameState, actions: Sequence[Action]) -> list[GameState]:
    """The states of a table's game, one per version (``[initial, after action 1, ...]``): for
    tests and tools that check what was sent at each version."""
    states = [initial]
    for action in actions:
        states.append(apply(states[-1], action))
    return states
