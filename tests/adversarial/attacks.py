"""Attacks on a running server, seeded and bounded: the adversarial tests run them short,
`bench/abuse.py` long. They only ever target loopback addresses.

- `ServerProcess`: `dominion-server` as a process of its own (its RSS, its log).
- `Probe`: an unrelated game (a network player against a bot) whose answer-to-decision
  latency is measured while an attack runs.
- `fuzz_websocket`: random and mutated frames of every message type, and WebSocket
  framing an honest client never sends, over raw sockets.
- `fuzz_rest`: every OpenAPI path with every method, with random parameters and bodies.
- `slow_readers`, `resume_flood`, `chat_flood`: the floods of findings 3, 4 and 7.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import aiohttp
import msgpack  # type: ignore[import-untyped]

from dominion.bots import NoTable, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import (
    CLIENT_MESSAGES,
    SUBPROTOCOLS,
    Ack,
    Answer,
    Catalogue,
    Chat,
    Error,
    Hello,
    Join,
    Resume,
    ServerMessage,
    Update,
    Watch,
    decode_server,
    encode_client,
)
from dominion.protocol.spec import Bool, Choice, Int, ListOf, Nullable, Spec, Str, fields_of
from tests.server.test_process import start_server

from .rawws import BINARY, CLOSE, PING, TEXT, RawSocket, frame

LOOPBACK_NAMES = ("localhost",)
RETRY_SECONDS = 0.05
"""How long the probe waits before it sends an answer the rate limit refused again."""


def loopback(url: str) -> str:
    """`url`, if it points at this machine; these attacks go nowhere else."""
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_NAMES and not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"{url}: attacks only target loopback addresses")
    return url


# -- the server as a process of its own -------------------------------------------------


@dataclass
class ServerProcess:
    """`python -m dominion.server.main` on 127.0.0.1, its log in a file."""

    process: subprocess.Popen[bytes]
    url: str
    log_path: Path

    @classmethod
    def start(cls, folder: Path, *options: str, module: str = "dominion.server.main",
              env: dict[str, str] | None = None, db: Path | None = None) -> ServerProcess:
        process, url = start_server(db or folder / "games.sqlite3", "--host", "127.0.0.1",
                                    *options, env=env, command=(sys.executable, "-m", module))
        assert process.stdout is not None
        return cls(process, url, Path(process.stdout.name))

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def log(self) -> list[dict[str, Any]]:
        """The log's JSON lines so far (a line that is not JSON is kept as its text)."""
        entries = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entries.append(json.loads(line))
            except ValueError:
                entries.append({"level": "raw", "message": line})
        return entries

    def faults(self) -> list[dict[str, Any]]:
        """What the log holds of the server's own faults: errors, tracebacks, raw text."""
        return [e for e in self.log() if e["level"] in ("error", "critical", "raw")
                or "exception" in e]

    def stop(self, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


# -- an unrelated game, measured -----------------------------------------------------


@dataclass
class Probe:
    """Plays game after game against a bot over the network (big money), and times each
    answer: from sending it to the update that brings this seat's next decision."""

    url: str
    opponent: str = "big_money"
    """The bot's strategy."""
    think_seconds: float = 0.0
    """A pause before each answer, as a person takes (not timed)."""
    latencies_ms: list[float] = field(default_factory=list)
    games: int = 0
    refused: Counter[str] = field(default_factory=Counter)

    async def play(self, session: aiohttp.ClientSession, *, games: int | None = None,
                   until: asyncio.Event | None = None) -> None:
        """Play `games` games, or until `until` is set (then the game in hand is left)."""
        while (games is None or self.games < games) and not (until and until.is_set()):
            await self._one_game(session, until)

    async def _one_game(self, session: aiohttp.ClientSession,
                        until: asyncio.Event | None) -> None:
        async with session.post(f"{self.url}/api/v1/games", json={
                "name": "Probe", "seats": 2, "kingdom": "First Game",
                "bots": {"1": self.opponent},
                # the server is timed, not the bot's pace (0.8 s an answer by default)
                "bot_pace": "instant"}) as created:
            body = await created.json()
            assert created.status == 201, body
        game, token = body["game"]["id"], body["token"]
        strategy = make_strategy("big_money", random.Random(self.games))
        async with session.ws_connect(f"{self.url}/api/v1/ws",
                                      protocols=(SUBPROTOCOLS[0],)) as ws:
            await ws.send_bytes(encode_client(Hello(id=1, versions=(2,), client="probe")))
            await ws.send_bytes(encode_client(Join(id=2, game=game, token=token)))
            request, sent, answer = 2, None, None
            while not (until and until.is_set()):
                message = await ws.receive(timeout=60)
                if message.type is not aiohttp.WSMsgType.BINARY:
                    raise AssertionError(f"the probe's connection ended: {message}")
                push = decode_server(message.data)
                if isinstance(push, Error):
                    self.refused[push.code] += 1
                    if push.code == "rate_limited" and answer is not None:
                        await asyncio.sleep(RETRY_SECONDS)  # the same answer, again
                        await ws.send_bytes(answer)
                    continue
                decision = _decision_of(push)
                if decision is None or decision.get("player") != 0:
                    if _over(push):
                        self.games += 1
                        return
                    continue
                if sent is not None:
                    self.latencies_ms.append((time.perf_counter() - sent) * 1000)
                request += 1
                if self.think_seconds:
                    await asyncio.sleep(self.think_seconds)
                choice = strategy.choose(WireDecision.from_map(decision), NoTable())
                answer = encode_client(Answer(id=request, game=game, decision=decision["id"],
                                              options=tuple(choice)))
                sent = time.perf_counter()
                await ws.send_bytes(answer)

    def percentiles(self) -> dict[str, float]:
        """Its latencies' count, median, 99th percentile and largest, in ms."""
        if len(self.latencies_ms) < 2:
            return {"count": len(self.latencies_ms)}
        cuts = statistics.quantiles(self.latencies_ms, n=100)
        return {"count": len(self.latencies_ms), "p50_ms": round(cuts[49], 2),
                "p99_ms": round(cuts[98], 2), "max_ms": round(max(self.latencies_ms), 2)}


def _decision_of(push: ServerMessage) -> dict[str, Any] | None:
    if isinstance(push, Update):
        return dict(push.decision) if push.decision is not None else None
    view = getattr(push, "view", None)
    return dict(view["decision"]) if view is not None and view["decision"] else None


def _over(push: ServerMessage) -> bool:
    return type(push).__name__ == "GameOver"


# -- frames an honest client never sends -----------------------------------------------


JUNK_TEXT = ["", "\x00", "\x1b[2J", "\u202e", "\ud7ff", "🂡" * 50, "a" * 600, "g-", "-" * 40,
             "%00", "' OR 1=1 --", "\n\r\t", "\u200b"]
"""Strings at the edges: empty, control and bidi characters, long, SQL, percent."""


class FrameFuzzer:
    """Frames for a greeted connection: valid requests of every type with plausible or
    hostile values, the same with fields dropped, added or of the wrong type, bytes
    flipped, cut or inserted, other msgpack values, random bytes, oversized frames."""

    def __init__(self, rng: random.Random, games: list[str], tokens: list[str]) -> None:
        self.rng, self.games, self.tokens = rng, games, tokens
        self.kinds = list(CLIENT_MESSAGES.values())

    def frame(self) -> bytes:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            return self._pack(self.request())
        if roll < 0.6:
            return self._pack(self._mutated_fields(self.request()))
        if roll < 0.8:
            return self._mutated_bytes(self._pack(self.request()))
        if roll < 0.9:
            return self._pack(self._value(4))
        if roll < 0.98:
            return rng.randbytes(rng.randrange(1, 64))
        return self._pack({"type": "chat", "id": 1, "game": "g", "text": "x" * 20000})

    def request(self) -> dict[str, Any]:
        kind = self.rng.choice(self.kinds)
        message: dict[str, Any] = {"type": kind.TYPE}
        for f in fields_of(kind):
            if isinstance(f.spec, Nullable) and self.rng.random() < 0.3:
                continue
            message[f.key] = self._plausible(f.key, f.spec)
        return message

    def _plausible(self, key: str, spec: Spec) -> Any:
        rng = self.rng
        if key == "game" and self.games and rng.random() < 0.8:
            return rng.choice(self.games)
        if key == "token" and self.tokens and rng.random() < 0.5:
            return rng.choice(self.tokens)
        if isinstance(spec, Nullable):
            return self._plausible(key, spec.inner)
        if isinstance(spec, Int):
            return rng.choice([spec.min, spec.max, rng.randint(spec.min, min(spec.max, 300))])
        if isinstance(spec, Str):
            return rng.choice([*JUNK_TEXT, "hello"])[: spec.max_len] or "x"
        if isinstance(spec, ListOf):
            return [self._plausible(key, spec.item) for _ in range(rng.randrange(4))]
        if isinstance(spec, Bool):
            return rng.random() < 0.5
        if isinstance(spec, Choice):  # a rematch's kingdom
            return rng.choice([*(member.value for member in spec.values), *JUNK_TEXT])
        return self._value(2)

    def _mutated_fields(self, message: dict[str, Any]) -> dict[str, Any]:
        rng = self.rng
        for _ in range(rng.randrange(1, 4)):
            choice = rng.random()
            keys = list(message)
            if choice < 0.4:
                message[rng.choice(keys)] = self._value(3)
            elif choice < 0.6 and len(keys) > 1:
                del message[rng.choice(keys)]
            elif choice < 0.8:
                message[rng.choice(JUNK_TEXT) or "extra"] = self._value(2)
            else:
                message["type"] = rng.choice([*JUNK_TEXT, "update", "snapshot", "welcome"])
        return message

    def _mutated_bytes(self, data: bytes) -> bytes:
        rng, buffer = self.rng, bytearray(data)
        for _ in range(rng.randrange(1, 5)):
            at = rng.randrange(len(buffer) + 1)
            choice = rng.random()
            if choice < 0.4 and buffer:
                buffer[min(at, len(buffer) - 1)] ^= 1 << rng.randrange(8)
            elif choice < 0.6:
                del buffer[at:]
            elif choice < 0.8:
                buffer[at:at] = rng.randbytes(rng.randrange(1, 8))
            elif buffer:
                buffer += buffer[: rng.randrange(1, len(buffer) + 1)]
        return bytes(buffer)

    def _value(self, depth: int) -> Any:
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.5:
            return rng.choice([None, True, False, -1, 0, 2**31, 2**63 - 1, -(2**63), 2**64 - 1,
                               1.5, float("inf"), b"\x00\xff", rng.choice(JUNK_TEXT)])
        if roll < 0.75:
            return [self._value(depth - 1) for _ in range(rng.randrange(4))]
        if roll < 0.95:
            return {rng.choice(["type", "id", "game", "x", ""]): self._value(depth - 1)
                    for _ in range(rng.randrange(4))}
        nested: Any = 0
        for _ in range(rng.randrange(10, 40)):  # deeper than any frame may be
            nested = [nested]
        return nested

    def _pack(self, value: Any) -> bytes:
        data: bytes = msgpack.packb(value, use_bin_type=True)
        if self.rng.random() < 0.02:
            data += msgpack.packb(msgpack.ExtType(5, b"ext"))  # two values, an ext type
        return data


def framing_junk(rng: random.Random, payload: bytes) -> bytes:
    """One WebSocket frame no honest client sends: text, unmasked, reserved bits, an
    unknown opcode, a continuation with nothing to continue, a ping too long, a close
    with a bad code, a fragment never finished, a length that lies."""
    choice = rng.randrange(9)
    if choice == 0:
        return frame(payload, opcode=TEXT)
    if choice == 1:
        return frame(payload, mask=False)
    if choice == 2:
        return frame(payload, rsv=rng.randrange(1, 8))
    if choice == 3:
        return frame(payload, opcode=rng.choice([3, 4, 5, 6, 7, 0xB, 0xC, 0xF]))
    if choice == 4:
        return frame(payload, opcode=0)
    if choice == 5:
        return frame(b"p" * 200, opcode=PING)
    if choice == 6:
        return frame(rng.randrange(0, 5000).to_bytes(2, "big") + b"bye", opcode=CLOSE)
    if choice == 7:
        return frame(payload, fin=False)
    return frame(payload)[:2] + b"\xff" * 8  # a length field that lies


@dataclass
class FuzzReport:
    frames: int = 0
    replies: int = 0
    stalls: int = 0
    """Times a connection's frames went `STALL_SECONDS` without an answer."""
    connections: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {"frames": self.frames, "replies": self.replies, "stalls": self.stalls,
                "connections": self.connections,
                "errors": dict(self.errors.most_common()),
                "closes": dict(self.closes.most_common())}


async def fuzz_websocket(url: str, *, frames: int, seed: int, games: list[str],
                         tokens: list[str], connections: int = 4,
                         framing: float = 0.03) -> FuzzReport:
    """Send `frames` fuzzed frames over `connections` raw sockets at a time (a closed one
    is replaced), at most `WINDOW` ahead of their answers, reading every reply; a share
    `framing` of them break WebSocket framing."""
    loopback(url)
    report = FuzzReport()
    rng = random.Random(seed)
    fuzzer = FrameFuzzer(rng, games, tokens)
    left = [frames]

    async def one_connection() -> None:
        while left[0] > 0:
            report.connections += 1
            client = await RawSocket.open(url)
            answered = asyncio.Event()
            tally = [0, 0]  # frames sent, answers read (acks, errors, welcomes)
            reader = asyncio.ensure_future(_read_replies(client, report, tally, answered))
            try:
                if rng.random() < 0.9:
                    client.send(encode_client(Hello(id=0, versions=(2, 1), client="fuzz")))
                    tally[0] += 1
                while left[0] > 0 and not reader.done():
                    left[0] -= 1
                    report.frames += 1
                    payload = fuzzer.frame()
                    if rng.random() < framing:
                        # the connection may be broken now (a length that lies leaves
                        # the server waiting for bytes): the next frames go to another
                        client.send_bytes(framing_junk(rng, payload))
                        break
                    client.send(payload)
                    tally[0] += 1
                    while tally[0] - tally[1] > WINDOW and not reader.done():
                        answered.clear()
                        try:
                            await asyncio.wait_for(answered.wait(), STALL_SECONDS)
                        except TimeoutError:
                            report.stalls += 1
            finally:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(reader), 0.5)
                client.close()
                await asyncio.gather(reader, return_exceptions=True)

    await asyncio.gather(*(one_connection() for _ in range(connections)))
    return report


