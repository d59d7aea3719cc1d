"""``durak serve``: the web front-end (:mod:`durak.web`), where the 'web' extra is installed."""

from __future__ import annotations

import argparse
import sqlite3

from durak.cli.console import _fail


def _cmd_serve(args: argparse.Namespace) -> int:
    """``durak serve [--host H] [--port P] [--bot-delay SECONDS] [--database FILE]
    [--allow-fixed-seeds] [--allowed-origin ORIGIN]... [--allowed-host NAME]...
    [--proxy ADDRESS]... [--max-tables N] [--search-workers N]``: the web front-end, or one
    line on stderr and exit status 2 where the 'web' extra is not installed or the database
    cannot be opened."""
    try:
        from durak.web import serve as run_server
        from durak.web.app import DEFAULT_DATABASE, default_database
        from durak.web.config import ServerConfig, default_hosts
    except ImportError as exc:
        return _fail(f"durak serve needs the 'web' extra: pip install 'durak-engine[web]' ({exc})")
    config = ServerConfig(
        bot_delay=max(0.0, args.bot_delay),
        allow_fixed_seeds=args.allow_fixed_seeds,
        allowed_origins=tuple(args.allowed_origin),
        allowed_hosts=(*default_hosts(args.host), *args.allowed_host),
        proxies=tuple(args.proxy),
        max_tables=args.max_tables,
        search_workers=args.search_workers or 0,
    )
    database = DEFAULT_DATABASE if args.database is None else args.database or None
    try:
        run_server(args.host, args.port, config=config, database=database)
    except (sqlite3.Error, OSError) as exc:
        shown = default_database() if args.database is None else args.database
        return _fail(f"durak serve: cannot use the database {shown}: {exc}")
    return 0
