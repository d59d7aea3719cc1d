"""Write a bot: a class with ``choose(view) -> action``, then pit it against the random bot.

The bot below always beats with its cheapest card, never takes while it can beat, and leads
its lowest card. It only looks at its own view (durak.view), like every bot should.

Run: python examples/write_a_bot.py
"""

from __future__ import annotations

from durak import Beat, Lead, PlayerView, Rules, Take, ThrowIn
from durak.actions import Action
from durak.bots import RandomBot
from durak.match import losses, play_match


class CheapBot:
    """Beat cheaply, lead low, throw in low cards, pass otherwise."""

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions

        def cost(card_value: int) -> int:  # trumps are expensive
            card = next(c for c in view.hand if c == card_value)
            return card.rank + (20 if card.suit == view.trump else 0)

        beats = [a for a in legal if isinstance(a, Beat)]
        if beats:
            return min(beats, key=lambda a: cost(a.card))
        leads = [a for a in legal if isinstance(a, Lead)]
        if leads:
            return min(leads, key=lambda a: cost(a.cards[0]))
        throws = [a for a in legal if isinstance(a, ThrowIn) and cost(a.card) < 10]
        if throws:
            return min(throws, key=lambda a: cost(a.card))
        for action in legal:  # pass if we may, else take
            if not isinstance(action, Take | ThrowIn):
                return action
        return legal[0]


if __name__ == "__main__":
    games = 200
    match = play_match(Rules(players=2), [CheapBot(), RandomBot(seed=1)], games=games, seed=7)
    lost = losses(match.results)
    print(f"CheapBot lost {lost[0]} of {games} games, the random bot {lost[1]}")
    assert lost[0] < lost[1], "beating cheaply should beat random play"
