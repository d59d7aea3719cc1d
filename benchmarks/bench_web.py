"""Web server benchmark: ``durak serve`` under load over real WebSockets on 127.0.0.1 (not a
test).

The server runs in its own process (uvicorn, a SQLite file in a temporary folder, bots without
a pause). This script opens ``--tables`` tables, each with two people (two WebSockets) and a
rule-of-thumb bot, and ``--search-tables`` more tables of one person against two search bots
(the load that used to stall other tables). Every person plays a random legal move ``--think``
seconds after he becomes the next actor, and asks for the next game when one ends. It runs for
``--seconds`` seconds, then reports:

- actions per second (every action applied, the bots' included);
- the latency of a person's move: from sending it to receiving the ``state`` message that shows
  it, as percentiles (only the two-people tables are counted);
- the server's resident memory (RSS) at the start, its peak, and at the end;
- the CPU shares of the server (and its kernel part) and of the clients, and how late the
  clients' own event loop wakes up (a late client loop adds to the latency it measures).

The clients speak WebSocket through a small client of this script's own (text frames only),
which takes less CPU from the machine the server runs on than the ``websockets`` package
(``--client websockets``); what is measured is the same.

Nothing here is sent anywhere but 127.0.0.1, and every loop ends by the deadline.

Usage::

    python benchmarks/bench_web.py                                  # 200 tables, 60 s
    python benchmarks/bench_web.py --tables 200 --seconds 600       # memory over 10 minutes
    python benchmarks/bench_web.py --tables 50 --search-tables 20   # latency beside search bots
    python benchmarks/bench_web.py --profile server.prof           # cProfile of the server
    python benchmarks/bench_web.py --hostile                        # beside a hostile client

With ``--hostile`` a second process attacks the same server for the whole run, as issue 27's
hostile client did, in bounded loops: requests whose rules list too many actions
(``POST /api/engine`` and ``POST /api/tables``, item 1), WebSockets that stop reading (item 2),
idle connections, slowloris request heads and a 1 MiB head (item 3), and a flood of junk
messages on a socket (item 11). It reports what it did and what the server answered.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import websockets

_SERVER = """
import sys
from durak.web.app import serve
from durak.web.config import ServerConfig
tables, workers, budget = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
config = ServerConfig(
    bot_delay=0, max_tables=tables + 50, tables_per_client=tables + 50, reserved_tables=0,
    sockets_per_client=4 * tables + 50, search_workers=workers, move_budget=budget,
)
run = lambda: serve("127.0.0.1", int(sys.argv[1]), config=config, database=sys.argv[5])
if len(sys.argv) > 6:
    import cProfile, signal
    profiler = cProfile.Profile()
    # uvicorn gives the signal back to this handler once it has shut down.
    signal.signal(signal.SIGTERM, lambda *_: (profiler.dump_stats(sys.argv[6]), sys.exit(0)))
    profiler.enable()
