"""Search bots for the web server's tests, in a module of their own so that a worker process
unpickling one imports only this (the test modules import the whole web stack)."""

from __future__ import annotations

import os
import time
from typing import Any

from durak.actions import Action
from durak.bots import SearchBot


class WhereBot(SearchBot):
    """A search bot that notes the process it chose in (``where``, 0 before) and that process's
    scheduling priority (``nice``)."""

    where = 0
    nice = 0

    def choose(self, v: Any) -> Action:
        self.where = os.getpid()
        self.nice = os.nice(0)
        return super().choose(v)


class SlowBot(SearchBot):
    """A search bot that overruns any budget (it sleeps four seconds first)."""

    def choose(self, v: Any) -> Action:
        time.sleep(4)
        return super().choose(v)
