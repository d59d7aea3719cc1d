"""The text of a whole table that the RL environments render (every hand shown: for onlookers
and debugging, not for agents)."""

from __future__ import annotations

from durak.cards import format_cards
from durak.state import GameState


def table_text(s: GameState, moves: int) -> str:
    """Trump, stock and discard sizes, every hand with the attacker (``A``) and defender
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
