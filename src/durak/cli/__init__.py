"""The ``durak`` command: play Durak in the terminal, simulate games and matches, list the house
rules, replay recorded games.

Usage::

    durak play [--preset NAME | --rules FILE] [--players N] [--seed S]
               [--level LEVEL | --bots KINDS] [--line] [--save FILE]
    durak simulate [--preset NAME | --rules FILE] [--players N] [--games G] [--match K]
                   [--seed S] [--bots KINDS] [--jobs N] [--backend local|ray]
                   [--address ADDR] [--plot FILE] [--json] [--quiet]
    durak rules [NAME] [--toml | --json]
    durak replay FILE [--line] [--player N]

``durak play`` seats you at seat 0 against computer players: ``--level`` sets how hard they
play (a strength level of :mod:`durak.levels`: ``easy``, ``normal``, ``hard``, ``best``; by
default ``normal``, the rule-of-thumb player of :mod:`durak.bots`), ``--bots`` names them one
by one (bots or levels). In an interactive terminal the arrow keys choose a card, Enter plays
it, ``T`` takes, ``D`` is done (pass) and ``Q`` quits. When the input is not a terminal, or
with ``--line``, commands are read line by line (``7h``, ``7h 9h``, ``t``, ``d``, ``transfer
7s``, ``show 7h``, a number, ``q``); see :data:`LINE_HELP`. The screen shows only what you may
know (:func:`durak.views.view`: your hand, the others' card counts and the cards known to all)
and tells what happened from the engine's events (:func:`durak.engine.apply_with_events`,
:func:`durak.events.events_for`).
``--save FILE`` writes the game record (:mod:`durak.records`), also of an abandoned game.

``durak simulate`` plays many games with a computer player on every seat (random by default)
and prints how often each seat was the durak, the draws, the mean bouts and actions per game and
the speed. With ``--match K`` the ``--games G`` are played as ``G // K`` matches of ``K`` games
(:func:`durak.match.play_match`) and scored (R11.3): losses, longest losing streaks,
Doppeldurak and Dauerdurak streaks, vodka shots, team losses.

``durak rules`` lists the presets (R14); ``durak rules NAME`` shows every setting of one, and
with ``--toml`` or ``--json`` prints it as a rules file that ``--rules FILE`` reads back.

``durak replay FILE`` steps through a game record: as an onlooker who sees every hand by
default, or from seat ``N``'s view with ``--player N``.

Bad input (an unknown preset, a bad rules file, rules that cannot be dealt, a malformed or
tampered record) prints one line naming the problem and exits with status 2.

The command is a package, one module per concern: :mod:`durak.cli.render` (the words for cards,
actions, events and results), :mod:`durak.cli.screen` (the table screen),
:mod:`durak.cli.console` (output streams and errors), :mod:`durak.cli.players` (computer
players), :mod:`durak.cli.commands` (typed commands), and one module per subcommand:
:mod:`durak.cli.play`, :mod:`durak.cli.simulate`, :mod:`durak.cli.rules_cmd`,
:mod:`durak.cli.replay` and :mod:`durak.cli.serve`. This module builds the argument parser,
runs the subcommands and re-exports the submodules' names.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from durak import __version__, compiled
from durak._input import brief
from durak.cli.bots_cmd import _cmd_bots
from durak.cli.commands import LINE_HELP, parse_command
from durak.cli.commands import Command as Command
from durak.cli.commands import card_actions as card_actions
from durak.cli.console import _error_text, _fail, _printable
from durak.cli.play import HUMAN as HUMAN
from durak.cli.play import PlaySession, _cmd_play, render_screen
from durak.cli.play import _play_keys as _play_keys
from durak.cli.players import BotLike as BotLike
from durak.cli.players import _bot_move as _bot_move
from durak.cli.players import _MatchSeat as _MatchSeat
from durak.cli.players import bot_kinds, default_bot, level_kinds, make_bot, seat_bots
from durak.cli.render import describe_events, display_order, listed_actions
from durak.cli.render import hand_order as hand_order
from durak.cli.replay import ReplaySession, _cmd_replay, rules_name
from durak.cli.replay import _replay_keys as _replay_keys
from durak.cli.rules_cmd import _cmd_rules
from durak.cli.screen import Scene, render_scene
from durak.cli.screen import ScreenState as ScreenState
from durak.cli.serve import _cmd_serve
from durak.cli.simulate import (
    MatchStats,
    SimulationStats,
    _cmd_simulate,
    simulate,
    simulate_matches,
)
from durak.errors import DurakError, RulesError
from durak.i18n import LANGUAGES, Language, choose_language, language
from durak.levels import DEFAULT_LEVEL, LevelError, get_level
from durak.messages import message
from durak.presets import DEFAULT_PRESET, PRESETS, get_preset, load_rules, rules_from_mapping
from durak.rules import Rules

__all__ = [
    "LINE_HELP",
    "MatchStats",
    "PlaySession",
    "ReplaySession",
    "Scene",
    "SimulationStats",
    "bot_kinds",
    "build_parser",
    "default_bot",
    "describe_events",
    "display_order",
    "level_kinds",
    "listed_actions",
    "main",
    "make_bot",
    "parse_command",
    "render_scene",
    "render_screen",
    "rules_name",
    "seat_bots",
    "simulate",
    "simulate_matches",
]


# --------------------------------------------------------------------------------------------
# Arguments and main
# --------------------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def _bot_list(text: str) -> tuple[str, ...]:
    """``--bots``: kinds of computer player separated by commas: bot or level names (any case)
    or ``module:Class`` (its case kept); each is made once here, so a bad one is named at once
    (an unknown name with the nearest known one)."""
    kinds = tuple(
        k.strip() if ":" in k else k.strip().lower() for k in text.split(",") if k.strip()
    )
    if not kinds:
        raise argparse.ArgumentTypeError(f"name a kind of bot ({', '.join(bot_kinds())})")
    for kind in kinds:
        try:
            make_bot(kind, 0)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return kinds


def _level(text: str) -> str:
    """``--level``: a strength level's name (any case); an unknown one is named with the
    nearest level."""
    try:
        return get_level(text).name
    except LevelError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose error line escapes what it quotes of the command line (an
    argument may hold terminal escapes); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {_printable(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``durak`` command, with the ``play``, ``simulate``,
    ``rules`` and ``replay`` subcommands."""
    parser = _Parser(
        prog="durak",
        description="The card game Durak: play it in the terminal, simulate it, list its "
        "house rules, replay recorded games.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"durak {__version__}" + (" (compiled)" if compiled else ""),
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kinds = "|".join(bot_kinds())
    levels = "|".join(level_kinds())

    def common(sub: argparse.ArgumentParser, bots_default: str) -> None:
        which = sub.add_mutually_exclusive_group()
        which.add_argument(
            "--preset",
            default=DEFAULT_PRESET,
            metavar="NAME",
            help=f"house rules by name or alias (default {DEFAULT_PRESET}; 'durak rules' "
            "lists them)",
        )
        which.add_argument(
            "--rules",
            dest="rules_file",
            metavar="FILE",
            help="house rules from a TOML or JSON rules file (its optional 'preset' key names "
            "the preset it starts from); not with --preset",
        )
        sub.add_argument(
            "--players", type=_number, metavar="N", help="number of players (overrides the rules)"
        )
        sub.add_argument(
            "--set",
            dest="settings",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="override one setting, as in a rules file (TOML values: --set jokers=2 "
            "--set cheating=true); repeatable",
        )
        sub.add_argument(
            "--seed", metavar="S", help="seed of the deal(s): the same seed, the same game"
        )
        sub.add_argument(
            "--bots",
            type=_bot_list,
            metavar="KIND[,KIND...]",
            help=f"the computer players, a level ({levels}), a bot ({kinds}) or module:Class: "
            "one kind for all, or one per computer seat in seat order, which sets the number "
            f"of players (default {bots_default})",
        )

    play = commands.add_parser(
        "play",
        help="play a game against computer players",
        description="Play a game at seat 0 against computer players (by default the "
        "rule-of-thumb player where there is one). Keys: Left/Right choose a card, Enter "
        "plays it; or type a move and Enter: a card (7h), two (7h 9h), t take, d done (pass), "
        "c catch a cheat (rules with cheating), q quit; Esc clears it. "
        + LINE_HELP,
    )
    common(play, f"{DEFAULT_LEVEL}, the {default_bot()} bot")
    play.add_argument(
        "--level",
        type=_level,
        metavar="LEVEL",
        help=f"how hard the computer plays: {levels} (every computer player at that level; "
        f"default {DEFAULT_LEVEL}; 'durak bots' describes them); not with --bots",
    )
    play.add_argument(
        "--line", action="store_true", help="type commands line by line instead of using keys"
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of the game: en, de, pl or ru (default: from LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG, else English)",
    )
    play.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record (JSON) to FILE when the game ends or is abandoned; "
        "'durak replay FILE' shows it again",
    )
    play.set_defaults(func=_with_rules(_cmd_play))

    sim = commands.add_parser(
        "simulate",
        help="play many computer games and print statistics",
        description="Play games with a computer player on every seat (random ones by default) "
        "and print how often each seat was the durak, the draws, and the mean bouts and "
        "actions per game. With --match K the games are played as matches of K games (the "
        "durak deals the next game, R11) and scored: losses, longest losing streaks, "
        "Doppeldurak and Dauerdurak streaks, vodka shots, team losses. With several kinds "
        "of bot (--bots search,rule,random,random) the games are a tournament: the bots "
        "change seats from game to game, and each bot's durak rate is reported with a 95% "
        "confidence interval and a rating (Weng-Lin, openskill) with its interval; --jobs N "
        "plays it in N processes, --backend ray on a Ray cluster.",
    )
    common(sim, "random")
    sim.add_argument(
        "--games",
        type=_positive,
        default=1000,
        metavar="G",
        help="games in all (1000); with --match K, G // K matches are played",
    )
    sim.add_argument(
        "--match",
        type=_positive,
        metavar="K",
        help="play matches of K games each and report the match scores",
    )
    sim.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        metavar="N",
        help="processes for a tournament (1); the figures do not depend on it",
    )
    sim.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where a tournament's games run: this machine (local, with --jobs) or a Ray "
        "cluster (ray; pip install 'durak-engine[ray]'); the figures do not depend on it",
    )
    sim.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the cluster to join ('auto', or HOST:PORT of its head "
        "node); a local Ray instance of --jobs CPUs without it",
    )
    sim.add_argument(
        "--plot",
        type=Path,
        metavar="FILE",
        help="draw a tournament's durak rates, ratings and durak rate by seat, with 95%% "
        "intervals, to FILE (.png, .pdf, .svg; needs matplotlib)",
    )
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_with_rules(_cmd_simulate))

    rules = commands.add_parser(
        "rules",
        help="list the presets, or show one preset's settings",
        description="Without NAME: list every preset (name, aliases, description, source). "
        "With NAME: every setting of that preset, marking those that differ from the "
        "defaults; --toml or --json print it as a rules file for --rules.",
    )
    rules.add_argument("name", nargs="?", metavar="NAME", help="a preset name or alias")
    form = rules.add_mutually_exclusive_group()
    form.add_argument("--toml", action="store_true", help="print NAME as a TOML rules file")
    form.add_argument(
        "--json", action="store_true", help="print NAME as a JSON rules file (or the list)"
    )
    rules.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of the tables, as for durak play (en, de, pl, ru)",
    )
    rules.set_defaults(func=_cmd_rules)

    rep = commands.add_parser(
        "replay",
        help="step through a recorded game",
        description="Show a game record (from 'durak play --save') step by step: Right or "
        "Enter the next action, Left the previous one, Home/End the first/last, Q quit. "
        "By default an onlooker's view with every hand face up; --player N follows seat "
        "N's view (his hand, the others' card counts and known cards). In line mode, or "
        "when the input is not a terminal, every step and the result are printed.",
    )
    rep.add_argument("file", metavar="FILE", help="a game record (JSON)")
    rep.add_argument("--line", action="store_true", help="print every step instead of keys")
    rep.add_argument("--player", type=_number, metavar="N", help="follow seat N's view")
    rep.add_argument(
        "--lang", choices=LANGUAGES, help="the language, as for durak play (en, de, pl, ru)"
    )
    rep.set_defaults(func=_cmd_replay)

    web = commands.add_parser(
        "serve",
        help="play in the browser: the web front-end (needs the 'web' extra)",
        description="Serve the web front-end: start a table with people and bots, share its "
        "link, play in the browser. Needs the 'web' extra: pip install 'durak-engine[web]'.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=_positive, default=8000, help="port to listen on (8000)")
    web.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS", help="bots' pause (0.6)"
    )
    web.add_argument(
        "--database",
        default=None,
        metavar="FILE",
        help="SQLite file that keeps the tables across restarts (tables.sqlite3 in the user's "
        "data folder for durak, e.g. ~/.local/share/durak; '' keeps them in memory only)",
    )
    web.add_argument(
        "--allow-fixed-seeds",
        action="store_true",
        help="let a new table fix its deal with a seed (demos, tests); it is shown to every seat",
    )
    web.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another page origin whose WebSockets are accepted (repeatable)",
    )
    web.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name (or address) clients reach the server by, besides the address it "
        "listens on and localhost (repeatable)",
    )
    web.add_argument(
        "--proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For header is believed (repeatable; "
        "none by default)",
    )
    web.add_argument(
        "--max-tables", type=_positive, default=500, metavar="N", help="tables kept (500)"
    )
    web.add_argument(
        "--search-workers",
        type=_positive,
        metavar="N",
        help="processes for search bots, the most searches at once (CPUs - 1)",
    )

    web.set_defaults(func=_cmd_serve)

    bots = commands.add_parser(
        "bots",
        help="list the strength levels and the computer players --bots accepts by name",
        description="List the strength levels (--level; --bots takes them too), the built-in "
        "bots and those installed packages add through the 'durak.bots' entry points. "
        "--bots module:Class takes any other bot class.",
    )
    bots.add_argument("--json", action="store_true", help="print the list as JSON")
    bots.add_argument(
        "--levels", action="store_true", help="only the strength levels (with --json: as JSON)"
    )
    bots.set_defaults(func=_cmd_bots)
    return parser


