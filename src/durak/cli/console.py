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


def _console(stream: TextIO, stderr: bool = False) -> Console:
    """A rich console on ``stream``: plain text (no escape codes) when it is not a terminal;
    rich itself honours ``NO_COLOR``."""
    isatty = getattr(stream, "isatty", None)
    tty = bool(isatty and isatty())
    return Console(
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


def _fail(message: str) -> int:
    """Print ``durak: error: message`` to stderr in one line; the exit status 2."""
    print(f"durak: error: {message}", file=sys.stderr)
    return 2


def _error_text(exc: DurakError, lang: Language) -> str:
    """An error before a game starts in ``lang``: a :class:`~durak.errors.RulesError` as
    ``setting: reason`` with its reason said from its code (the setting's name as it is: it is
    the rules file's key); an error without a code as its English text."""
    if isinstance(exc, RulesError):
        return f"{exc.setting}: {lang.say(exc.reason)}"
    return str(exc)