WINDOW = 8
"""Frames a fuzzing connection sends ahead of their answers."""
STALL_SECONDS = 0.25
"""How long a fuzzing connection waits for answers before it sends on anyway."""


async def _read_replies(client: RawSocket, report: FuzzReport, tally: list[int],
                        answered: asyncio.Event) -> None:
    with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, TimeoutError):
        while True:
            opcode, payload = await client.read(timeout=30)
            if opcode == CLOSE:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                report.closes[str(code)] += 1
                return
            if opcode != BINARY:
                continue
            reply = decode_server(payload)
            if isinstance(reply, Ack | Error) or type(reply).__name__ == "Welcome":
                report.replies += 1
                tally[1] += 1
                answered.set()
            if isinstance(reply, Error):
                report.errors[reply.code] += 1


# -- REST --------------------------------------------------------------------------------


METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


@dataclass
class RestReport:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    created: int = 0
    joined: int = 0
    left: int = 0
    answers: list[tuple[str, str, int, str, str]] = field(default_factory=list)
    """(method, path, status, content type, body) of every answer, to check."""


class RestFuzzer:
    def __init__(self, rng: random.Random, document: dict[str, Any], games: list[str]) -> None:
        self.rng, self.document, self.games = rng, document, games

    def request(self) -> tuple[str, str, dict[str, Any]]:
        """A method, a path with its query, and aiohttp request options."""
        rng = self.rng
        template = rng.choice([t for t in self.document["paths"] if t != "/api/v1/ws"])
        item = self.document["paths"][template]
        # (a path may have DELETE alone: a passkey's)
        documented = [m.upper() for m in item if m in {"get", "post", "delete"}]
        method = rng.choice(documented) if rng.random() < 0.85 else rng.choice(METHODS)
        path = template.replace("{game_id}", quote(self._game_id(), safe="")).replace(
            "{name}", quote(rng.choice(["Ann", *JUNK_TEXT[1:]]), safe="")).replace(
            "{passkey_id}", quote(rng.choice(["1", "0", *JUNK_TEXT[1:]]), safe=""))
        operation = item.get(method.lower(), {})
        query = [(p["name"], self._value_for(p.get("schema", {})))
                 for p in operation.get("parameters", []) if p.get("in") == "query"
                 and rng.random() < 0.5]
        if rng.random() < 0.1:
            query.append((rng.choice(JUNK_TEXT) or "x", rng.choice(JUNK_TEXT)))
        if query:
            path += "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}"
                                   for k, v in query)
        return method, path, self._body(template) if method == "POST" else {}

    def _game_id(self) -> str:
        rng = self.rng
        if self.games and rng.random() < 0.6:
            return rng.choice(self.games)
        return rng.choice(["g-000000000000", "g-" + "f" * 12, *JUNK_TEXT[1:], "..", "g-1/x"])

    def _value_for(self, schema: dict[str, Any]) -> str:
        rng = self.rng
        candidates = ["-1", "0", "1", "2", "101", "9223372036854775808", "1e3", "nan", "",
                      "2026-01-01", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
                      "2026-13-45", "finished", "playing", "open", "json", "msgpack", "text",
                      "smithy", "copper", *JUNK_TEXT]
        for key in ("enum",):
            if key in schema and rng.random() < 0.5:
                return str(rng.choice(schema[key]))
        return rng.choice(candidates)

    def _body(self, template: str) -> dict[str, Any]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.1:
            return {"data": rng.randbytes(rng.randrange(64)),
                    "headers": {"Content-Type": "application/json"}}
        if roll < 0.15:
            return {"data": b"{}", "headers": {"Content-Type": "text/plain"}}
        if roll < 0.2:
            return {"data": b"[" * 5000, "headers": {"Content-Type": "application/json"}}
        body: dict[str, Any] = {}
        if template.endswith("/games"):
            body = {"name": rng.choice(["Ann", *JUNK_TEXT]), "seats": rng.choice(
                [2, 3, 6, 1, 7, "2", 2.0, True, None]), "kingdom": rng.choice(
                [None, "First Game", "nope", ["smithy"] * 10, 5]), "edition": rng.choice(
                [1, 2, 3, "2", None]), "bots": rng.choice(
                [{}, {"1": "big_money"}, {"0": "big_money"}, {"1": "nope"}, [], {"01": "random"}]),
                "spectator_chat": rng.choice([True, False, "no", None])}
        elif template.endswith("/join"):
            body = {"name": rng.choice(["Bob", *JUNK_TEXT])}
        elif template.endswith("/leave"):
            body = {"token": rng.choice(["x" * 32, "-" + "a" * 31, *JUNK_TEXT, 5, None])}
        if rng.random() < 0.3:  # a request that should be taken, to reach past the checks
            body = {"name": "Ann", "seats": 3, "kingdom": None} if template.endswith(
                "/games") else {"name": "Bob"} if template.endswith("/join") else body
        for key in list(body):
            if rng.random() < 0.1:
                del body[key]
        data = json.dumps(body, ensure_ascii=rng.random() < 0.5)
        return {"data": data.encode("utf-8", "surrogatepass"),
                "headers": {"Content-Type": "application/json"}}


