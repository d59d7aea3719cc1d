"""A game with its history: push moves (actions or typed text), undo them, replay them, save
and load the whole game as JSON, bots included.

:class:`Game` is a small object over the immutable states of the engine and a
:class:`~durak.records.Record`, as python-chess's ``Board`` is over its ``move_stack``:

>>> from durak import Rules
>>> game = Game(Rules(players=2), seed=1, bots={1: "rule"})
>>> game.push("6c")
Lead(player=0, cards=(Card('6c'),))
>>> [str(a) for a in game.play_bots()]
['p1 beat 6c 9c']
>>> str(game.pop()), len(game.moves)
('p1 beat 6c 9c', 1)
>>> again = Game.loads(game.dumps())
>>> again.moves == game.moves and again.state == game.state
True

A saved game is a game record (:mod:`durak.records`, so ``durak replay`` shows it) whose
``meta`` holds the front-end's own metadata (:attr:`Game.meta`) and, under the key
:data:`BOTS_KEY`, every bot's name, seed and state: a bot whose class has ``get_state`` and
``set_state`` (the built-in ones do: their generator and memory) continues after loading
exactly as it would have without the break.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import IO, Any

import attrs

from durak._input import brief
from durak.actions import Action, is_action
from durak.bots import Bot, StatefulBot, bot_names
from durak.cards import Card
from durak.engine import apply_with_events, next_actor
from durak.errors import PositionError, check_seat
from durak.events import Event, events_for
from durak.levels import LEVELS, LevelError, make_player
from durak.messages import message
from durak.moves import parse_move
from durak.records import Record, RecordError, dumps, load, loads, replay
from durak.rules.settings import Rules
from durak.state import GameState, Result
from durak.views import PlayerView, view

__all__ = ["BOTS_KEY", "Game"]

#: The key of a saved game's ``meta`` under which the bots are kept.
BOTS_KEY = "durak.bots"


def _built_in_bot(name: str, seed: int | str | None) -> Bot:
    """:func:`~durak.levels.make_player` for the strength levels and the names of the built-in
    and installed bots only, so that a saved game from elsewhere imports no module it names.

    Raises:
        LevelError: any other name (code ``input.unknown-bot``, the known names listed).
    """
    base = name.partition(":")[0].strip().lower() if isinstance(name, str) else ""
    if base not in bot_names() and base not in LEVELS:
        known = ", ".join([*LEVELS, *bot_names()])
        raise LevelError(message("input.unknown-bot", given=brief(name), known=known))
    return make_player(name, seed)


def _history(data: Any, moves: int, where: str) -> list[list[Any]]:
    """A saved bot's history (``[[ply, state], ...]``, plies rising, each before the last
    position), checked.

    Raises:
        RecordError: it is not such a list (the entry is named).
    """
    if not isinstance(data, list):
        raise RecordError(f"{where}/history", "a list of [ply, state]")
    previous = -1
    for k, item in enumerate(data):
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int):
            raise RecordError(f"{where}/history/{k}", "a pair [ply, state]")
        if not previous < item[0] < moves:
            why = f"ply {item[0]}: not rising within 0-{moves - 1}"
            raise RecordError(f"{where}/history/{k}", why)
        previous = item[0]
    return data


def _restore(bot: Bot, data: Any, where: str) -> None:
    """A saved state given back to its bot (a bot without ``set_state`` keeps none).

    Raises:
        RecordError: the bot refuses it (``where`` names the entry).
    """
    if isinstance(bot, StatefulBot):
        try:
            bot.set_state(data)
        except ValueError as exc:
            raise RecordError(where, str(exc)) from None


def _specs(
    bots: Mapping[int, str] | None, base: int | str
) -> dict[int, tuple[str, int | str | None]]:
    """Each bot's name and seed (made from ``base`` and its seat), by seat.

    Raises:
        TypeError: ``bots`` is not a mapping of seats to names.
    """
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise TypeError(f"bots: a mapping of seats to bot names, not {brief(bots)}")
    items = list(bots.items())
    with contextlib.suppress(TypeError):  # seats that are not numbers: refused by the caller
        items.sort()
    return {seat: (name, f"{base}/{seat}") for seat, name in items}


def _check_players(players: Sequence[str], seats: int) -> tuple[str, ...]:
    """The seats' names as given, checked.

    Raises:
        TypeError: not a sequence of text.
        ValueError: not one name per seat, or a name that is empty or over 64 characters.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players: a name per seat, not {brief(players)}")
    names = tuple(players)
    if len(names) != seats:
        raise ValueError(f"players: {len(names)} names for {seats} seats")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"players: a seat's name is text, not {brief(name)}")
        if not 0 < len(name) <= 64:
            raise ValueError(f"players: a name is 1-64 characters, not {brief(name)}")
    return names


