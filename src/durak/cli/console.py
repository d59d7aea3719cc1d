"""Where the ``durak`` command writes: rich consoles on the process's streams (plain text when
they are not terminals), the ANSI text of a screen for prompt_toolkit, and the one-line error
with exit status 2.
"""

from __future__ import annotations

import sys
from io import StringIO
from typing import TextIO

from rich.console import Console, RenderableType

from durak.errors import DurakError, RulesError
from durak.i18n import Language


def _can_encode(console: Console, text: str) -> bool:
    """Whether ``console``'s encoding can write ``text`` (else cards are written in ASCII)."""
    try:
        text.encode(console.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class _Console(Console):
    """A rich console that lets a closed pipe's :class:`BrokenPipeError` reach
    :func:`durak.cli.main`, which ends every command the same way (rich's own
    :meth:`~rich.console.Console.on_broken_pipe` raises :class:`SystemExit` with status 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # write nothing more
        raise  # the BrokenPipeError rich is handling


def _console(stream: TextIO, stderr: bool = False) -> Console:
    """A rich console on ``stream``: plain text (no escape codes) when it is not a terminal;
    rich itself honours ``NO_COLOR``. A closed pipe raises :class:`BrokenPipeError`
    (:class:`_Console`)."""
    isatty = getattr(stream, "isatty", None)
    tty = bool(isatty and isatty())
    return _Console(
        file=stream,
        force_terminal=None if tty else False,
        stderr=stderr,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )


def _is_plain(console: Console) -> bool:
    """Whether ``console`` writes without colours or styles (not a terminal, or ``NO_COLOR``)."""
    return console.color_system is None or not console.is_terminal


def _ansi(renderable: RenderableType, width: int) -> str:
    """``renderable`` as text with ANSI styles, ``width`` columns wide (for prompt_toolkit)."""
    buffer = StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        width=max(40, width),
        color_system="standard",
        highlight=False,
        emoji=False,
    )
    console.print(renderable)
    return buffer.getvalue()


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters such as ESC and
    newlines, format characters such as U+202E, lone surrogates) written as its Python escape
    (``\\x1b``, ``\\n``, ``\\u202e``, ``\\ud800``): it cannot move the cursor, drive the
    terminal or make the line unwritable in UTF-8."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _fail(message: str) -> int:
    """Print ``durak: error: message`` to stderr in one line; the exit status 2.

    The message may hold names from a hostile rules file or record; the library quotes them
    (:func:`durak._input.brief_name`), and as a last line of defence any control character or
    surrogate left is escaped here (:func:`_printable`)."""
    print(f"durak: error: {_printable(message)}", file=sys.stderr)
    return 2


def _error_text(exc: DurakError, lang: Language) -> str:
    """An error before a game starts in ``lang``: a :class:`~durak.errors.RulesError` as
    ``setting: reason`` with its reason said from its code (the setting's name as it is: it is
    the rules file's key); an error without a code as its English text."""
    if isinstance(exc, RulesError):
        return f"{exc.setting}: {lang.say(exc.reason)}"
    return str(exc)