async def fuzz_rest(url: str, *, requests: int, seed: int, document: dict[str, Any],
                    games: list[str]) -> RestReport:
    loopback(url)
    fuzzer = RestFuzzer(random.Random(seed), document, games)
    report = RestReport()
    async with aiohttp.ClientSession() as session:
        for _ in range(requests):
            method, path, options = fuzzer.request()
            async with session.request(method, url + path, allow_redirects=False,
                                       **options) as reply:
                body = await reply.read()
                report.requests += 1
                report.statuses[reply.status] += 1
                text = body.decode("utf-8", "replace")
                # the path as sent: the client resolves dot segments, as browsers do
                report.answers.append((method, reply.url.raw_path, reply.status,
                                       reply.content_type, text))
                if reply.content_type == "application/json" and reply.status >= 400:
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        report.codes[json.loads(text)["error"]["code"]] += 1
                if method == "POST" and reply.status in (200, 201):
                    kind = path.split("?")[0].rsplit("/", 1)[-1]
                    if kind == "games":
                        report.created += 1
                        fuzzer.games.append(json.loads(text)["game"]["id"])
                    elif kind == "join":
                        report.joined += 1
                    elif kind == "leave":
                        report.left += 1
    return report


# -- floods -----------------------------------------------------------------------------


async def finished_game(session: aiohttp.ClientSession, url: str) -> str:
    """A game its creator never joins: after the grace period bots play it out, at once
    (at the default pace, 0.8 s an answer, that took a minute, with a probe playing all
    along in bench/abuse.py's phases). (Run the server with a short
    `--seat-grace-seconds`.) Its id, once it has finished."""
    async with session.post(f"{url}/api/v1/games", json={
            "name": "Gone", "seats": 2, "kingdom": "First Game",
            "bots": {"1": "big_money"}, "bot_pace": "instant"}) as created:
        game: str = (await created.json())["game"]["id"]
    while True:
        async with session.get(f"{url}/api/v1/games/{game}") as summary:
            if (await summary.json())["state"] == "finished":
                return game
        await asyncio.sleep(0.05)


