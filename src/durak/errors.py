"""The library's errors. Every one is a :class:`ValueError`, so ``except ValueError`` catches them.

- :class:`DurakError`: base of all.
- :class:`InvalidCardError` (via :class:`InvalidError`): text or data that does not parse.
- :class:`RulesError`: settings that are unknown, of the wrong type, contradict each other or
  cannot be dealt; names the setting.
- :class:`PositionError`: a set-up position that breaks conservation or the rules.
- :class:`SeatError`: a seat number that is not a seat of the game (also an
  :class:`IndexError`).
- :class:`IllegalActionError`: a well-formed action that is not allowed now; names the player,
  the action and the rule id (R13.3).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "DurakError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidError",
    "PositionError",
    "RulesError",
    "SeatError",
]


class DurakError(ValueError):
    """Base class of every error the library raises on bad input."""


class InvalidError(DurakError):
    """Text or data that does not parse."""


class InvalidCardError(InvalidError):
    """Text that is not a card, rank or suit, or a deck that does not exist (R1)."""


class RulesError(DurakError):
    """A rules setting that is unknown, of the wrong type, contradicts another or cannot be dealt.

    Attributes:
        setting: the name of the offending setting.
        reason: why it was rejected, in English: a :class:`~durak.messages.Message`.
        code: the reason's stable code (``"rules.unknown-setting"``, ``"rules.deal-too-big"``
            ...: the list is in :mod:`durak.messages`), ``"other"`` for a reason that has none
            (its text is ``params["text"]``).
        params: the reason's parameters by name.
    """

    def __init__(self, setting: str, reason: str) -> None:
        from durak.messages import as_message

        self.setting = setting
        self.reason = as_message(reason)
        self.code = self.reason.code
        self.params = self.reason.params
        super().__init__(f"{setting}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.setting, self.reason)


class PositionError(DurakError):
    """A set-up position that cannot be played under the given rules."""


class SeatError(DurakError, IndexError):
    """A seat number that is not a seat of the game (``legal_actions(state, 7)`` in a
    four-player game). It is also an :class:`IndexError`, as a bad index of a sequence is."""


class IllegalActionError(DurakError):
    """An action that is well formed but not allowed in this state (R13.3).

    Attributes:
        action: the rejected action's description (a :class:`~durak.messages.Message`, code
            ``action.lead`` ...).
        player: the seat that tried it.
        rule: the rule id it breaks, e.g. ``"R4.6"``.
        reason: a sentence saying why, in English: a :class:`~durak.messages.Message`.
        code: the reason's stable code (``"not-in-hand"``, ``"table-full"`` ...: the list is
            in :mod:`durak.messages`), ``"other"`` for a house rule's plain-text reason.
        params: the reason's parameters (cards, seats, the limit), by name.
    """

    def __init__(self, action: Any, player: int, rule: str, reason: str) -> None:
        from durak.messages import as_message

        self.action = action
        self.player = player
        self.rule = rule
        self.reason = as_message(reason)
        self.code = self.reason.code
        self.params = self.reason.params
        super().__init__(f"player {player} cannot {action}: {reason} ({rule})")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.action, self.player, self.rule, self.reason)
