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

Every error carries its data in one shape (:mod:`durak.messages` states the convention):
:attr:`~DurakError.message` is the whole sentence as a :class:`~durak.messages.Message`
(``str(error)`` is its English text, and :meth:`durak.i18n.Language.say` says it in every
shipped language), :attr:`~DurakError.reason` is why (the whole sentence itself, or its part
after the field, setting or player it concerns), and :attr:`~DurakError.code` and
:attr:`~DurakError.params` are the reason's code and parameters. An error raised with plain
text has the code ``other`` and its text as ``params["text"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from durak.actions import Action
    from durak.messages import Message

__all__ = [
    "DurakError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidError",
    "PositionError",
    "RulesError",
    "SeatError",
    "check_seat",
]


class DurakError(ValueError):
    """Base class of every error the library raises on bad input.

    Args:
        reason: why, a :class:`~durak.messages.Message` (plain text is taken as the code
            ``other``; anything else is quoted briefly, so a junk value never fails here).

    Attributes:
        message: the whole sentence, a :class:`~durak.messages.Message`: ``str(error)`` is its
            English text; ``Language(lang).say(error.message)`` says it in ``lang``.
        reason: why, a :class:`~durak.messages.Message` (for most errors the whole sentence).
        code: the reason's stable code (a key of :data:`durak.messages.TEMPLATES`, or
            ``"other"``).
        params: the reason's parameters by name (read-only), of the kinds
            :mod:`durak.messages` lists.
    """

    message: Message
    reason: Message
    code: str
    params: Any

    def __init__(self, reason: object = "") -> None:
        self._set(_as_message(reason))

    def _set(self, reason: Message, whole: Message | None = None) -> None:
        """Record ``reason`` and the whole sentence (``reason`` itself if ``whole`` is not
        given) and make the sentence the error's text."""
        self.reason = reason
        self.message = reason if whole is None else whole
        self.code = reason.code
        self.params = reason.params
        ValueError.__init__(self, str(self.message))

    def __reduce__(self) -> tuple[Any, ...]:
        # Every subclass alike, whatever its constructor takes: the attributes are restored.
        attributes = {k: v for k, v in self.__dict__.items() if k not in ("code", "params")}
        return _rebuild, (type(self), attributes)


def _rebuild(kind: type[DurakError], attributes: dict[str, Any]) -> DurakError:
    error = kind.__new__(kind)
    error.__dict__.update(attributes)
    error._set(error.reason, error.message)
    return error


def _as_message(value: object) -> Message:
    """``value`` as a message: itself if it is one, text as the code ``other``, anything else
    quoted by :func:`durak._input.brief`."""
    from durak._input import brief
    from durak.messages import as_message

    return as_message(value if isinstance(value, str) else brief(value))


class InvalidError(DurakError):
    """Text or data that does not parse."""


class InvalidCardError(InvalidError):
    """Text that is not a card, rank or suit, or a deck that does not exist (R1). Its codes are
    the ``card.`` codes of :mod:`durak.messages` (``card.not-text``, ``card.not-a-rank`` ...)."""


class RulesError(DurakError):
    """A rules setting that is unknown, of the wrong type, contradicts another or cannot be dealt.

    The whole sentence (:attr:`message`, code ``error.rules``) is the setting, then the reason:
    ``"players: must be 2-12, not 13"``.

    Attributes:
        setting: the name of the offending setting.
        reason: why it was rejected, in English: a :class:`~durak.messages.Message`.
        code: the reason's stable code (``"rules.unknown-setting"``, ``"rules.deal-too-big"``
            ...: the list is in :mod:`durak.messages`), ``"other"`` for a reason that has none
            (its text is ``params["text"]``).
        params: the reason's parameters by name.
    """

    def __init__(self, setting: str, reason: str) -> None:
        from durak._input import brief_name
        from durak.messages import message

        self.setting = setting if isinstance(setting, str) else brief_name(setting)
        why = _as_message(reason)
        self._set(why, message("error.rules", setting=brief_name(self.setting), reason=why))


class PositionError(DurakError):
    """A set-up position that cannot be played under the given rules."""


class SeatError(DurakError, IndexError):
    """A seat number that is not a seat of the game (``legal_actions(state, 7)`` in a
    four-player game). It is also an :class:`IndexError`, as a bad index of a sequence is."""


class IllegalActionError(DurakError):
    """An action that is well formed but not allowed in this state (R13.3).

    The whole sentence (:attr:`message`, code ``error.illegal-action``, with the parameters
    ``player``, ``action``, ``reason`` and ``rule``) is "player 0 cannot take: the defender has
    already taken (R4.8)"; said to the player who tried it, "you cannot take: ...".

    Args:
        action: the rejected action (or, from older code, its description as text).
        player: the seat that tried it.
        rule: the rule id it breaks.
        reason: why, a :class:`~durak.messages.Message` or plain text.

    Attributes:
        action: the rejected action, or ``None`` where only a description was given.
        description: the action's description (a :class:`~durak.messages.Message`, code
            ``action.lead`` ...).
        player: the seat that tried it.
        rule: the rule id it breaks, e.g. ``"R4.6"``.
        reason: a sentence saying why, in English: a :class:`~durak.messages.Message`.
        code: the reason's stable code (``"illegal.not-in-hand"``, ``"illegal.table-full"``
            ...: the list is in :mod:`durak.messages`), ``"other"`` for a house rule's
            plain-text reason.
        params: the reason's parameters (cards, seats, the limit), by name.
    """

    action: Action | None

    def __init__(self, action: Action | str, player: int, rule: str, reason: str) -> None:
        from durak.messages import message

        describe = None if isinstance(action, str) else getattr(action, "describe", None)
        if not isinstance(action, str) and callable(describe):
            self.action = action
            self.description = _as_message(describe())
        else:
            self.action = None
            self.description = _as_message(action)
        self.player = player
        self.rule = rule
        why = _as_message(reason)
        whole = message(
            "error.illegal-action",
            player=player,
            action=self.description,
            reason=why,
            rule=rule if isinstance(rule, str) else _as_message(rule),
        )
        self._set(why, whole)


def check_seat(player: object, n: int) -> None:
    """Check that ``player`` is a seat of a game of ``n`` seats.

    Raises:
        TypeError: ``player`` is not an integer (or is a bool).
        SeatError: it is no seat ``0 .. n - 1`` (quoted briefly, a 5,000-digit one too).
    """
    from durak._input import brief
    from durak.messages import message

    if type(player) is not int and (isinstance(player, bool) or not isinstance(player, int)):
        raise TypeError(f"a player is a seat number 0-{n - 1}, not {brief(player)}")
    if not 0 <= player < n:
        raise SeatError(message("seat.no-seat", given=brief(player), count=n, high=n - 1))