async def slow_readers(url: str, *, connections: int, requests: int,
                       hold: float = 2.0) -> None:
    """Connections that ask for the card catalogue (~6.5 KB each) and never read; they
    go after `hold` seconds."""
    loopback(url)
    clients = [await RawSocket.open(url, receive_buffer=4096) for _ in range(connections)]
    for client in clients:
        client.send(encode_client(Hello(id=1, versions=(2,), client="slow")))
    for request in range(2, requests + 2):
        for client in clients:
            client.send(encode_client(Catalogue(id=request)))
        if request % 20 == 0:
            await asyncio.sleep(0.001)
    await asyncio.sleep(hold)
    for client in clients:
        client.close()


async def resume_flood(url: str, game: str, *, connections: int, seconds: float) -> Counter[str]:
    """Spectators resuming `game` from event 0 as fast as they are answered; the replies'
    kinds (`update`, `snapshot`, or an error's code)."""
    loopback(url)
    replies: Counter[str] = Counter()

    async def one(session: aiohttp.ClientSession, end: float) -> None:
        async with session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],)) as ws:
            await ws.send_bytes(encode_client(Hello(id=1, versions=(2,), client="resume")))
            await ws.receive()
            request = 2
            while time.monotonic() < end:
                request += 1
                await ws.send_bytes(encode_client(Resume(id=request, game=game, last_seq=0)))
                while True:  # the ack or error, then (if accepted) the update or snapshot
                    reply = decode_server((await ws.receive(timeout=30)).data)
                    if isinstance(reply, Error):
                        replies[reply.code] += 1
                        await asyncio.sleep(0.01)
                        break
                    if not isinstance(reply, Ack):
                        replies[type(reply).__name__.lower()] += 1
                        break

    async with aiohttp.ClientSession() as session:
        end = time.monotonic() + seconds
        await asyncio.gather(*(one(session, end) for _ in range(connections)))
    return replies


