"""A terminal front-end for Durak written against the library's public API alone.

The player types moves as he would say them (``7h``, ``7h 9h``, ``беру``, ``nehme``, ``Д♥``),
read in the position by the library (``durak.Game.push``); refusals come back in his language.
The other seats are bots. ``undo`` takes back his last move (and the bots' replies), ``save
FILE`` writes the game as JSON, with this front-end's own metadata and the bots' state, and
``--load FILE`` goes on from such a file exactly where it stopped.

Run: python examples/third_party_frontend.py                  # a demo: a scripted player
     python examples/third_party_frontend.py --play --lang ru  # type the moves yourself
     python examples/third_party_frontend.py --play --rules house.toml --load game.json
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TextIO

from durak import Game, Rules, hand_order
from durak.errors import DurakError, IllegalActionError
from durak.i18n import Language
from durak.moves import AmbiguousMoveError, MoveTextError
from durak.presets import load_rules

ME = 0
HELP = "a card (7h), two cards (7h 9h), take, pass, show 7h, undo, save FILE, quit"


class Frontend:
    """One player's screen: what he sees, and what his typed lines do to the game."""

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.lang = Language(lang)

    def screen(self) -> str:
        """What seat ``ME`` may see now, in his language."""
        me = self.game.view(ME)
        say = self.lang
        table = "  ".join(
            say.card(a) + ("/" + say.card(b) if b is not None else "") for a, b in me.table
        )
        hand = say.cards(hand_order(me.hand, me.trump))
        return (
            f"trump {say.suit_name(me.trump)} | stock {me.stock_size} | "
            f"cards {list(me.hand_sizes)}\n  table: {table or '-'}\n  hand:  {hand}"
        )

    def handle(self, line: str) -> str:
        """Do what the player typed; the answer to show him."""
        words = line.split()
        if words[:1] == ["undo"]:
            return self.undo()
        if words[:1] == ["save"] and len(words) == 2:
            self.game.save(words[1])
            return f"saved to {words[1]}"
        try:
            action = self.game.push(line, ME)
        except AmbiguousMoveError as error:
            choices = " | ".join(self.lang.say(a.describe()) for a in error.readings)
            return f"{self.lang.say(error.reason, you=ME)}\n  -> {choices}"
        except (IllegalActionError, MoveTextError) as error:
            return self.lang.say(error.reason, you=ME)
        replies = self.game.play_bots()
        said = [self.lang.say(action.describe(), you=ME)]
        said += [f"{self.lang.seat(a.player)}: {self.lang.say(a.describe())}" for a in replies]
        return "; ".join(said)

    def undo(self) -> str:
        """Take back the moves since the player's last one, and that one."""
        while self.game.moves and self.game.moves[-1].player != ME:
            self.game.pop()
        if not self.game.moves:
            return "nothing to undo"
        return f"took back: {self.lang.say(self.game.pop().describe(), you=ME)}"

    def result(self) -> str:
        """The end of the game in words."""
        outcome = self.game.outcome()
        if outcome.durak is None:
            return "a draw"
        return f"durak: {self.lang.seat(outcome.durak)}; places {list(outcome.places)}"


def run(front: Frontend, lines: Iterable[str], out: TextIO) -> Game:
    """Play ``lines`` (typed by the player) until the game ends, the lines end or ``quit``."""
    front.game.play_bots()
    print(front.screen(), file=out)
    for line in lines:
        line = line.strip()
        if line in ("quit", "q") or front.game.is_over:
            break
        print(f"> {line}", file=out)
        print(front.handle(line) if line else HELP, file=out)
        print(front.result() if front.game.is_over else front.screen(), file=out)
    return front.game


def scripted(front: Frontend) -> Iterable[str]:
    """A player for the demo: he types his first legal move as the game's notation, less his
    seat (``lead 7h``, ``take``), as long as the game asks him."""
    while not front.game.is_over:
        yield str(front.game.view(ME).legal_actions[0]).partition(" ")[2]


def new_game(args: argparse.Namespace) -> Game:
    """The game the command line asks for: loaded, or new with bots on the other seats."""
    if args.load:
        return Game.load(args.load)
    rules = load_rules(args.rules) if args.rules else Rules(players=3)
    bots = {seat: "rule" for seat in range(1, rules.players)}
    return Game(rules, seed=args.seed, bots=bots, meta={"frontend": "third-party example"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Durak in the terminal, on the public API")
    parser.add_argument("--play", action="store_true", help="read your moves from the input")
    parser.add_argument("--lang", default="en", choices=("en", "de", "pl", "ru"))
    parser.add_argument("--rules", help="a TOML or JSON rules file")
    parser.add_argument("--seed", default=1, type=int)
    parser.add_argument("--load", help="go on with a saved game")
    args = parser.parse_args(argv)
    try:
        front = Frontend(new_game(args), args.lang)
    except DurakError as error:  # a bad rules file or saved game, said plainly
        print(f"error: {error}", file=sys.stderr)
        return 2
    lines = sys.stdin if args.play else scripted(front)
    game = run(front, lines, sys.stdout)
    print(f"{len(game.moves)} moves", file=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
