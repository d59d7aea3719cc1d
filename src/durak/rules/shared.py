"""The shared actions: every action the listings offer is built once and then shared.

Actions are values, and building one runs its validators; the rule modules' listings
(:mod:`durak.rules.families`) and the bout (:mod:`durak.rules.bout`) read these tables, so
that a listed action costs one lookup.
"""

from __future__ import annotations

from typing import TypeVar

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
from durak.cards import Card

__all__ = ["one"]

_Key = TypeVar("_Key")


class _Built(dict[_Key, Action]):
    """One action kind's actions, each built on first use and then shared: actions are
    values, and building one runs its validators. The modules' listings read these tables,
    so that a listed action costs one lookup. A table that outgrows its bound starts afresh."""

    __slots__ = ("kind",)

    def __init__(self, kind: type) -> None:
        super().__init__()
        self.kind = kind

    def build(self, key: _Key) -> Action:
        """The action that ``key`` names."""
        raise NotImplementedError

    def __missing__(self, key: _Key) -> Action:
        if len(self) > 100_000:
            self.clear()
        action = self[key] = self.build(key)
        return action


class _Shared(_Built[int]):
    """Single-card (or card-less) actions by key ``(player << 10 | attack card) << 10 | card``."""

    __slots__ = ()

    def build(self, key: int) -> Action:
        kind = self.kind
        p, a, c = key >> 20, (key >> 10) & 1023, key & 1023
        if kind is Take or kind is Pass or kind is Redeal:
            action: Action = kind(p)
        elif kind is Lead or kind is Transfer:
            action = kind(p, (Card(c),))
        elif kind is Beat:
            action = Beat(p, Card(a), Card(c))
        else:
            action = kind(p, Card(c))
        return action


class _SharedSeveral(_Built[tuple[int, tuple[Card, ...]]]):
    """Several-card actions (leads of one rank, R4.2; transfers of several cards, R9.4) by
    ``(player, cards)``."""

    __slots__ = ()

    def build(self, key: tuple[int, tuple[Card, ...]]) -> Action:
        action: Action = self.kind(*key)
        return action


_LEADS = _Shared(Lead)
_THROW_INS = _Shared(ThrowIn)
_BEATS = _Shared(Beat)
_PASSES = _Shared(Pass)
_TAKES = _Shared(Take)
_TRANSFERS = _Shared(Transfer)  # single-card transfers
_SHARED: dict[type, _Shared] = {kind: _Shared(kind) for kind in (ShowTrump, ExchangeTrump, Redeal)}
_SHARED.update({Lead: _LEADS, ThrowIn: _THROW_INS, Beat: _BEATS, Pass: _PASSES, Take: _TAKES})
_SHARED[Transfer] = _TRANSFERS
_SEVERAL_LEADS = _SharedSeveral(Lead)
_SEVERAL_TRANSFERS = _SharedSeveral(Transfer)


def one(kind: type, p: int, c: int = 0, a: int = 0) -> Action:
    """The action ``kind`` of player ``p`` with card ``c`` (and attack card ``a`` for a beat),
    built once and then shared: actions are values, and building one runs its validators."""
    return _SHARED[kind][(p << 10 | a) << 10 | c]