class Game:
    """A game, its moves so far and its bots.

    Args:
        rules: the rules (default :class:`~durak.rules.Rules` ``()``).
        seed: the deal's seed (R2.5); or give ``deck``, the deck order (top card first).
            Neither: seed ``0``.
        bots: bots by seat: a strength level (``"easy"`` ... ``"best"``, :mod:`durak.levels`)
            or a name :func:`~durak.bots.make_bot` knows (``"rule"``, ``"random"``,
            ``"search:playouts=40"``); the other seats are the front-end's.
        bot_seed: the bots' seeds are made from it and their seats (default: the deal's seed).
        players: the seats' names, one per seat (saved with the game: the record's
            ``players``); by default none.
        meta: the front-end's own information, saved with the game (JSON values).

    Raises:
        RulesError, RecordError: a deal the rules cannot make.
        LevelError: an unknown or misspelt bot name (codes ``input.unknown-bot`` and
            ``input.unknown-bot-near``, the nearest name suggested).
        SeatError: a bot's seat that is no seat of the game (code ``seat.no-seat``).
        ValueError: bot options that the bot refuses, or names that are not one per seat.
        TypeError: arguments of the wrong type.
    """

    meta: dict[str, Any]
    """The front-end's own information (JSON values), saved with the game and loaded back."""

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int | str | None = None,
        deck: Iterable[Card | str] | None = None,
        bots: Mapping[int, str] | None = None,
        bot_seed: int | str | None = None,
        players: Sequence[str] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        rules = Rules() if rules is None else rules
        if seed is None and deck is None:
            seed = 0
        record = Record.start(rules, seed=seed, deck=deck)
        if players is not None:
            record = attrs.evolve(record, players=_check_players(players, rules.players))
        base = bot_seed if bot_seed is not None else (seed if seed is not None else 0)
        self._setup(record, _specs(bots, base), dict(meta or {}), make_player)

    def _setup(
        self,
        record: Record,
        specs: Mapping[int, tuple[str, int | str | None]],
        meta: dict[str, Any],
        factory: Callable[[str, int | str | None], Bot],
    ) -> None:
        if BOTS_KEY in meta:
            raise ValueError(f"the metadata key {BOTS_KEY!r} is the game's own")
        self._record = record
        self._states: list[GameState] = [record.initial_state()]
        self._moves: list[Action] = []
        self._events: list[tuple[Event, ...]] = []
        self.meta = meta
        self._specs = dict(specs)
        self._bots: dict[int, Bot] = {}
        for seat, (name, bot_seed) in self._specs.items():
            check_seat(seat, record.rules.players)
            self._bots[seat] = factory(name, bot_seed)
        # The bots' states (of those with get_state and set_state) by seat as each position
        # became current, so that an undo winds them back too; a seat is missing where its
        # bot's state is not known (before the position of a load from an older save).
        self._bot_states: list[dict[int, Any]] = [self._bot_snapshot()]

    def _bot_snapshot(self) -> dict[int, Any]:
        bots = self._bots.items()
        return {seat: bot.get_state() for seat, bot in bots if isinstance(bot, StatefulBot)}

    # -- the position ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._record.rules

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names, one per seat, or ``()`` when none were given."""
        return self._record.players

    def __repr__(self) -> str:
        deal = f"seed={self._record.seed!r}" if self._record.deck is None else "deck=..."
        if self.is_over:
            now = "over"
        else:
            seat = next_actor(self.state)
            now = f"p{seat} to act" if seat is not None else "running"
        bots = {seat: name for seat, (name, _) in self._specs.items()}
        names = f", players={self.players!r}" if self.players else ""
        return (
            f"<Game {self.rules.players} players, {deal}, {len(self._moves)} moves, {now}, "
            f"bots={bots!r}{names}>"
        )

    @property
    def state(self) -> GameState:
        """The position now (the whole truth: give players :meth:`view` instead)."""
        return self._states[-1]

    @property
    def initial(self) -> GameState:
        """The dealt position before the first move."""
        return self._states[0]

    @property
    def moves(self) -> tuple[Action, ...]:
        """The moves so far, in the order played."""
        return tuple(self._moves)

    def states(self) -> tuple[GameState, ...]:
        """The replay: the dealt position, then the position after each move."""
        return tuple(self._states)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.state.result is not None

    @property
    def actor(self) -> int:
        """The seat to ask now (:func:`~durak.engine.next_actor`, R13.2), never ``None``.

        Raises:
            PositionError: the game is over (code ``game.finished``).
        """
        seat = next_actor(self.state)
        if seat is None:
            raise PositionError(message("game.finished"))
        return seat

    def outcome(self) -> Result:
        """The result of the finished game.

        Raises:
            PositionError: the game is still running (code ``game.running``).
        """
        result = self.state.result
        if result is None:
            raise PositionError(message("game.running"))
        return result

    def view(self, player: int | None) -> PlayerView:
        """What ``player`` may see now (``None``: an onlooker)."""
        return view(self.state, player)

    # -- moves ----------------------------------------------------------------------------

    def parse(self, text: str, player: int | None = None) -> Action:
        """The legal action ``text`` means now for ``player`` (default: :attr:`actor`), read by
        :func:`durak.moves.parse_move`, without playing it.

        Raises:
            AmbiguousMoveError: the text names several legal actions.
            IllegalActionError: it names none (why, for the action it most likely means).
            MoveTextError: it is no move.
        """
        return parse_move(text, self.state, player)

    def push(self, move: Action | str, player: int | None = None) -> Action:
        """Play ``move``: an action, or text a player typed (read by :meth:`parse` for
        ``player``). Returns the action played.

        Raises:
            IllegalActionError: the action is not legal now (the game is unchanged).
            AmbiguousMoveError, MoveTextError: text that names no single legal action.
            TypeError: ``move`` is neither an action nor text.
        """
        if isinstance(move, str):
            action = self.parse(move, player)
        elif is_action(move):
            action = move
        else:
            raise TypeError(f"a move is an action or text, not {type(move).__name__}")
        self._advance(action)
        self._bot_states.append(self._bot_snapshot())
        return action

    def _advance(self, action: Action) -> None:
        """Play ``action`` onto the history: its position, the move and its events."""
        state, events = apply_with_events(self.state, action)
        self._states.append(state)
        self._moves.append(action)
        self._events.append(events)

    def pop(self) -> Action:
        """Undo the last move and return it. The bots are wound back too (their generators and
        memories, where they have ``get_state`` and ``set_state`` as the built-in ones do): as
        they were when the position returned to was first reached, so pushing the same moves
        again gets the same answers. Past the position a game was loaded at, their earlier
        states are not known, and they stay as they are.

        Raises:
            PositionError: there is no move to undo (code ``game.nothing-to-undo``).
        """
        if not self._moves:
            raise PositionError(message("game.nothing-to-undo"))
        self._states.pop()
        self._events.pop()
        self._bot_states.pop()
        for seat, data in self._bot_states[-1].items():
            bot = self._bots[seat]
            assert isinstance(bot, StatefulBot)  # only such bots are in a snapshot
            bot.set_state(data)
        return self._moves.pop()

    def events(self, player: int | None = None, move: int = -1) -> tuple[Event, ...]:
        """What happened in a move (default: the last), in order, as ``player`` may learn it
        (:func:`~durak.events.events_for`: another seat's drawn cards hidden; ``None``: an
        onlooker), so a front-end needs no second engine call to say or animate it. The
        move's index counts as :attr:`moves` does (``-1``: the last).

        Raises:
            IndexError: there is no such move (before the first move the last move's events
                are ``()``).
            SeatError: ``player`` is no seat of the game.
        """
        if player is not None:
            check_seat(player, self.rules.players)
        if not self._events and move == -1:
            return ()
        return events_for(self._events[move], player)

    # -- bots -----------------------------------------------------------------------------

    @property
    def bots(self) -> Mapping[int, Bot]:
        """The bots by seat."""
        return dict(self._bots)

    def bot_move(self) -> Action | None:
        """If a bot is to act now (:attr:`actor`), ask it and play its choice; ``None`` when the
        game is over or the seat to act is not a bot's."""
        if self.is_over:
            return None
        seat = self.actor
        bot = self._bots.get(seat)
        if bot is None:
            return None
        return self.push(bot.choose(self.view(seat)))

    def play_bots(self) -> list[Action]:
        """Let the bots play until a seat without a bot is to act or the game is over; the
        actions they played."""
        played: list[Action] = []
        while (action := self.bot_move()) is not None:
            played.append(action)
        return played

    # -- records and JSON -----------------------------------------------------------------

    def record(self) -> Record:
        """The game as a record (:mod:`durak.records`): its deal, moves, result, and in its
        ``meta`` the front-end's metadata and the bots."""
        bots = {}
        for seat, (name, seed) in self._specs.items():
            bot = self._bots[seat]
            bots[str(seat)] = {
                "name": name,
                "seed": seed,
                "state": bot.get_state() if isinstance(bot, StatefulBot) else None,
                "history": self._bot_history(seat),
            }
        meta = dict(self.meta)
        if bots:
            meta[BOTS_KEY] = bots
        record = Record(
            rules=self._record.rules,
            seed=self._record.seed,
            deck=self._record.deck,
            dealer=self._record.dealer,
            attacker=self._record.attacker,
            actions=tuple(self._moves),
            players=self._record.players,
            meta=meta,
        )
        return record.finish(self.state)

    def _bot_history(self, seat: int) -> list[list[Any]]:
        """The bot's states before the last position, as ``[ply, state]`` where they changed
        (the plies of :attr:`moves`: 0 is the dealt position), so that an undo after a load
        winds the bot back as well."""
        history: list[list[Any]] = []
        last: Any = None
        for ply, snapshot in enumerate(self._bot_states[:-1]):
            if seat in snapshot and (not history or snapshot[seat] != last):
                history.append([ply, snapshot[seat]])
                last = snapshot[seat]
        return history

    @classmethod
    def from_record(
        cls,
        record: Record,
        make_bot: Callable[[str, int | str | None], Bot] | None = None,
        *,
        bots: Mapping[int, str] | None = None,
        bot_seed: int | str | None = None,
    ) -> Game:
        """The game a record holds, its moves replayed (each checked) and its bots made again
        from the names, seeds and states saved in ``meta`` (:data:`BOTS_KEY`).

        Args:
            record: the record (one of :meth:`record`, of ``durak play --save``, or of another
                program).
            make_bot: makes a bot from a name and a seed; by default only the strength levels
                and the built-in and installed bots' names are accepted (a file does not choose
                what is imported).
            bots: bots to seat now, by seat, as :class:`Game` takes them (for a record that has
                none, or more seats to fill); they join at the position reached, fresh.
            bot_seed: their seeds are made from it and their seats (default: the record's
                seed).

        Raises:
            ReplayError: a move of the record is not legal.
            RecordError: the bots' entry is malformed, or names a bot that cannot be made or
                whose state it refuses.
            ValueError: ``bots`` seats a bot where the record already has one (the seat is
                named), or names a bot that cannot be made (as :class:`Game`).
            TypeError: ``record`` is not a record.
        """
        if not isinstance(record, Record):
            raise TypeError(f"expected a Record, not {type(record).__name__}")
        replay(record)
        meta = dict(record.meta)
        saved = meta.pop(BOTS_KEY, {})
        if not isinstance(saved, dict):
            raise RecordError(f"meta/{BOTS_KEY}", "the bots are an object by seat")
        specs: dict[int, tuple[str, int | str | None]] = {}
        states: dict[int, Any] = {}
        histories: dict[int, list[list[Any]]] = {}
        for key, entry in saved.items():
            where = f"meta/{BOTS_KEY}/{key}"
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 7):
                raise RecordError(where, "a bot's key is its seat number")
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise RecordError(where, "a bot is an object with a name, a seed and a state")
            seed = entry.get("seed")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
                raise RecordError(f"{where}/seed", "a seed is an integer or text")
            specs[int(key)] = (entry["name"], seed)
            states[int(key)] = entry.get("state")
            histories[int(key)] = _history(entry.get("history", []), len(record.actions), where)
        game = cls.__new__(cls)
        try:
            game._setup(record, specs, meta, make_bot or _built_in_bot)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"meta/{BOTS_KEY}", str(exc)) from None
        if bots:
            base = bot_seed if bot_seed is not None else record.seed
            for seat, spec in _specs(bots, base if base is not None else 0).items():
                if seat in game._specs:
                    raise ValueError(f"bots: seat {seat} already has the record's bot")
                check_seat(seat, record.rules.players)
                game._bots[seat] = (make_bot or make_player)(*spec)
                game._specs[seat] = spec
        for action in record.actions:  # checked by replay() above
            game._advance(action)
        # The bots' states before the position loaded, as saved (each until it changed), each
        # one checked by the bot; then the state at the position loaded.
        known: list[dict[int, Any]] = [{} for _ in record.actions]
        for seat, history in histories.items():
            bot = game._bots[seat]
            for k, (ply, data) in enumerate(history):
                _restore(bot, data, f"meta/{BOTS_KEY}/{seat}/history/{ply}")
                end = history[k + 1][0] if k + 1 < len(history) else len(record.actions)
                for at in range(ply, end):
                    known[at][seat] = data
        for seat, data in states.items():
            if data is not None:
                _restore(game._bots[seat], data, f"meta/{BOTS_KEY}/{seat}/state")
        game._bot_states = [*known, game._bot_snapshot()]
        return game

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON values: :meth:`record`'s (valid against the record schema)."""
        return self.record().to_dict()

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """The game :meth:`to_dict` gave (see :meth:`from_record`).

        Raises:
            RecordError, ReplayError: as :meth:`durak.records.Record.from_dict` and
                :meth:`from_record`.
        """
        return cls.from_record(Record.from_dict(data))

    def dumps(self) -> str:
        """The game as JSON text."""
        return dumps(self.record())

    @classmethod
    def loads(cls, text: str | bytes) -> Game:
        """The game :meth:`dumps` gave, under the limits of :func:`durak.records.loads`.

        Raises:
            RecordError, ReplayError: as :func:`durak.records.loads` and :meth:`from_record`.
        """
        return cls.from_record(loads(text))

    def save(self, file: str | PathLike[str] | IO[str]) -> None:
        """Write the game as JSON to a path or an open text file.

        Raises:
            OSError: the file cannot be written.
        """
        text = self.dumps()
        if isinstance(file, str | PathLike):
            Path(file).write_text(text, encoding="utf-8")
        else:
            file.write(text)

    @classmethod
    def load(cls, file: str | PathLike[str] | IO[str]) -> Game:
        """The game saved in a file, under the limits of :func:`durak.records.load`.

        Raises:
            RecordError, ReplayError: as :func:`durak.records.load` and :meth:`from_record`.
        """
        return cls.from_record(load(Path(file) if isinstance(file, PathLike) else file))