async def chatter_token(url: str, name: str = "Chatter") -> str:
    """A play token of a new account: spectators chat only signed in."""
    loopback(url)
    jar = aiohttp.CookieJar(unsafe=True)  # the session cookie of a loopback address
    async with aiohttp.ClientSession(cookie_jar=jar, headers={"Origin": url}) as session:
        async with session.post(f"{url}/api/v1/account/register", json={
                "name": name, "password": "correct horse battery"}) as registered:
            assert registered.status == 201, await registered.text()
        async with session.post(f"{url}/api/v1/account/tokens", json={
                "description": "chat flood", "scopes": ["play"]}) as made:
            assert made.status == 201, await made.text()
            secret: str = (await made.json())["token"]["secret"]
    return secret


async def chat_flood(url: str, game: str, *, connections: int, seconds: float,
                     access_token: str) -> Counter[str]:
    """Spectators, signed in with `access_token`, chatting 500-character lines as fast as
    they are answered."""
    loopback(url)
    replies: Counter[str] = Counter()

    async def one(session: aiohttp.ClientSession, end: float) -> None:
        async with session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],)) as ws:
            for message in (Hello(id=1, versions=(2,), client="chat", access_token=access_token),
                            Watch(id=2, game=game)):
                await ws.send_bytes(encode_client(message))
            request = 2
            while time.monotonic() < end:
                request += 1
                await ws.send_bytes(encode_client(Chat(id=request, game=game, text="x" * 500)))
                while True:
                    reply = decode_server((await ws.receive(timeout=30)).data)
                    if isinstance(reply, Ack | Error) and reply.id == request:
                        replies["accepted" if isinstance(reply, Ack) else reply.code] += 1
                        if isinstance(reply, Error):
                            await asyncio.sleep(0.01)
                        break

    async with aiohttp.ClientSession() as session:
        end = time.monotonic() + seconds
        await asyncio.gather(*(one(session, end) for _ in range(connections)))
    return replies


