"""durak: the card game Durak as an immutable rules engine.

>>> from durak import Rules, new_game, legal_actions, apply
>>> state = new_game(Rules(players=3), seed=1)
>>> state.players, len(state.hands[0]), len(state.stock)
(3, 6, 18)
"""

from importlib.machinery import EXTENSION_SUFFIXES as _EXTENSION_SUFFIXES

from durak import _step
from durak.actions import (
    Action,
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import (
    DECK_SIZES,
    Card,
    Rank,
    Suit,
    build_deck,
    format_cards,
    hand_order,
    parse_cards,
)
from durak.engine import (
    acting,
    apply,
    apply_with_events,
    attack_limit,
    check,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    shuffled_deck,
    validate_state,
)
from durak.errors import (
    DurakError,
    IllegalActionError,
    InvalidCardError,
    InvalidError,
    PositionError,
    RulesError,
    SeatError,
)
from durak.game import Game
from durak.levels import LEVELS, Level, LevelError, make_level_bot
from durak.moves import AmbiguousMoveError, MoveTextError, parse_action, parse_move
from durak.rules import Rules
from durak.state import GameState, Result
from durak.views import PlayerView, view

__version__ = "0.1.0"

#: Whether this installation runs the optional compiled build of the engine's step (installed
#: with ``DURAK_COMPILE=1``; docs/performance.md): ``False`` for the pure-Python build. Both
#: builds play the same games and give the same errors.
compiled: bool = (_step.__file__ or "").endswith(tuple(_EXTENSION_SUFFIXES))

__all__ = [
    "DECK_SIZES",
    "LEVELS",
    "Action",
    "AmbiguousMoveError",
    "Beat",
    "Card",
    "DurakError",
    "ExchangeTrump",
    "Game",
    "GameState",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidError",
    "Lead",
    "Level",
    "LevelError",
    "MoveTextError",
    "Pass",
    "PlayerView",
    "PositionError",
    "Rank",
    "Redeal",
    "Result",
    "Rules",
    "RulesError",
    "SeatError",
    "ShowTrump",
    "Suit",
    "Take",
    "ThrowIn",
    "Transfer",
    "__version__",
    "acting",
    "apply",
    "apply_with_events",
    "attack_limit",
    "build_deck",
    "check",
    "compiled",
    "format_cards",
    "hand_order",
    "is_legal",
    "legal_actions",
    "make_level_bot",
    "new_game",
    "new_position",
    "next_actor",
    "parse_action",
    "parse_cards",
    "parse_move",
    "shuffled_deck",
    "validate_state",
    "view",
]
