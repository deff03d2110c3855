"""What every node must see, behind one interface: the seam between one process and many.

`Directory` is where the lobby's listings come from and where a room's public changes
(created, a seat taken or left, started, ended, who is connected, the turn) go. One
process uses `LocalDirectory`: exactly the single server, answering from its own rooms
and SQLite, with nothing to wait on. Several processes use `RedisDirectory`
(`redis_directory.py`), which publishes those changes to Redis and merges listings across
the nodes. Answers never pass through here: a game's play stays on its node.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from ..play.rated_claims import ClaimStore, NodeClaims
from ..replays import finished_replay, replay_work
from ..storage.keyset import Keyset
from ..storage.records import ENDED_STATES

if TYPE_CHECKING:
    from ..play.lobby import Lobby
    from ..play.room import Room
    from ..storage import Storage
    from ..storage.records import StoredGame


Pay = Callable[[int], Awaitable[None]]
"""Paying for a replay's work (in events) before it is done; it may wait, or raise."""


@dataclass(frozen=True)
class Page:
    """One page of a listing: game summaries, how many match in all, and the nodes that
    did not answer (None for a single server, which has no others)."""

    games: list[dict[str, Any]]
    total: int
    missing_nodes: list[str] | None = None

    def body(self, limit: int, offset: int) -> dict[str, Any]:
        """The JSON answer of GET /api/v1/games."""
        body: dict[str, Any] = {"games": self.games, "total": self.total, "limit": limit,
                                "offset": offset}
        if self.missing_nodes is not None:
            body["missing_nodes"] = self.missing_nodes
        return body


@dataclass(frozen=True)
class Export:
    """An export's replays, one line each, and the nodes whose games it lacks because
    they did not answer for their listing (None for a single server)."""

    lines: AsyncIterator[bytes]
    missing_nodes: list[str] | None = None
    next_key: Keyset | None = None
    """Where the next page starts (the last selected game), when this one was full."""


@dataclass(frozen=True)
class NodeHealth:
    """A node as the cluster's Redis knows it (never its address)."""

    node: str
    fresh: bool
    """Whether its heartbeat is current (a node that stopped beating is dead or cut off)."""
    ready: bool | None
    """What its last current heartbeat said of its readiness (None: no current one)."""
    heartbeat_age_seconds: float | None
    """Seconds since its last heartbeat, by this node's clock (None: never seen)."""
    connections: int | None
    live_games: int | None


class Directory(Protocol):
    @property
    def rated_seats(self) -> ClaimStore:
        """Where the accounts' live rated seats are claimed (play/rated_claims.py)."""

    @property
    def problem(self) -> str | None:
        """Why games cannot be created or listed now (None: they can)."""

    def changed(self, room: Room) -> None:
        """A room's public summary changed (seats, state, who is connected): publish it
        soon. Never waits, never fails: called from the rooms."""

    async def created(self, room: Room) -> None:
        """A new room: publish it before its creator hears of it (they list it next)."""

    async def listing(self, filters: dict[str, Any]) -> Page:
        """Game summaries matching `filters` (see `filters.game_filters`), newest first."""

    async def export(self, filters: dict[str, Any], pay: Pay) -> Export:
        """Ended games' replays matching `filters` (whose state is an ended one), newest
        first: one compact JSON object and a newline each, each one's work paid for with
        `pay` (in events) before it is done. Refusals (Refusal) come here, before the
        first line."""

    @property
    def gone(self) -> list[str]:
        """The nodes whose heartbeat stopped, as the last one of this node saw them."""

    async def node_health(self) -> list[NodeHealth]:
        """Every node the cluster knows, fresh or not (empty for a single server, which
        is no cluster); `cluster_unavailable` while Redis cannot be reached."""

    def is_peer(self, presented: str | None) -> bool:
        """Whether a request's peer key (PEER_KEY_HEADER) is the cluster's: the private
        routes serve other nodes only, even where a proxy forgets to refuse them."""

    async def from_other_nodes(self, path: str) -> tuple[list[Any], list[str] | None]:
        """Every other node's JSON answer on a private route, and the nodes that gave
        none (None for a single server, which has no others)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalDirectory:
    """One process: the rooms and the database are the directory."""

    def __init__(self, lobby: Lobby, storage: Storage) -> None:
        self._lobby = lobby
        self._storage = storage
        self.rated_seats: ClaimStore = NodeClaims()

    problem = None
    @property
    def gone(self) -> list[str]:
        return []  # a single server has no others

    async def node_health(self) -> list[NodeHealth]:
        return []

    def changed(self, room: Room) -> None:
        pass  # listings read the rooms themselves

    async def created(self, room: Room) -> None:
        pass

    async def listing(self, filters: dict[str, Any]) -> Page:
        return Page(*self._lobby.listing(filters))

    async def export(self, filters: dict[str, Any], pay: Pay) -> Export:
        records, _ = self._storage.list_games(**filters, counted=False)
        last = records[-1] if len(records) == filters["limit"] else None
        return Export(self._lines([record.id for record in records], pay),
                      next_key=None if last is None else (last.finished_at or "", last.id))

    async def _lines(self, game_ids: list[str], pay: Pay) -> AsyncIterator[bytes]:
        for game_id in game_ids:
            line = await self.replay_line(game_id, pay)
            if line is not None:
                yield line

    async def replay_line(self, game_id: str, pay: Pay) -> bytes | None:
        """An ended game's replay as one export line, paid for first (None: no such game
        here)."""
        stored = ended_game(self._storage, game_id)
        if stored is None:
            return None
        await pay(replay_work(len(stored.answers)))
        return export_line(self._storage, stored)

    def is_peer(self, presented: str | None) -> bool:
        return False  # one process has no peers

    async def from_other_nodes(self, path: str) -> tuple[list[Any], list[str] | None]:
        return [], None

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass


def ended_game(storage: Storage, game_id: str) -> StoredGame | None:
    """A game of this database that has ended (None: none such; a replay holds every
    hidden card, so an unfinished game never makes one)."""
    stored = storage.load_game(game_id)
    return stored if stored is not None and stored.game.state in ENDED_STATES else None


def export_line(storage: Storage, stored: StoredGame) -> bytes:
    """An ended game's replay as one line of an export: compact JSON and a newline."""
    replay = finished_replay(stored, storage.chat(stored.game.id))
    return orjson.dumps(replay) + b"\n"  # compact, as json.dumps with tight separators
