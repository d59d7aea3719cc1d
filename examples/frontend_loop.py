"""A minimal front-end loop driven by views and events, as a text front-end would do it.

Seat 0 is "the screen's" player; every seat is played by the rule-of-thumb bot here. The loop
shows only what seat 0 may know: its view (durak.view) and its events (durak.events.events_for),
never the state itself.

Run: python examples/frontend_loop.py
"""

from __future__ import annotations

from durak import Rules, apply_with_events, new_game, next_actor, view
from durak.bots import RuleBot
from durak.events import BoutEnded, Drew, Event, GameOver, PlayerOut, events_for

ME = 0


def describe(event: Event) -> str | None:
    """The events seat 0 is told about, in words (others' draws show only a count)."""
    match event:
        case Drew(player=p, count=n, cards=cards):
            shown = " ".join(map(str, cards)) if cards is not None else f"{n} card(s)"
            return f"p{p} drew {shown}"
        case BoutEnded(defender=d, taken=True, cards=cards):
            return f"p{d} picked up {len(cards)} cards"
        case BoutEnded(taken=False):
            return "the bout went to the discard pile"
        case PlayerOut(player=p, place=place):
            return f"p{p} is out (place {place})"
        case GameOver(result=result):
            return f"game over: durak {result.durak}, draw {result.draw}"
    return None


rules = Rules(players=3)
state = new_game(rules, seed=99)
bots = [RuleBot(seed=s) for s in range(rules.players)]
while not state.is_over:
    seat = next_actor(state)
    assert seat is not None
    action = bots[seat].choose(view(state, seat))
    state, events = apply_with_events(state, action)
    screen = view(state, ME)
    print(f"{action}  | my hand: {' '.join(map(str, screen.hand))}  | stock {screen.stock_size}")
    for event in events_for(events, ME):
        line = describe(event)
        if line:
            print(f"    {line}")