def _resolve_rules(
    preset: str, players: int | None, rules_file: str | None = None
) -> tuple[str, Rules]:
    """The rules of ``play`` and ``simulate`` and the name the screen shows for them: the
    preset's canonical name and rules, or the rules file's name and rules (``--rules``); then
    ``--players`` applied.

    Raises:
        RulesError: an unknown preset, a rules file that cannot be read or holds a bad setting
            (naming the key and the reason), or rules that cannot be dealt.
    """
    overrides: dict[str, Any] = {} if players is None else {"players": players}
    if rules_file is not None:
        rules = load_rules(rules_file)
        return Path(rules_file).name, rules.replace(**overrides) if overrides else rules
    found = get_preset(preset)
    fixed = found.settings.get("players")
    if "teams" in found.settings and players is not None and players != fixed:
        teams = tuple(
            message("rules.team-preset", preset=p.name, n=p.settings.get("players"))
            for p in PRESETS.values()
            if "teams" in p.settings
        )
        reason = message(
            "rules.preset-teams", preset=found.name, n=fixed, given=str(players), teams=teams
        )
        raise RulesError("players", reason)
    return found.name, found.rules(**overrides)


def _apply_settings(rules: Rules, items: Sequence[str]) -> Rules:
    """``rules`` with the ``--set NAME=VALUE`` overrides, each value read as a TOML value
    (``2``, ``true``, ``"c"``, ``["c", "h"]``; a bare word is text, ``none`` switches an
    optional setting off, as in rules files).

    Raises:
        RulesError: an item without ``=``, an unknown setting or a bad value, naming it.
    """
    if not items:
        return rules
    overrides: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RulesError("set", f"expected NAME=VALUE, not {brief(item)}")
        try:
            value: Any = tomllib.loads(f"value = {text.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        overrides[name] = value
    return rules_from_mapping({**rules.to_dict(), **overrides, "preset": DEFAULT_PRESET})


def _players_of_bots(args: argparse.Namespace, seats_of_others: int) -> int | None:
    """``--players`` as the command line gives it, or as ``--bots`` implies: one kind per seat
    (``durak simulate``: every seat; ``durak play``: the seats besides the human's, offset by
    ``seats_of_others``). One kind alone plays every seat and implies nothing.

    Raises:
        RulesError: at ``bots``, for more than one kind that does not match ``--players``.
    """
    kinds: tuple[str, ...] = args.bots or ()
    if len(kinds) < 2:
        return args.players  # type: ignore[no-any-return]
    implied = len(kinds) + seats_of_others
    if args.players is not None and args.players != implied:
        reason = message(
            "rules.bots-players",
            n=len(kinds),
            given=", ".join(kinds),
            count=implied,
            asked=args.players,
        )
        raise RulesError("bots", reason)
    return implied


def _check_bots(args: argparse.Namespace, rules: Rules) -> None:
    """Ask every bot of ``--bots`` (and ``--level``) whether it plays ``rules``, before a game
    starts: a bot with a ``check_rules(rules)`` method (the learned agent, which plays only the
    rules it has weights for) raises there.

    Raises:
        DurakError: what the bot's check raised (a ``RulesError`` naming the setting).
    """
    kinds: tuple[str, ...] = (*(args.bots or ()), *filter(None, [getattr(args, "level", None)]))
    for kind in kinds:
        check = getattr(make_bot(kind, 0), "check_rules", None)
        if callable(check):
            check(rules)


#: The longest ``--seed`` read, in characters.
_MAX_SEED_LENGTH = 1000


def _seed(text: str | None) -> int | str:
    """The seed of ``--seed``: ASCII digits are an integer, any other text a string seed
    (``²`` and ``٣`` are strings, not numbers); a random one without the option.

    Raises:
        RulesError: at ``seed``, for a seed longer than 1,000 characters
            (:data:`_MAX_SEED_LENGTH`) or one that is not valid text (undecodable bytes in the
            command line).
    """
    if text is None:
        return secrets.randbelow(1_000_000)
    text = text.strip()
    if len(text) > _MAX_SEED_LENGTH:
        raise RulesError(
            "seed", f"too long: {len(text):,} characters (at most {_MAX_SEED_LENGTH:,})"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RulesError("seed", f"not valid text: {brief(text)}") from None
    return int(text) if text.isascii() and text.isdigit() else text


def _args_language(args: argparse.Namespace) -> Language:
    """The language of a command that has ``--lang`` (the option, then the environment as
    :func:`~durak.i18n.choose_language` reads it); English for the others."""
    if not hasattr(args, "lang"):
        return language("en")
    try:
        return language(choose_language(args.lang))
    except ValueError:
        return language("en")


def _with_rules(
    command: Callable[[argparse.Namespace, str, Rules, int | str], int],
) -> Callable[[argparse.Namespace], int]:
    """``command`` run with the rules of ``--preset``/``--rules``/``--players`` and the seed;
    bad rules exit with status 2 and the error in one line."""

    def run(args: argparse.Namespace) -> int:
        try:
            players = _players_of_bots(args, 1 if command is _cmd_play else 0)
            name, rules = _resolve_rules(args.preset, players, args.rules_file)
            rules = _apply_settings(rules, args.settings)
            if args.settings:
                name = f"{name} + {', '.join(s.strip() for s in args.settings)}"
            seed = _seed(args.seed)
            _check_bots(args, rules)
        except DurakError as exc:
            return _fail(_error_text(exc, _args_language(args)))
        return command(args, name, rules, seed)

    return run


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``durak`` command with ``argv`` (default: the process's arguments).

    Returns:
        The exit status: 0 on success (a finished or abandoned game), 2 for bad arguments,
        rules, rules files or records (the error is printed to stderr in one line), 130 when
        interrupted, 141 when the reader of the output went away (a closed pipe, as in
        ``durak rules --json | head -1``: the command ends quietly), 1 when the output cannot
        be written otherwise (a full disk: ``durak: error: cannot write the output: ...``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()  # a write error of buffered output shows here, not at exit
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader is gone (``| head``): nothing more can be said to it and it asked for no
        # more, so end quietly. 141 is 128 + SIGPIPE, the status a shell reports for a program
        # that the signal ended, as 130 (128 + SIGINT) is for an interrupt above.
        _drop_stdout()
        return 141
    except OSError as exc:
        if exc.filename is not None:  # a file that could not be opened, not the output
            raise
        # Writing to the open output failed (ENOSPC on a full disk, EIO ...).
        _drop_stdout()
        print(f"durak: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return status


def _drop_stdout() -> None:
    """Point the process's standard output at the null device after a write to it failed, so
    that the output still buffered is not written again, and fails again with a traceback, when
    the interpreter flushes it at exit (the recipe of Python's documentation, "Note on
    SIGPIPE"). A standard output without a file descriptor (a test's capture) is left alone."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
