"""What the PettingZoo and Gymnasium environments share: their rules from a preset, the
checks of their options, their spaces and the text of the table they render."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from durak.cards import format_cards
from durak.presets import get_preset
from durak.rl.encoding import action_space_size, check_supported, observation_size
from durak.rules.settings import Rules
from durak.state import GameState

#: The render modes of both environments.
RENDER_MODES = ("ansi", "human")


def env_rules(
    preset: str, players: int | None, rules: Rules | None, overrides: dict[str, Any]
) -> Rules:
    """The rules of an environment: ``rules`` with ``overrides``, or the preset's with
    ``players`` and ``overrides``.

    Raises:
        RulesError: an unknown preset or setting, or an invalid value.
        UnsupportedRulesError: rules the encoding refuses (:func:`check_supported`).
    """
    if rules is None:
        if players is not None:
            overrides = {"players": players, **overrides}
        rules = get_preset(preset).rules(**overrides)
    elif overrides:
        rules = rules.replace(**overrides)
    check_supported(rules)
    return rules


def check_options(render_mode: str | None, max_moves: int) -> None:
    """Raise ``ValueError`` for an unknown render mode or a ``max_moves`` below 1."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
        raise ValueError(f"max_moves must be a positive integer, not {max_moves!r}")


def observation_space(rules: Rules) -> gymnasium.spaces.Dict:
    """``Dict({"observation": Box(0, 1, (L,), float32), "action_mask": Box(0, 1, (A,), int8)})``."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                0.0, 1.0, (observation_size(rules),), dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (action_space_size(rules),), dtype=np.int8),
        }
    )


def table_text(s: GameState, moves: int) -> str:
    """The whole table as text, every hand shown (for onlookers and debugging, not for
    agents): trump, stock and discard sizes, every hand with the attacker (``A``) and defender
    (``D``) marked, the table, and the result once the game is over."""
    lines = [
        f"trump {s.trump.symbol} ({s.trump_card or '-'}), stock {len(s.stock)}, "
        f"discard {len(s.discard)}, move {moves}",
    ]
    for seat, hand in enumerate(s.hands):
        role = "A" if seat == s.attacker else "D" if seat == s.defender else " "
        place = s.places[seat]
        status = f" out (place {place})" if place is not None else ""
        lines.append(f"{role} player_{seat}: {format_cards(hand) or '-'}{status}")
    table = "  ".join(f"{a}/{b}" if b is not None else f"{a}/--" for a, b in s.table)
    lines.append(f"table: {table or '-'}{' (taken)' if s.taken else ''}")
    if s.result is not None:
        r = s.result
        lines.append(f"over: durak {r.durak}, draw {r.draw}, places {list(r.places)}")
    return "\n".join(lines)
