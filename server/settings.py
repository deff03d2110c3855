"""Server settings: each one a command-line option and an environment variable."""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any

from dominion.bots.pace import BotPace
from dominion.protocol.limits import MAX_UPDATE_EVENTS

from .logs import LogFormat
from .version import version_text

ENV_PREFIX = "DOMINION_"
MAX_BOT_WORKERS = 64
NODE_NAME = re.compile(r"[a-z0-9]{1,16}")
"""What a node may be called: it goes into game ids and nginx upstream names."""


class DumpEvery(StrEnum):
    """How often the server makes a dump of its ended games (`--dump-every`)."""

    OFF = "off"
    """Never: `dominion-server dump` is run by hand or by a timer (deploy/systemd)."""
    DAY = "day"
    """Each UTC day's games, once the day has ended."""
    MONTH = "month"
    """Each UTC month's games, once the month has ended."""


class _PrintVersion(argparse.Action):
    """`--version`: computed only when asked (it reads which engine the build made)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_text())
        parser.exit()


@dataclass(frozen=True)
class Settings:
    host: str = field(default="127.0.0.1", metadata={"help": "address to listen on"})
    port: int = field(default=8080, metadata={
        "help": "port to listen on (0: one the system chooses, said in the `listening on` log "
                "line)"})
    db: str = field(default="dominion.sqlite3", metadata={"help": "SQLite file (created if new)"})
    server_name: str = field(default="dominion-server", metadata={
        "help": "server name shown to clients (DOMINION_NAME is the client's player name)"})
    public_url: str = field(default="", metadata={"help": "the URL players use, if proxied"})
    allowed_origins: tuple[str, ...] = field(default=(), metadata={
        "help": "comma-separated Origins allowed to open WebSockets from a browser "
                "('*' for any); requests without an Origin header are always allowed"})
    trusted_proxies: tuple[str, ...] = field(default=(), metadata={
        "help": "comma-separated proxy addresses or networks (10.0.0.0/8) whose "
                "X-Forwarded-For is believed"})
    max_frame_bytes: int = field(default=16384, metadata={"help": "largest client frame"})
    messages_per_second: int = field(default=50, metadata={
        "help": "per-connection message rate (token bucket refill)"})
    burst: int = field(default=100, metadata={"help": "per-connection burst of messages"})
    heartbeat_seconds: int = field(default=20, metadata={
        "help": "ping a connection after this long without output"})
    idle_timeout_seconds: int = field(default=60, metadata={
        "help": "close a connection after this long without input"})
    hello_timeout_seconds: float = field(default=10.0, metadata={
        "help": "close a connection that has not said hello by then"})
    outbound_queue: int = field(default=1024, metadata={
        "help": "frames queued per connection before a slow reader is disconnected"})
    outbound_bytes: int = field(default=1024 * 1024, metadata={
        "help": "bytes waiting for a connection before a slow reader is disconnected"})
    outbound_total_bytes: int = field(default=64 * 1024 * 1024, metadata={
        "help": "bytes waiting for all connections together beyond which any connection "
                "that is not reading is disconnected"})
    max_chat_length: int = field(default=500, metadata={"help": "longest chat message"})
    seat_grace_seconds: float = field(default=120.0, metadata={
        "help": "how long a disconnected player's seat waits for them"})
    absent_seat: str = field(default="bot", metadata={
        "help": "when the grace period ends: 'bot' (a bot takes the seat) or 'abandon' "
                "(the game is abandoned; in a rated game the absent player resigns)"})
    rated_min_turns: int = field(default=2, metadata={
        "help": "turns each player of a rated game must begin themselves (before resigning) "
                "for it to be rated; a shorter game ends unrated (0: every finished rated "
                "game is rated)"})
    rated_time_control: str = field(default="10+5", metadata={
        "help": "the clock of rated and automatch tables that do not choose one: minutes "
                "each + seconds added when a player's turn ends, like 10+5 (never none)"})
    unrated_time_control: str = field(default="none", metadata={
        "help": "the clock of unrated tables that do not choose one, like 10+5; none: no "
                "clock"})
    rated_games_per_pair_per_day: int = field(default=5, metadata={
        "help": "rated games any two accounts may count against each other in 24 hours; "
                "further games between them are kept in the ledger but change no rating "
                "(0: no limit)"})
    takeover_strategy: str = field(default="big_money", metadata={
        "help": "strategy of bots that take over seats"})
    bot_pace: BotPace = field(default=BotPace.NORMAL, metadata={
        "help": "how fast the server's bots answer at a table whose creator does not "
                "choose (`bot_pace`): instant, fast, normal or slow (0, 0.3, 0.8 or 1.5 s "
                "before each answer); a bot account's tables are instant"})
    bot_delay_seconds: float = field(default=0.0, metadata={
        "help": "if more than 0, the pause before every bot's answer at every table, in "
                "place of the table's bot_pace"})
    bot_workers: int = field(default=1, metadata={
        "help": "worker processes the strong bot thinks in, for all games together (0: it "
                "thinks in the server's event loop, like the other bots)"})
    games_per_address: int = field(default=20, metadata={
        "help": "open or running games one client address may create"})
    games_per_hour: int = field(default=120, metadata={
        "help": "games one client address may create per hour (in bursts of up to as many)"})
    chat_per_minute: int = field(default=20, metadata={
        "help": "chat lines one client address may send per minute (in bursts of up to as "
                "many)"})
    connections_per_address: int = field(default=50, metadata={
        "help": "WebSocket connections one client address may hold"})
    http_connections_per_address: int = field(default=64, metadata={
        "help": "plain HTTP connections (not WebSockets) one client address may hold; not "
                "counted for trusted proxies. Every WebSocket starts as one: keep it at "
                "least connections_per_address"})
    body_timeout_seconds: float = field(default=5.0, metadata={
        "help": "how long a request's body may take to arrive before the connection is "
                "closed"})
    ipv4_prefix: int = field(default=32, metadata={
        "help": "IPv4 addresses in one network of this prefix length count as one client "
                "address for every per-address limit"})
    ipv6_prefix: int = field(default=64, metadata={
        "help": "IPv6 addresses in one network of this prefix length count as one client "
                "address (a host is usually given a /64)"})
    open_tables: int = field(default=1_000, metadata={
        "help": "open tables (created, not started) the whole server holds at once"})
    open_table_seconds: float = field(default=1800.0, metadata={
        "help": "how long an open table waits for its next player: this long after it was "
                "created, or after its latest player sat down, it lapses (abandoned, gone "
                "from the lobby); 0: never"})
    ended_room_seconds: float = field(default=60.0, metadata={
        "help": "how long an ended game stays live (for resuming clients) before only its "
                "replay remains"})
    rematch_seconds: float = field(default=60.0, metadata={
        "help": "how long a rematch offer waits for every player's answer before it "
                "expires"})
    resume_window: int = field(default=10_000, metadata={
        "help": "a spectator's resume missing more events than this gets a snapshot "
                "instead (a seat always gets its own events)"})
    resume_cache_events: int = field(default=100_000, metadata={
        "help": "events of running games' histories kept in memory for resumes and "
                "replays (~170 bytes each)"})
    work_per_second: int = field(default=5_000, metadata={
        "help": "events that resumes and running games' replays may re-derive and send "
                "per second, per connection and per address"})
    work_burst: int = field(default=10_000, metadata={
        "help": "the most such work one connection or address may save up (10,000 is "
                "~50 ms of CPU); a resume that would cost more gets a snapshot"})
    server_work_per_second: int = field(default=10_000, metadata={
        "help": "such work the whole server may do per second, every address together "
                "(each address's work is also taken from it; 10,000 is ~50 ms of CPU), so "
                "that no number of addresses can take the event loop from the games"})
    server_work_burst: int = field(default=10_000, metadata={
        "help": "the most such work the whole server may save up (at least work_burst, "
                "or a large resume could be refused for its size alone)"})
    sqlite_synchronous: str = field(default="FULL", metadata={
        "help": "SQLite synchronous setting: FULL (safest) or NORMAL"})
    node: str = field(default="", metadata={
        "help": "this process's name among several behind one address (a to z, 0 to 9; "
                "with --redis); empty: a single server"})
    redis: str = field(default="", metadata={
        "help": "Redis URL the nodes share (redis://host:6379/0); empty: no Redis, one process"})
    node_url: str = field(default="", metadata={
        "help": "the URL other nodes reach this one at (default: http://HOST:PORT)"})
    cluster_refresh_seconds: float = field(default=2.0, metadata={
        "help": "how often a node refreshes its turn numbers and heartbeat in Redis"})
    automatch_wave_seconds: float = field(default=2.0, metadata={
        "help": "how often waiting seeks are formed into tables (one node of a cluster "
                "does it, holding a lease)"})
    automatch_confirm_seconds: float = field(default=10.0, metadata={
        "help": "how long every player of a table formed by automatch has to accept it "
                "before it is dissolved"})
    automatch_grace_seconds: float = field(default=15.0, metadata={
        "help": "how long a seek keeps its place after its connection (or node) is gone: "
                "a reconnect within it takes the place up again"})
    automatch_apart_strikes: int = field(default=2, metadata={
        "help": "declined or lapsed automatch tables within --automatch-apart-seconds "
                "after which a player is matched only with others who also failed tables"})
    automatch_apart_seconds: float = field(default=600.0, metadata={
        "help": "the window those declined or lapsed tables are counted in"})
    accounts_url: str = field(default="", metadata={
        "help": "PostgreSQL URL where accounts and sessions live, shared by every node "
                "(postgresql://user:password@host/db); empty: a SQLite file beside --db"})
    hashes_at_once: int = field(default=2, metadata={
        "help": "password hashes computed at once, server-wide (each keeps a core busy)"})
    password_time_cost: int = field(default=3, metadata={
        "help": "Argon2id passes over memory per password hash"})
    password_memory_kib: int = field(default=65536, metadata={
        "help": "Argon2id memory per password hash, in KiB"})
    session_days: float = field(default=30.0, metadata={
        "help": "how long a sign-in lasts without signing in again"})
    moderation_refresh_seconds: float = field(default=1.0, metadata={
        "help": "how often a node looks for bans, mutes, deleted accounts, revoked "
                "access tokens and ended or expired sessions made on other nodes (in the "
                "account store)"})
    ratings_retry_seconds: float = field(default=60.0, metadata={
        "help": "the longest a finished rated game waits between tries to reach the "
                "account store's ledger (the wait doubles from 1 second up to this)"})
    dumps: str = field(default="", metadata={
        "help": "the folder of the dumps (`dominion-server dump`'s files), listed at "
                "/api/v1/dumps, served at /dumps/NAME and read by the card statistics; "
                "empty: none"})
    dump_every: DumpEvery = field(default=DumpEvery.OFF, metadata={
        "help": "make each UTC day's (day) or month's (month) dump into --dumps once it "
                "has ended (at the start, the last ended one if it is missing); off: none"})
    stats_refresh_seconds: float = field(default=300.0, metadata={
        "help": "how often the card statistics look for new dumps in --dumps (and at once "
                "after each dump the server makes)"})
    archive_keep_hours: float = field(default=168.0, metadata={
        "help": "how long a node keeps an ended game in its own database once the shared "
                "archive has it (then it is pruned; 0: at once). Keep it longer than the "
                "archive's backups are apart (docs/STORAGE.md, \"The archive\")"})
    admin_per_minute: int = field(default=120, metadata={
        "help": "admin requests one client address may make per minute (in bursts of up "
                "to as many)"})
    reports_per_hour: int = field(default=20, metadata={
        "help": "reports of players one client address may make per hour (in bursts of up "
                "to as many)"})
    log_level: str = field(default="INFO", metadata={"help": "DEBUG, INFO, WARNING or ERROR"})
    log_format: LogFormat = field(default=LogFormat.AUTO, metadata={
        "help": "text (for people), json (one object a line, for programs), or auto (text "
                "when standard error is a terminal, else json)"})
    event_loop: str = field(default="auto", metadata={
        "help": "asyncio, uvloop, or auto (uvloop when installed; it is a dependency)"})

    @classmethod
    def from_sources(cls, argv: Sequence[str] | None = None,
                     environ: Mapping[str, str] | None = None) -> Settings:
        """Defaults, overridden by DOMINION_* environment variables, overridden by options."""
        environ = os.environ if environ is None else environ
        parser = argparse.ArgumentParser(
            prog="dominion-server",
            description="The authoritative Dominion server. Every option can also be set "
                        f"with an environment variable {ENV_PREFIX}<OPTION>, e.g. "
                        f"{ENV_PREFIX}PORT=9000.",
        )
        parser.add_argument("--version", action=_PrintVersion, nargs=0,
                            help="print the version and the engine (compiled or pure "
                                 "Python, and why), and exit")
        for f in fields(cls):
            env = ENV_PREFIX + f.name.upper()
            default = environ.get(env, f.default)
            parser.add_argument(
                "--" + f.name.replace("_", "-"), dest=f.name, default=default,
                help=f"{f.metadata['help']} (env {env}; default {_show(f.default)})",
            )
        namespace = parser.parse_args(argv)
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = getattr(namespace, f.name)
            try:
                values[f.name] = _convert(raw, f.default)
            except ValueError:
                parser.error(f"--{f.name.replace('_', '-')}: cannot read {raw!r}"
                             f"{_choices(f.default)}")
        settings = cls(**values)
        problem = settings.problem()
        if problem:
            parser.error(problem)
        return settings

    def problem(self) -> str | None:
        """What is wrong with these settings, if anything."""
        from dominion.bots import STRATEGIES

        if self.takeover_strategy not in STRATEGIES:
            return f"--takeover-strategy must be one of {', '.join(STRATEGIES)}"
        if not 0 <= self.bot_workers <= MAX_BOT_WORKERS:
            return f"--bot-workers must be 0 to {MAX_BOT_WORKERS}"
        if self.event_loop not in ("auto", "asyncio", "uvloop"):
            return "--event-loop must be auto, asyncio or uvloop"
        if self.rated_min_turns < 0:
            return "--rated-min-turns must be 0 or more"
        if self.rated_games_per_pair_per_day < 0:
            return "--rated-games-per-pair-per-day must be 0 or more"
        clocks = _time_controls_problem(self)
        if clocks:
            return clocks
        if self.absent_seat not in ("bot", "abandon"):
            return "--absent-seat must be 'bot' or 'abandon'"
        if self.sqlite_synchronous.upper() not in ("FULL", "NORMAL"):
            return "--sqlite-synchronous must be FULL or NORMAL"
        if not 0 <= self.port < 65536:
            return "--port must be 0 to 65535"
        if not 1024 <= self.max_frame_bytes <= 16384:
            return "--max-frame-bytes must be 1024 to 16384 (the protocol's limits)"
        if not 1 <= self.max_chat_length <= 500:
            return "--max-chat-length must be 1 to 500 (the protocol's limit)"
        if not 0 <= self.resume_window <= MAX_UPDATE_EVENTS:
            return (f"--resume-window must be 0 to {MAX_UPDATE_EVENTS} (the events one "
                    "protocol update may hold)")
        proxy = next((entry for entry in self.trusted_proxies if not _is_address_or_network(
            entry)), None)
        if proxy is not None:
            return (f"--trusted-proxies: {proxy!r} is neither an address (10.0.0.5) nor a "
                    "network (10.0.0.0/8)")
        cluster = _node_problem(self)
        if cluster:
            return cluster
        accounts = _accounts_problem(self)
        if accounts:
            return accounts
        if not (1 <= self.ipv4_prefix <= 32 and 1 <= self.ipv6_prefix <= 128):
            return "--ipv4-prefix is 1 to 32 and --ipv6-prefix 1 to 128"
        if min(self.messages_per_second, self.burst, self.outbound_queue, self.outbound_bytes,
               self.outbound_total_bytes,
               self.heartbeat_seconds, self.idle_timeout_seconds, self.work_per_second,
               self.work_burst, self.server_work_per_second, self.server_work_burst,
               self.resume_cache_events, self.games_per_hour, self.chat_per_minute,
               self.http_connections_per_address, self.open_tables, self.admin_per_minute,
               self.reports_per_hour) < 1:
            return ("rates, bursts, queue sizes, caches, connection counts, heartbeat and "
                    "idle timeout must be at least 1")
        if self.open_table_seconds < 0:
            return "--open-table-seconds must be 0 (never) or more"
        if self.body_timeout_seconds <= 0:
            return "--body-timeout-seconds must be more than 0"
        if self.moderation_refresh_seconds <= 0:
            return "--moderation-refresh-seconds must be more than 0"
        if self.ratings_retry_seconds <= 0:
            return "--ratings-retry-seconds must be more than 0"
        if self.stats_refresh_seconds <= 0:
            return "--stats-refresh-seconds must be more than 0"
        if self.dump_every is not DumpEvery.OFF and not self.dumps:
            return "--dump-every needs --dumps, the folder to write the dumps into"
        if not 0 <= self.archive_keep_hours <= 87_600:
            return "--archive-keep-hours must be 0 to 87600 (ten years)"
        if min(self.automatch_wave_seconds, self.automatch_confirm_seconds,
               self.automatch_grace_seconds) <= 0:
            return ("--automatch-wave-seconds, --automatch-confirm-seconds and "
                    "--automatch-grace-seconds must be more than 0")
        if self.automatch_apart_strikes < 1 or self.automatch_apart_seconds <= 0:
            return ("--automatch-apart-strikes must be at least 1, "
                    "--automatch-apart-seconds more than 0")
        return None


def _convert(raw: Any, default: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    if isinstance(default, Enum):
        return type(default)(raw.lower())
    if isinstance(default, tuple):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    if isinstance(default, bool):
        return raw.lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    return raw


def _choices(default: Any) -> str:
    """The values a setting may take, for its error, when they are few."""
    if isinstance(default, Enum):
        return f" (one of {', '.join(member.value for member in type(default))})"
    return ""


def _show(default: Any) -> str:
    if isinstance(default, tuple):
        return ",".join(default) or "none"
    return str(default)


def _time_controls_problem(settings: Settings) -> str | None:
    from .time_control import TimeControl

    for name in ("rated_time_control", "unrated_time_control"):
        try:
            control = TimeControl.parse(getattr(settings, name))
        except ValueError as error:
            return f"--{name.replace('_', '-')}: {error}"
        if control is None and name == "rated_time_control":
            return "--rated-time-control cannot be none: rated games always have a clock"
    return None


def _is_address_or_network(entry: str) -> bool:
    """What a trusted proxy may be: an address, or a network of them (`ip_network` takes
    both; host bits are ignored, as server/edge/transport/addresses.py ignores them)."""
    try:
        ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False
    return True


def _accounts_problem(settings: Settings) -> str | None:
    if settings.accounts_url and not settings.accounts_url.startswith(
            ("postgresql://", "postgres://")):
        return "--accounts-url is a postgresql:// URL"
    if min(settings.hashes_at_once, settings.password_time_cost) < 1 \
            or settings.password_memory_kib < 8 or settings.session_days <= 0:
        return ("--hashes-at-once and --password-time-cost must be at least 1, "
                "--password-memory-kib at least 8, --session-days more than 0")
    return None


def _node_problem(settings: Settings) -> str | None:
    """What is wrong with the node settings: a node needs a Redis, and a name that fits
    in a game id."""
    if bool(settings.node) != bool(settings.redis):
        return "--node and --redis go together (several processes), or neither (one)"
    if settings.node and not NODE_NAME.fullmatch(settings.node):
        return "--node is 1 to 16 characters from a to z and 0 to 9"
    if settings.redis and not settings.redis.startswith(("redis://", "rediss://", "unix://")):
        return "--redis is a redis://, rediss:// or unix:// URL"
    if settings.node and not settings.node_url and settings.host in ("0.0.0.0", "::", ""):
        return "--node-url is needed when listening on every address (other nodes call it)"
    if settings.cluster_refresh_seconds <= 0:
        return "--cluster-refresh-seconds must be more than 0"
    return None
