"""``durak serve``: the web front-end (:mod:`durak.web`), where the 'web' extra is installed."""

from __future__ import annotations

import argparse

from durak.cli.console import _fail


def _cmd_serve(args: argparse.Namespace) -> int:
    """``durak serve [--host H] [--port P] [--bot-delay SECONDS]``: the web front-end, or one
    line on stderr and exit status 2 where the 'web' extra is not installed."""
    try:
        from durak.web import serve as run_server
    except ImportError as exc:
        return _fail(f"durak serve needs the 'web' extra: pip install 'durak-engine[web]' ({exc})")
    run_server(args.host, args.port, bot_delay=max(0.0, args.bot_delay))
    return 0
