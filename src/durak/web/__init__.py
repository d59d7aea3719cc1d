"""A reference web front-end for durak: ``durak serve`` (the optional ``web`` extra).

Start a table on the start page, share its link (``/table/<id>``), and play in the browser
against people and bots. The server keeps each table's game and sends each seat only its own
view and events (R13) over a WebSocket; see :mod:`durak.web.protocol` for the messages,
:mod:`durak.web.tables` for the tables and :mod:`durak.web.app` for the routes.

Needs the ``web`` extra (``pip install 'durak[web]'``): Starlette and uvicorn with WebSocket
support.
"""

from __future__ import annotations

from durak.web.app import create_app, serve
from durak.web.tables import Table, TableManager

__all__ = ["Table", "TableManager", "create_app", "serve"]
