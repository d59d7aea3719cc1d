"""The OpenSpiel game ``python_durak`` (extra ``openspiel``:
``pip install 'durak-engine[openspiel]'``).

Importing this module registers the game with ``pyspiel``:

>>> import pyspiel
>>> import durak.rl.openspiel_game
>>> game = pyspiel.load_game("python_durak", {"players": 3, "rules": '{"deck_size": 24}'})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 243, 24)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)

Parameters
----------
- ``preset`` (string, default ``"podkidnoy"``): a preset name or alias (R14).
- ``players`` (int, default 0: the preset's own number, 2 unless the preset says otherwise).
- ``rules`` (string, default ``"{}"``): a JSON object of settings that replace the preset's,
  e.g. ``'{"deck_size": 52, "transfer_by_card": true}'``.
- ``max_game_length`` (int, default 2000): the most moves a game may take, chance moves (the
  deal) included. A Durak game need not end (players can take forever), so a game that reaches
  it ends as a draw (every return 0). Random games of every preset take under 400 player moves.

Every preset plays, several-card leads and transfers included (their groups have ids of their
own, :mod:`durak.rl.encoding`). Rejected (:class:`~durak.rl.encoding.UnsupportedRulesError`) are
the rules :func:`~durak.rl.encoding.check_supported` refuses (a deck with cards outside the 52,
an action kind without a codec), and ``misdeal_suit_count`` (R12.2): the engine
gives no redeal for a game dealt from an explicit deck order, which is how this game deals
(below).

Game facts
----------
- Sequential, imperfect information, terminal rewards: every winner +1, every loser -1, everyone
  0 in a draw (R7.3, R7.4; with teams a player's result is his team's, R10.3). Utility: zero-sum
  for two players without teams under ``objective = durak``; general-sum otherwise (under
  ``first_out`` several players may win at once).
- Actions: the ids of :mod:`durak.rl.encoding`, ``num_distinct_actions = 3 + N * (S + 4)``
  (plus the segments of plug-in kinds' codecs, :func:`~durak.rl.encoding.register_codec`).
  :meth:`DurakState.legal_actions` is sorted and empty for everyone but the current player.
- ``current_player()`` is :func:`durak.next_actor` (R13.2): the defender while he faces an
  unbeaten card and has not taken, else the main attacker, else the other throwers clockwise.

Chance: the deal is explicit
----------------------------
The game starts with ``N`` chance nodes (``chance_mode = EXPLICIT_STOCHASTIC``): chance node
``k`` picks the ``k``-th card of the deck order (top card first) uniformly among the cards not
yet picked, so the outcome of node ``k`` is a card index (:func:`~durak.rl.encoding.card_index`,
``max_chance_outcomes = N``) with probability ``1 / (N - k)``, and every order of the deck has
probability ``1 / N!``, as a real shuffle. The order is then dealt by :func:`durak.new_game`
(``deck=...``, R2.3; the dealer is seat ``n - 1``). Under ``no_trump_lead = redeal`` a deal in
which nobody holds a trump is followed by ``N`` new chance nodes: a fresh shuffle (R3.3). This
costs ``N`` chance moves (36 by default) instead of one node with ``N!`` outcomes, and keeps the
distribution exact; samplers such as MCCFR's outcome sampling handle it as usual.

Observations
------------
- ``observation_tensor(player)``: :func:`durak.rl.encoding.observation` of
  ``view(state, player)``; layout :func:`durak.rl.encoding.observation_layout` (867 floats for two
  players and 36 cards). All zero during the deal.
- ``information_state_tensor(player)``: the observation tensor followed by a ``played`` piece of
  shape ``(n, N)``: the cards each relative seat (row 0 is the player) has put on the table in
  this game (what each kind's codec says its actions put there:
  :func:`~durak.rl.encoding.table_cards`). It summarises the history; it is not a
  perfect-recall encoding.
- ``information_state_string(player)``: perfect recall: the player's own deal (his hand and the
  public facts of the deal, R2.4, R3.1), then every action in order (all actions are public in
  Durak) with the draws as he saw them (his own cards, the others' counts, the face-up trump card,
  R5.2), one line each (:func:`durak.events.events_for`).
- ``observation_string(player)``: a line of text of the same view as the observation tensor.

Observers (``make_py_observer``) keep this layout for every observation type and zero what the
type leaves out: ``private_info=PrivateInfoType.NONE`` gives the public observation (the
player's hand, exchange rights and unseen cards, :data:`PRIVATE_PIECES`, zeroed; for the
information state, the public draw history); ``public_info=False`` with
``PrivateInfoType.SINGLE_PLAYER`` gives the private observation (only those pieces, and the
string ``"p0: hand ...; exchange ..."``). So OpenSpiel's ``generate_playthrough`` runs;
``tests/openspiel_playthroughs/`` keeps one per preset. Refused: every player's private
information, and an information state without public information.

Sampling worlds, ISMCTS
-----------------------
:meth:`DurakState.resample_from_infostate` deals the hidden cards anew through
:func:`durak.views.determinize` (what play has made public stays: R4.9), so
``ismcts.ISMCTSBot`` and the other algorithms that sample from an information state run. Such
bots search afresh at each move and define no ``restart_at``; :class:`Restartable` adds it, so
``evaluate_bots.evaluate_bots`` plays them. :class:`LibraryBot` plays the library's own bots
(``"rule"``, ``"search:time_limit=0.05"``) as OpenSpiel bots::

    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
    game = pyspiel.load_game("python_durak")
    rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    ismcts_bot = Restartable(ismcts.ISMCTSBot(game, rollouts, 2.0, max_simulations=100))
    evaluate_bots.evaluate_bots(
        game.new_initial_state(), [ismcts_bot, LibraryBot("search")], np.random.RandomState(1)
    )

``benchmarks/bench_openspiel.py`` plays ISMCTS against the search bot, each with its own budget
per move.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from durak._input import DuplicateKeyError, unique_object
from durak.bots import make_bot
from durak.cards import Card, format_cards
from durak.engine import apply_with_events, new_game, next_actor
from durak.errors import RulesError
from durak.events import Drew, events_for
from durak.presets import get_preset
from durak.rl.encoding import (
    Piece,
    UnsupportedRulesError,
    action_space_size,
    card_index,
    check_supported,
    decode,
    describe,
    encode,
    index_card,
    legal_ids,
    observation,
    observation_layout,
    observation_size,
    table_cards,
)
from durak.rules.settings import NoTrumpLead, Objective, Rules
from durak.state import GameState
from durak.views import PlayerView, determinize, view

__all__ = [
    "GAME_NAME",
    "PRIVATE_PIECES",
    "DurakGame",
    "DurakObserver",
    "DurakState",
    "LibraryBot",
    "Restartable",
    "game_rules",
]

#: The name the game is registered under.
GAME_NAME = "python_durak"

_DEFAULTS: dict[str, Any] = {
    "preset": "podkidnoy",
    "players": 0,
    "rules": "{}",
    "max_game_length": 2000,
}

_MAX_PLAYERS = 16

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Durak",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def game_rules(params: dict[str, Any] | None = None) -> Rules:
    """The :class:`~durak.Rules` that the game parameters ``preset``, ``players`` and ``rules``
    give (see the module docs).

    Raises:
        RulesError: an unknown preset or setting, an invalid value, or ``rules`` that is not a
            JSON object.
        UnsupportedRulesError: rules the game cannot play (see the module docs).
    """
    merged = {**_DEFAULTS, **(params or {})}
    try:
        overrides = json.loads(merged["rules"], object_pairs_hook=unique_object)
    except (TypeError, json.JSONDecodeError, DuplicateKeyError) as exc:
        raise RulesError("rules", f"must be a JSON object of settings: {exc}") from None
    if not isinstance(overrides, dict):
        raise RulesError("rules", f"must be a JSON object of settings, not {merged['rules']!r}")
    if merged["players"]:
        overrides = {"players": merged["players"], **overrides}
    rules = get_preset(merged["preset"]).rules(**overrides)
    check_supported(rules)
    if rules.misdeal_suit_count is not None:
        raise UnsupportedRulesError(
            "misdeal_suit_count",
            "the OpenSpiel game deals from an explicit deck order, which gives no misdeal "
            "redeal (R12.2)",
        )
    if rules.players > _MAX_PLAYERS:
        raise RulesError("players", f"the OpenSpiel game takes at most {_MAX_PLAYERS} players")
    return rules


class DurakGame(pyspiel.Game):
    """The OpenSpiel game ``python_durak`` (see the module docs).

    Attributes:
        rules: the rules played.
        length: the ``max_game_length`` parameter.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        rules = game_rules(merged)
        length = int(merged["max_game_length"])
        if length <= rules.cards:
            raise RulesError(
                "max_game_length", f"must exceed the {rules.cards} chance moves of the deal"
            )
        # Two players under objective = durak: one wins and one loses, or a draw. Under
        # first_out both may go out at once and both win (R7.3).
        zero_sum = rules.players == 2 and rules.teams is None and rules.objective is Objective.DURAK
        game_type = pyspiel.GameType(
            short_name=_GAME_TYPE.short_name,
            long_name=_GAME_TYPE.long_name,
            dynamics=_GAME_TYPE.dynamics,
            chance_mode=_GAME_TYPE.chance_mode,
            information=_GAME_TYPE.information,
            utility=(
                pyspiel.GameType.Utility.ZERO_SUM
                if zero_sum
                else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            reward_model=_GAME_TYPE.reward_model,
            max_num_players=_GAME_TYPE.max_num_players,
            min_num_players=_GAME_TYPE.min_num_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=_DEFAULTS,
        )
        game_info = pyspiel.GameInfo(
            num_distinct_actions=action_space_size(rules),
            max_chance_outcomes=rules.cards,
            num_players=rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length,
        )
        super().__init__(game_type, game_info, params or {})
        self.rules = rules
        self.length = length

    def new_initial_state(self) -> DurakState:
        """The state before the deal: the first of ``N`` chance nodes."""
        return DurakState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DurakObserver:
        """An observer for ``iig_obs_type`` (default: the observation; ``perfect_recall``: the
        information state)."""
        return DurakObserver(self.rules, iig_obs_type, params)


class _Log:
    """The lines of every seat's information state string (the onlooker last), as a chain:
    a node holds either every seat's lines outright (``fixed``) or one action and its events,
    formatted only when a string is asked for (rollouts never ask), then kept.

    Immutable once made, so states and their clones share it."""

    __slots__ = ("_cache", "action", "events", "fixed", "parent")

    def __init__(
        self,
        parent: _Log | None = None,
        fixed: tuple[tuple[str, ...], ...] | None = None,
        action: Any = None,
        events: tuple[Any, ...] = (),
    ) -> None:
        self.parent = parent
        self.fixed = fixed
        self.action = action
        self.events = events
        self._cache: dict[int, tuple[str, ...]] = {}

    def _own(self, k: int, seats: int) -> tuple[str, ...]:
        if self.fixed is not None:
            return self.fixed[k]
        lines = [str(self.action)]
        for event in events_for(self.events, k if k < seats else None):
            if isinstance(event, Drew):
                drawn = format_cards(event.cards) if event.cards is not None else "?"
                face_up = f", face-up {event.face_up}" if event.face_up is not None else ""
                lines.append(f"  p{event.player} drew {event.count}: {drawn}{face_up}")
        return tuple(lines)

    def lines(self, k: int, seats: int) -> tuple[str, ...]:
        """Seat ``k``'s lines (``k == seats``: the onlooker's), oldest first."""
        chain: list[_Log] = []
        node: _Log | None = self
        while node is not None and k not in node._cache:
            chain.append(node)
            node = node.parent
        lines = node._cache[k] if node is not None else ()
        for step in reversed(chain):
            lines = (*lines, *step._own(k, seats))
            step._cache[k] = lines
        return lines


@attrs.frozen
class _Core:
    """Everything a :class:`DurakState` holds, immutable so that cloning shares it.

    Attributes:
        rules: the rules.
        limit: ``max_game_length``.
        order: card indices picked so far by the chance nodes of the current deal.
        game: the engine's state once dealt.
        logs: the lines of the information state strings (:class:`_Log`), ``None`` before
            the first deal.
        played: per seat, the cards he has put on the table in this game.
        actor: :func:`durak.next_actor` of ``game`` (computed once per state).
        moves: moves so far, chance moves included.
        truncated: whether the game reached ``limit`` before its end (a draw).
    """

    rules: Rules
    limit: int
    order: tuple[int, ...] = ()
    game: GameState | None = None
    logs: _Log | None = attrs.field(default=None, eq=False)
    played: tuple[frozenset[Card], ...] = ()
    moves: int = 0
    truncated: bool = False
    actor: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    @property
    def over(self) -> bool:
        return self.truncated or (self.game is not None and self.game.result is not None)


def _deal_lines(game: GameState, seat: int | None) -> tuple[str, ...]:
    """The first lines of a seat's information state: what the deal showed him."""
    v = view(game, seat)
    known = " / ".join(format_cards(sorted(cards)) or "-" for cards in v.known)
    who = f"p{seat}" if seat is not None else "onlooker"
    hand = f" hand {format_cards(v.hand)};" if seat is not None else ""
    return (
        f"{who}:{hand} trump {v.trump_card or v.trump.letter}; known {known}; "
        f"attacker p{v.attacker}, defender p{v.defender}",
    )


class DurakState(pyspiel.State):
    """A state of ``python_durak``: the deal's chance nodes, then the engine's
    :class:`~durak.GameState` (see the module docs)."""

    def __init__(self, game: DurakGame) -> None:
        super().__init__(game)
        self._core = _Core(rules=game.rules, limit=game.length)

    @property
    def game_state(self) -> GameState | None:
        """The engine's state, ``None`` during the deal."""
        return self._core.game

    # -- players and actions -----------------------------------------------------------------

    def current_player(self) -> int:
        """The chance player during the deal, then :func:`durak.next_actor` (R13.2), then the
        terminal player id."""
        core = self._core
        if core.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if core.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        assert core.actor is not None
        return core.actor

    def _legal_actions(self, player: int) -> list[int]:
        """``player``'s legal action ids, sorted; empty unless he is the current player."""
        core = self._core
        if core.over:
            return []
        if core.game is None:
            return [a for a, _ in self.chance_outcomes()] if player < 0 else []
        if player != core.actor:
            return []
        return legal_ids(core.game, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet in the deck order, each with the same probability."""
        core = self._core
        if core.game is not None or core.over:
            return []
        used = set(core.order)
        left = [i for i in range(core.rules.cards) if i not in used]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.game is None:
            self._core = self._chance(core, int(action))
        else:
            self._core = self._play(core, int(action))

    def _chance(self, core: _Core, index: int) -> _Core:
        rules = core.rules
        if index in core.order or not 0 <= index < rules.cards:
            raise ValueError(f"card index {index} is not a chance outcome now")
        order = (*core.order, index)
        moves = core.moves + 1
        truncated = moves >= core.limit
        if len(order) < rules.cards:
            return attrs.evolve(core, order=order, moves=moves, truncated=truncated)
        deck = [index_card(i, rules) for i in order]
        try:
            game = new_game(rules, deck=deck)
        except RulesError as exc:
            if exc.setting != "no_trump_lead" or rules.no_trump_lead is not NoTrumpLead.REDEAL:
                raise
            # R3.3: nobody holds a trump: each player saw his hand; the dealer shuffles anew.
            shown = new_game(rules.replace(no_trump_lead=NoTrumpLead.DEALER_LEFT), deck=deck)
            redeal = tuple(
                (f"dealt {format_cards(shown.hands[seat])}; no trump held: redeal",)
                if seat < rules.players
                else ("no trump held: redeal",)
                for seat in range(rules.players + 1)
            )
            logs = _Log(core.logs, fixed=redeal)
            return attrs.evolve(core, order=(), logs=logs, moves=moves, truncated=truncated)
        seats: list[int | None] = [*range(rules.players), None]
        deal = tuple(_deal_lines(game, seat) for seat in seats)
        return attrs.evolve(
            core,
            order=order,
            game=game,
            actor=next_actor(game),
            logs=_Log(core.logs, fixed=deal),
            played=tuple(frozenset() for _ in range(rules.players)),
            moves=moves,
            truncated=truncated and game.result is None,
        )

    def _play(self, core: _Core, index: int) -> _Core:
        game = core.game
        assert game is not None
        player = core.actor
        assert player is not None
        action = decode(index, game, player)
        new, events = apply_with_events(game, action)
        played = core.played
        cards = table_cards(action)
        if cards:
            played = (*played[:player], played[player] | set(cards), *played[player + 1 :])
        moves = core.moves + 1
        return attrs.evolve(
            core,
            game=new,
            actor=next_actor(new),
            logs=_Log(core.logs, action=action, events=tuple(events)),
            played=played,
            moves=moves,
            truncated=new.result is None and moves >= core.limit,
        )

    def _action_to_string(self, player: int, action: int) -> str:
        rules = self._core.rules
        if player < 0:
            return f"deal {index_card(int(action), rules)}"
        return f"p{player} {describe(int(action), rules)}"

    # -- the end -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the game ended (R7.3) or reached ``max_game_length``."""
        return self._core.over

    def returns(self) -> list[float]:
        """+1 per winner, -1 per loser once the game is over; 0 for all in a draw, after a
        truncation and before the end."""
        core = self._core
        n = core.rules.players
        result = core.game.result if core.game is not None else None
        if result is None or result.draw:
            return [0.0] * n
        return [1.0 if p in result.winners else -1.0 for p in range(n)]

    # -- sampling the hidden cards --------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DurakState:
        """A state that ``player_id`` cannot tell from this one: the same information state
        string and tensor, the hidden cards (the other hands' unknown cards and the stock below
        the face-up card) dealt anew at random by :func:`durak.views.determinize`, which keeps
        what play has made public (R4.9). For ISMCTS and the other algorithms that sample
        worlds from an information state.

        Args:
            player_id: the seat whose information state is kept.
            probability_sampler: a callable returning uniform floats in ``[0, 1)``, e.g.
                ``pyspiel.UniformProbabilitySampler(0.0, 1.0)``; it seeds the draw, so a seeded
                sampler gives reproducible samples.

        The other seats' information state strings in the sample are the public history
        followed by their sampled hand (their real past draws are not reconstructed), so each
        sampled hand is an information state of its own. During the deal the picked cards are
        replaced by a random pick of the same length; a terminal state is returned as a clone.

        Raises:
            ValueError: ``player_id`` is not a seat.
        """
        core = self._core
        rules = core.rules
        if not 0 <= player_id < rules.players:
            raise ValueError(f"player {player_id} is not a seat 0-{rules.players - 1}")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        out = DurakState(self.get_game())
        if core.over:
            out._core = core
            return out
        if core.game is None:
            picked = tuple(rng.sample(range(rules.cards), len(core.order)))
            out._core = attrs.evolve(core, order=picked)
            return out
        world = determinize(view(core.game, player_id), rng)
        n = rules.players
        assert core.logs is not None
        public = core.logs.lines(n, n)
        logs = tuple(
            core.logs.lines(k, n)
            if k in (player_id, n)
            else (*public, f"sampled hand {format_cards(world.hands[k]) or '-'}")
            for k in range(n + 1)
        )
        out._core = attrs.evolve(
            core, order=(), game=world, logs=_Log(fixed=logs), actor=next_actor(world)
        )
        return out

    def __str__(self) -> str:
        """The whole state, every hand and the stock order included."""
        core = self._core
        game = core.game
        if game is None:
            cards = format_cards(index_card(i, core.rules) for i in core.order)
            return f"dealing: {cards or '-'} (move {core.moves})"
        lines = [
            f"move {core.moves}{' truncated' if core.truncated else ''}; "
            f"trump {game.trump.letter} ({game.trump_card or '-'}); bouts {game.bouts}",
            f"stock: {format_cards(game.stock) or '-'}",
        ]
        for seat, hand in enumerate(game.hands):
            known = format_cards(sorted(game.known[seat])) if game.known else ""
            lines.append(
                f"p{seat}: {format_cards(hand) or '-'}; known {known or '-'}; "
                f"place {game.places[seat]}"
            )
        table = " ".join(f"{a}/{b or '--'}" for a, b in game.table)
        lines.append(
            f"attacker p{game.attacker}, defender p{game.defender}, leader p{game.leader}; "
            f"table {table or '-'}; taken {game.taken}; passed {sorted(game.passed)}; "
            f"shown {format_cards(sorted(game.shown)) or '-'}; "
            f"exchange {format_cards(sorted(game.exchange)) or '-'}"
        )
        lines.append(f"discard: {format_cards(game.discard) or '-'}")
        if game.result is not None:
            lines.append(f"result: {game.result}")
        return "\n".join(lines)


#: The pieces of the observation tensor that only the player knows: the rest is public.
PRIVATE_PIECES = frozenset({"hand", "exchange", "unseen"})


class DurakObserver:
    """The observer ``pyspiel`` asks for tensors and strings (``make_py_observer``).

    Every observer has the same tensor layout (:func:`~durak.rl.encoding.observation_layout`,
    plus ``played`` for the information state); one without private information zeroes
    :data:`PRIVATE_PIECES`, one without public information zeroes every other piece.

    Attributes:
        tensor: the flat ``float32`` tensor that :meth:`set_from` fills.
        dict: the pieces of ``tensor`` by name, reshaped (views of the same memory).
        public: whether it shows public information.
        private: whether it shows the player's private information.

    Raises:
        ValueError: an observation type it does not provide (all players' private
            information, or an information state without public information) or observer
            parameters.
    """

    def __init__(self, rules: Rules, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_durak observers take no parameters, not {params!r}")
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = (
            pyspiel.PrivateInfoType.SINGLE_PLAYER
            if iig_obs_type is None
            else iig_obs_type.private_info
        )
        self.public = iig_obs_type is None or bool(iig_obs_type.public_info)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_durak gives no observation of every player's hand")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not self.public and self.perfect_recall:
            raise ValueError(
                "python_durak gives no information state without public information: every "
                "action is public, so the history is"
            )
        pieces = list(observation_layout(rules))
        self._obs_size = observation_size(rules)
        if self.perfect_recall:
            pieces.append(
                Piece(
                    "played",
                    self._obs_size,
                    (rules.players, rules.cards),
                    "cards each relative seat has put on the table in this game",
                )
            )
        self.pieces = tuple(pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(pieces[-1].end, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            p.name: self.tensor[p.offset : p.end].reshape(p.shape) for p in pieces
        }

    def set_from(self, state: DurakState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        self.tensor.fill(0.0)
        core = state._core
        game = core.game
        if game is None:
            return
        observation(view(game, player), out=self.tensor[: self._obs_size])
        for name, piece in self.dict.items():
            if (name in PRIVATE_PIECES and not self.private) or (
                name not in PRIVATE_PIECES and not self.public
            ):
                piece.fill(0.0)
        if self.perfect_recall:
            played = self.dict["played"]
            n = core.rules.players
            for k in range(n):
                cards = [card_index(card, core.rules) for card in core.played[(player + k) % n]]
                if cards:
                    played[k, cards] = 1.0

    def string_from(self, state: DurakState, player: int) -> str:
        """The information state string (perfect recall) or the observation string."""
        core = state._core
        if self.perfect_recall:
            who = player if self.private else core.rules.players
            n = core.rules.players
            lines = core.logs.lines(who, n) if core.logs is not None else ()
            head = f"p{player}" if self.private else f"p{player} (public)"
            return "\n".join((head, *lines)) if lines else f"{head}: dealing"
        if core.game is None:
            return f"p{player}: dealing"
        v = view(core.game, player)
        if not self.public:
            hand = format_cards(v.hand) or "-"
            return f"p{player}: hand {hand}; exchange {format_cards(sorted(v.exchange)) or '-'}"
        return _view_text(v, self.private)


def _view_text(v: PlayerView, private: bool) -> str:
    table = " ".join(f"{a}/{b or '--'}" for a, b in v.table)
    known = " / ".join(format_cards(sorted(cards)) or "-" for cards in v.known)
    hand = f"hand {format_cards(v.hand) or '-'}; " if private else ""
    return (
        f"p{v.player}: {hand}sizes {list(v.hand_sizes)}; known {known}; table {table or '-'}"
        f"{' taken' if v.taken else ''}; trump {v.trump_card or v.trump.letter}; "
        f"stock {v.stock_size}; discard {len(v.discard)}; attacker p{v.attacker}, "
        f"defender p{v.defender}; passed {sorted(v.passed)}; done {sorted(v.done)}"
    )


# --------------------------------------------------------------------------------------------
# Bots
# --------------------------------------------------------------------------------------------


class LibraryBot(pyspiel.Bot):
    """One of the library's bots (:func:`durak.bots.make_bot`) as an OpenSpiel bot, for
    ``evaluate_bots`` and the other OpenSpiel tools that take ``pyspiel.Bot`` objects.

    The bot sees only ``view(state, player)`` (R13), as in the library's own tournaments.

    Args:
        name: a bot name with options, e.g. ``"search:time_limit=0.05"``.
        seed: seeds the bot; :meth:`restart_at` makes it anew with the same seed.

    Raises:
        ValueError: an unknown bot name or option.
    """

    def __init__(self, name: str, seed: int | str | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.name = name
        self.seed = seed
        self.bot = make_bot(name, seed)

    def step(self, state: DurakState) -> int:
        """The bot's action id for the current player of ``state``.

        Raises:
            ValueError: ``state`` is a chance node or terminal.
        """
        game = state.game_state
        player = state.current_player()
        if game is None or player < 0:
            raise ValueError("a library bot acts only at a player's turn, not at chance nodes")
        return encode(self.bot.choose(view(game, player)), game)

    def restart_at(self, state: DurakState) -> None:
        """Start afresh (a new game): the bot is made again with its seed."""
        self.bot = make_bot(self.name, self.seed)

    def inform_action(self, state: DurakState, player_id: int, action: int) -> None:
        """Nothing: the bot reads the whole view at its turn."""

    def provides_force_action(self) -> bool:
        """No."""
        return False


class Restartable(pyspiel.Bot):
    """An OpenSpiel bot that searches afresh at every move (``ismcts.ISMCTSBot``,
    ``mcts.MCTSBot``), given the ``restart_at`` and ``inform_action`` that
    ``evaluate_bots.evaluate_bots`` calls and such bots do not define (OpenSpiel's default
    raises "RestartAt not implemented").

    >>> from open_spiel.python.algorithms import ismcts, mcts
    >>> game = pyspiel.load_game(GAME_NAME, {"rules": '{"deck_size": 24}'})
    >>> rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    >>> bot = Restartable(ismcts.ISMCTSBot(game, rollouts, 2.0, max_simulations=5))

    Args:
        bot: the bot to play; its ``step`` is called at each of its turns.
    """

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: Any) -> int:
        """The wrapped bot's action."""
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        """Nothing: the wrapped bot keeps no state between moves."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing: the wrapped bot keeps no state between moves."""


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, DurakGame)
