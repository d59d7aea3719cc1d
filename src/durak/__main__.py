"""The ``durak`` command's entry point (also ``python -m durak``).

The command lives in :mod:`durak.cli` and needs the ``cli`` extra (rich draws the screen,
prompt_toolkit reads the keys). Without it this says which extra to install, in one line, and
exits with status 2, instead of a stack trace; ``durak --version`` works without it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module

#: The libraries of the ``cli`` extra, by their import names.
CLI_LIBRARIES = ("rich", "prompt_toolkit")

#: The install command the missing-extra message names.
CLI_INSTALL = "pip install 'durak-engine[cli]'"


def missing_cli_libraries() -> list[str]:
    """The libraries of the ``cli`` extra that cannot be imported (an empty list when the extra
    is installed). The command imports them anyway, so trying costs nothing."""
    missing = []
    for name in CLI_LIBRARIES:
        try:
            import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``durak`` command (:func:`durak.cli.main`) with ``argv``.

    ``--version`` alone prints the version (and whether the build is compiled) with the core
    install too.

    Returns:
        The command's exit status; 2 when the ``cli`` extra is missing (the message, on stderr,
        names the extra and the missing libraries).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:  # the core install answers this too
        from durak import __version__, compiled

        print(f"durak {__version__}" + (" (compiled)" if compiled else ""))
        return 0
    missing = missing_cli_libraries()
    if missing:
        print(
            f"durak: the durak command needs the 'cli' extra: {CLI_INSTALL} "
            f"(missing: {', '.join(missing)})",
            file=sys.stderr,
        )
        return 2
    from durak.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