def loopback_sources(count: int) -> list[str]:
    """`count` source addresses of 127.0.0.0/8 besides 127.0.0.1 (the probe's): each a
    client address of its own to the server."""
    return [f"127.0.{n // 250}.{2 + n % 250}" for n in range(count)]


async def finished_games(url: str, sources: list[str], *, each: int) -> None:
    """`each` games from every source that their creators never join, played out by bots
    at once (run the server with a short `--seat-grace-seconds`); back once all have
    finished."""
    loopback(url)

    async def create(source: str) -> list[str]:
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(source, 0))) as session:
            games = []
            for _ in range(each):
                async with session.post(f"{url}/api/v1/games", json={
                        "name": "Gone", "seats": 2, "bots": {"1": "big_money"},
                        "bot_pace": "instant"}) as created:
                    games.append((await created.json())["game"]["id"])
            return games

    created = [game for games in await asyncio.gather(*(create(s) for s in sources))
               for game in games]
    async with aiohttp.ClientSession() as session:
        while True:
            async with session.get(f"{url}/api/v1/games?state=finished&limit=1") as listing:
                if (await listing.json())["total"] >= len(created):
                    return
            await asyncio.sleep(0.1)


async def address_flood(url: str, sources: list[str], *, seconds: float,
                        tables: int) -> Counter[str]:
    """Every source at once, each within its own limits: it opens up to `tables` tables
    (4 seats, never filled), then for `seconds` exports every ended game's replay, again
    and again, reading each export to its end and waiting as long as a refusal says. Counted:
    `tables`, `replays` (export lines read), and each refusal's code."""
    loopback(url)
    counts: Counter[str] = Counter()

    async def one(source: str) -> None:
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(source, 0), limit=2)) as session:
            for _ in range(tables):
                async with session.post(f"{url}/api/v1/games", json={
                        "name": "Squatter", "seats": 4}) as created:
                    body = await created.json()
                    if created.status != 201:
                        counts[body["error"]["code"]] += 1
                        break
                    counts["tables"] += 1
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                async with session.get(f"{url}/api/v1/replays/export?limit=1000") as export:
                    if export.status != 200:
                        error = (await export.json())["error"]
                        counts[error["code"]] += 1
                        await asyncio.sleep(error.get("retry_after_ms", 100) / 1000)
                        continue
                    async for line in export.content:
                        counts["replays"] += bool(line.strip())
                        if time.monotonic() >= end:
                            break

    await asyncio.gather(*(one(source) for source in sources))
    return counts
