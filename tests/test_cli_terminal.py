"""``durak play`` in a real pseudo-terminal of 80x24, read back through a terminal emulator
(pexpect drives it, pyte keeps the screen): a whole game with the keys in German and in English,
the "Play it how?" menu on the screen and a transfer made with the keys (R9.1)."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: perevodnoy with 3 players, seed 8: on the human's tenth decision as the terminal plays it
#: (Enter on the highlighted card, the first choice, T or D), 8♣ beats the 8♥ led or transfers.
ARGS = ["--preset", "perevodnoy", "--players", "3", "--seed", "8"]

TEXTS = {
    "de": {
        "menu": "Wie ausspielen?",
        "transfer": "weiterschieben",
        "transferred": "du schiebst mit 8♣ weiter an",
        "defending": "Du verteidigst",
        "end": "Enter oder Q beendet.",
        "typed": "getippt: x · Enter spielt es",
        "hand": "Dein Blatt",
    },
    "en": {
        "menu": "Play it how?",
        "transfer": "transfer",
        "transferred": "you transferred with 8♣ to",
        "defending": "You defend",
        "end": "Press Enter or Q to leave.",
        "typed": "typed: x · Enter plays it",
        "hand": "Your hand",
    },
}


class Terminal:
    """``durak play ARGS`` in a pseudo-terminal of 24 rows and 80 columns."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        base = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
        base.update(PYTHONPATH=str(SRC), TERM="xterm", **env)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "durak.cli", "play", *args],
            env=base,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=30,
        )
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.settle(first=30.0)

    def settle(self, first: float = 5.0, quiet: float = 0.2) -> None:
        """Read the output until it has been quiet for ``quiet`` seconds (at most 30 s)."""
        wait, deadline = first, time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.stream.feed(self.child.read_nonblocking(1 << 16, timeout=wait))
            except (pexpect.TIMEOUT, pexpect.EOF):
                return
            wait = quiet

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def press(self, key: str) -> str:
        self.child.send(key)
        self.settle()
        return self.text

    def close(self) -> int:
        self.child.expect(pexpect.EOF, timeout=30)
        self.child.close()
        return int(self.child.exitstatus or 0)


def _menu_option(screen: str, words: dict[str, str]) -> str:
    """The number of the menu's transfer option, else of its first."""
    found = re.search(r"(\d)  [^\n]*" + words["transfer"], screen.partition(words["menu"])[2])
    return found.group(1) if found else "1"


def _play_through(lang: str, env: dict[str, str]) -> tuple[list[tuple[str, str]], str, int]:
    """Play a whole game with the keys (Enter on the highlighted card, the transfer or the
    first choice of a menu, T or D when nothing can be played); return each menu screen with
    the screen after its choice, the last screen and the exit status."""
    words = TEXTS[lang]
    term = Terminal(ARGS, env)
    try:
        assert words["hand"] in term.text
        assert words["typed"] in term.press("x")  # typed text is shown as it is typed
        assert words["typed"] not in term.press("\x1b")  # Esc clears it
        menus: list[tuple[str, str]] = []
        for _ in range(300):  # a game of 36 cards takes far fewer decisions
            screen = term.text
            if words["end"] in screen:
                break
            if words["menu"] in screen:
                menus.append((screen, term.press(_menu_option(screen, words))))
                continue
            after = term.press("\r")
            if after == screen or "(R" in after:  # nothing to play: take or done
                term.press("t\r" if words["defending"] in after else "d\r")
        last = term.text
        term.press("\r")
        return menus, last, term.close()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


@pytest.mark.parametrize(
    ("lang", "env"),
    [("de", {"LANG": "de_DE.UTF-8"}), ("en", {"LANGUAGE": "en", "LANG": "C.UTF-8"})],
)
def test_R9_1_whole_game_with_keys_on_80x24_menu_visible_transfer_made(
    lang: str, env: dict[str, str]
) -> None:
    menus, last, status = _play_through(lang, env)
    words = TEXTS[lang]
    assert status == 0
    assert words["end"] in last  # the game was played to its end
    assert menus, "the Play it how? menu never showed on the 24 rows"
    menu, after = next(
        (m, a) for m, a in menus if words["transfer"] in m.partition(words["menu"])[2]
    )
    assert "8♣" in menu.partition(words["menu"])[2]
    assert words["transferred"] in after  # the transfer was made with the keys (R9.1)


def test_play_lang_option_beats_the_environment() -> None:
    term = Terminal([*ARGS, "--lang", "pl"], {"LANG": "de_DE.UTF-8"})
    try:
        assert "Twoja ręka" in term.text
        assert "Dein Blatt" not in term.text  # LANG=de_DE gives way to --lang pl
        term.press("q\r")
        assert term.close() == 0
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