run()
"""


def _rss_mb(pid: int) -> float:
    """The resident memory of a process in MiB (Linux /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _cpu_seconds(pid: int, system: bool = False) -> float:
    """User plus system CPU seconds a process has used (Linux /proc); with ``system``, the
    system (kernel) part alone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = int(fields[12]) if system else int(fields[11]) + int(fields[12])
        return used / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _post(base: str, body: dict[str, Any]) -> str:
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # loopback only
        table_id: str = json.load(answer)["id"]
        return table_id


class _Socket:
    """A small WebSocket client (RFC 6455: text frames, no extensions) on asyncio streams, for
    the benchmark's many clients: it reads a frame with two or three stream reads, so the
    clients, which share the machine with the server, take less of its CPU than a general
    client library. ``--client websockets`` uses the ``websockets`` package instead."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, url: str) -> _Socket:
        """Open ``ws://host:port/path`` (loopback only) and do the opening handshake.

        Raises:
            ConnectionError: the server did not switch protocols.
        """
        rest = url.removeprefix("ws://")
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.partition(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode("latin-1"))
        return cls(reader, writer)

    async def recv(self) -> str:
        """The next text message (pings are answered).

        Raises:
            ConnectionError: the server closed the connection.
        """
        parts: list[bytes] = []
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = int.from_bytes(await self.reader.readexactly(2), "big")
            elif size == 127:
                size = int.from_bytes(await self.reader.readexactly(8), "big")
            payload = await self.reader.readexactly(size) if size else b""
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("closed by the server")
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode()

    def _frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
        key = int.from_bytes((mask * (size // 4 + 1))[:size], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(size, "big") if size else b""
        self.writer.write(head + mask + masked)

    async def send(self, text: str) -> None:
        """Send a text message."""
        self._frame(0x1, text.encode())
        await self.writer.drain()

    async def close(self) -> None:
        """Send a close frame and close the connection."""
        with contextlib.suppress(OSError):
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.writer.close()
            await self.writer.wait_closed()


@contextlib.asynccontextmanager
async def _connect(url: str, client: str) -> AsyncIterator[Any]:
    """A connection with ``recv`` and ``send`` of text: :class:`_Socket` or ``websockets``."""
    if client == "websockets":
        async with websockets.connect(url, max_size=2**20) as ws:
            yield ws
        return
    sock = await _Socket.connect(url)
    try:
        yield sock
    finally:
        await sock.close()


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0


async def _person(
    url: str, deadline: float, think: float, stats: Stats, count: bool, seed: int, client: str
) -> None:
    """One person at a table until the deadline: plays random legal moves, asks for the next
    game at the end of one."""
    rng = random.Random(seed)
    async with _connect(url, client) as ws:
        seat: int | None = None
        sent_at: float | None = None
        sent_version = -1
        asked = -1
        while time.monotonic() < deadline:
            try:
                left = max(0.05, deadline - time.monotonic())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "welcome":
                seat = message["seat"]
                continue
            if message["type"] != "state":
                continue
            if message["events"]:
                stats.actions += 1 if seat == 0 else 0  # counted once per table (seat 0)
            version = message["version"]
            if sent_at is not None and version > sent_version:
                if count:
                    stats.latencies.append(time.monotonic() - sent_at)
                sent_at = None
            v = message["view"]
            if v["result"] is not None:
                if asked != message["game"]:
                    asked = message["game"]
                    await ws.send(json.dumps({"type": "restart"}))
                continue
            mine = message["started"] and v["next_actor"] == seat and v["legal_actions"]
            if mine and (sent_at is None or version > sent_version):
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_version = version
                sent_at = time.monotonic()
                await ws.send(rng.choice(v["legal_actions"]))


async def _run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    host = base.removeprefix("http://")
    deadline = time.monotonic() + args.seconds
    stats = Stats()
    tasks = []
    for i in range(args.tables):
        table_id = _post(base, {"seats": ["human", "human", "rule"]})
        for j in range(2):
            url = f"ws://{host}/ws/{table_id}"
            tasks.append(_person(url, deadline, args.think, stats, True, 2 * i + j, args.client))
    for i in range(args.search_tables):
        table_id = _post(base, {"seats": ["human", "search", "search"]})
        url = f"ws://{host}/ws/{table_id}"
        tasks.append(_person(url, deadline, args.think, stats, False, 10_000 + i, args.client))
    memory = [_rss_mb(pid)]
    lags: list[float] = []

    async def sample() -> None:
        while time.monotonic() < deadline:
            await asyncio.sleep(1.0)
            memory.append(_rss_mb(pid))

    async def client_lag() -> None:
        """How late the clients' own loop wakes up (it delays what the clients measure)."""
        while time.monotonic() < deadline:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - before - 0.01)

    started = time.monotonic()
    server_cpu, client_cpu = _cpu_seconds(pid), time.process_time()
    server_kernel = _cpu_seconds(pid, system=True)
    await asyncio.gather(sample(), client_lag(), *tasks, return_exceptions=False)
    elapsed = time.monotonic() - started
    server_cpu = _cpu_seconds(pid) - server_cpu
    server_kernel = _cpu_seconds(pid, system=True) - server_kernel
    client_cpu = time.process_time() - client_cpu
    lat = sorted(stats.latencies)
    lags.sort()

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    return {
        "seconds": round(elapsed, 1),
        "moves_timed": len(lat),
        "person_moves_per_s": round(len(lat) / elapsed, 1),
        "actions_per_s_seen_by_seat_0": round(stats.actions / elapsed, 1),
        "latency_ms": {
            "p50": round(pct(50), 2),
            "p90": round(pct(90), 2),
            "p99": round(pct(99), 2),
            "max": round(1000 * lat[-1], 2) if lat else None,
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "client_loop_lag_ms": {
            "p50": round(1000 * lags[len(lags) // 2], 2) if lags else None,
            "p99": round(1000 * lags[int(0.99 * len(lags))], 2) if lags else None,
        },
        "cpu_share": {
            "server": round(server_cpu / elapsed, 2),
            "server_kernel": round(server_kernel / elapsed, 2),
            "clients": round(client_cpu / elapsed, 2),
            "load_average_1min": round(os.getloadavg()[0], 2),
        },
        "server_rss_mb": {
            "start": round(memory[0], 1),
            "peak": round(max(memory), 1),
            "end": round(memory[-1], 1),
            "after_first_10s": round(memory[min(10, len(memory) - 1)], 1),
        },
    }


# --- the hostile client (--hostile) ----------------------------------------------------------

#: Rules past the library's own bound, and rules within it but past the server's.
_HUGE_RULES = {"deck_size": 24, "decks": 16, "hand_size": 192, "lead": "same_rank"}
_LONG_RULES = {"deck_size": 52, "decks": 2, "lead": "same_rank"}


async def _raw(host: str, port: int, data: bytes, rcvbuf: int = 0) -> Any:
    """A raw connection to the server that has sent ``data``: ``(reader, writer)``."""
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    reader, writer = await asyncio.open_connection(sock=sock)
    if data:
        writer.write(data)
        await writer.drain()
    return reader, writer


async def _hostile(base: str, seconds: float) -> dict[str, Any]:
    """Attack the server at ``base`` for ``seconds`` (items 1, 2, 3 and 11 of issue 27); counts
    of what was tried and how the server answered."""
    host, port_text = base.removeprefix("http://").split(":")
    port = int(port_text)
    deadline = time.monotonic() + seconds
    counts: dict[str, Any] = {}

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    def post(path: str, body: dict[str, Any]) -> int:
        data = json.dumps(body).encode()
        headers = {"content-type": "application/json"}
        request = urllib.request.Request(base + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as refused:
            return int(refused.code)
        except OSError:
            return 0

    table_id = await asyncio.to_thread(_post, base, {"seats": ["human", "rule"]})
    upgrade = (
        f"GET /ws/{table_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()

    async def listings() -> None:  # item 1
        while time.monotonic() < deadline:
            for path, body in (
                ("/api/engine", {"seed": 1, "rules": _HUGE_RULES}),
                ("/api/engine", {"seed": 1, "rules": _LONG_RULES}),
                ("/api/tables", {"seats": ["human", "rule"], "rules": _LONG_RULES}),
            ):
                status = await asyncio.to_thread(post, path, body)
                count(f"item1 {path} -> {status}")
            await asyncio.sleep(0.2)

    async def slow_readers() -> None:  # item 2: sockets that never read
        open_ones: list[Any] = []
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                open_ones.append(await _raw(host, port, upgrade, rcvbuf=2048))
                count("item2 slow readers opened")
            for _ in range(20):  # visitors: each sends everyone at the table a state or two
                try:
                    visitor = await _Socket.connect(f"ws://{host}:{port}/ws/{table_id}")
                    await visitor.recv()
                    await visitor.close()
                    count("item2 visitors")
                except (OSError, ConnectionError, asyncio.IncompleteReadError):
                    count("item2 visitors refused")
                await asyncio.sleep(0.05)
        for _, writer in open_ones:
            writer.close()

    async def idle_and_slowloris() -> None:  # item 3
        idle: list[Any] = []
        n = 0
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                for _ in range(20):
                    idle.append(await _raw(host, port, b""))
                    count("item3 idle connections opened")
                slow = await _raw(host, port, b"GET / HTTP/1.1\r\nHost: x\r\n")
                idle.append(slow)
                count("item3 slowloris heads started")
                for reader_writer in idle[-40:]:
                    with contextlib.suppress(OSError):
                        reader_writer[1].write(f"X-{n}: {n}\r\n".encode())
                n += 1
                if n % 10 == 0:
                    big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20)
                    _, writer = await _raw(host, port, b"")
                    writer.write(big + b"\r\n\r\n")
                    count("item3 1 MiB heads sent")
                    writer.close()
            closed = [rw for rw in idle if rw[0].at_eof() or rw[1].is_closing()]
            gone = counts.get("item3 closed by the server", 0)
            counts["item3 closed by the server"] = gone + len(closed)
            idle = [rw for rw in idle if rw not in closed]
            counts["item3 still open"] = len(idle)
            await asyncio.sleep(0.5)
            for rw in list(idle):  # read what the server said, so EOF is seen
                with contextlib.suppress(OSError, asyncio.TimeoutError):
                    await asyncio.wait_for(rw[0].read(65536), 0.001)
        for _, writer in idle:
            writer.close()

    async def flood() -> None:  # item 11: junk as fast as the socket takes it
        while time.monotonic() < deadline:
            try:
                ws = await _Socket.connect(f"ws://{host}:{port}/ws/{table_id}")
            except OSError:
                await asyncio.sleep(1.0)
                continue
            try:
                while time.monotonic() < deadline:
                    await ws.send("not an action")
                    count("item11 junk messages sent")
            except (OSError, ConnectionError):
                count("item11 flood sockets closed by the server")
            finally:
                with contextlib.suppress(Exception):
                    await ws.close()

    await asyncio.gather(listings(), slow_readers(), idle_and_slowloris(), flood())
    return dict(sorted(counts.items()))


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--hostile-client":
        print(json.dumps(asyncio.run(_hostile(sys.argv[2], float(sys.argv[3]))), indent=2))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of two people (200)")
    parser.add_argument("--search-tables", type=int, default=0, help="tables with search bots")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play (60)")
    parser.add_argument("--think", type=float, default=0.5, help="a person's pause (0.5 s)")
    parser.add_argument("--workers", type=int, default=1, help="search processes (1)")
    parser.add_argument("--budget", type=float, default=0.05, help="search seconds a move")
    parser.add_argument("--profile", metavar="FILE", help="profile the server into FILE")
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="attack the same server meanwhile from another process (issue 27: items 1, 2, 3, 11)",
    )
    parser.add_argument(
        "--client",
        choices=("small", "websockets"),
        default="small",
        help="the clients' WebSocket code: the benchmark's own small client (default) or the "
        "websockets package",
    )
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = os.path.join(folder, "bench.sqlite3")
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _SERVER,
                str(port),
                str(args.tables + args.search_tables),
                str(args.workers),
                str(args.budget),
                database,
                *([args.profile] if args.profile else []),
            ],
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"{base}/api/presets", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            hostile = None
            if args.hostile:
                hostile = subprocess.Popen(
                    [sys.executable, __file__, "--hostile-client", base, str(args.seconds + 5)],
                    stdout=subprocess.PIPE,
                )
            result = asyncio.run(_run(args, base, server.pid))
            if hostile is not None:
                out, _ = hostile.communicate(timeout=120)
                result["hostile_client"] = json.loads(out or b"{}")
        finally:
            server.terminate()
            server.wait(timeout=30)
    result["settings"] = {
        "tables": args.tables,
        "search_tables": args.search_tables,
        "think_s": args.think,
        "search_workers": args.workers,
        "client": args.client,
        "budget_s": args.budget,
        "hostile": args.hostile,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
