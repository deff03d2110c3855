"""What every node must see, behind one interface: the seam between one process and many.

`Directory` is where the lobby's listings come from and where a room's public changes
(created, a seat taken or left, started, ended, who is connected, the turn) go. One
process uses `LocalDirectory`: exactly the single server, answering from its own rooms
and SQLite, and the archive of ended games (play/archive.py). Several processes use `RedisDirectory`
(`redis_directory.py`), which publishes those changes to Redis and merges listings across
the nodes. Answers never pass through here: a game's play stays on its node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..play.rated_claims import ClaimStore, NodeClaims
from ..storage.records import UNFINISHED_STATES
from .listing import merge_pages

if TYPE_CHECKING:
    from ..play.archive import Archive
    from ..play.lobby import Lobby
    from ..play.room import Room


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
    """One process: the rooms, the database and the archive are the directory."""

    def __init__(self, lobby: Lobby, archive: Archive) -> None:
        self._lobby = lobby
        self.archive = archive
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
        if filters.get("state") in UNFINISHED_STATES:  # never archived
            return Page(*self._lobby.listing(filters))
        return Page(*merge_pages([self.own_part(filters), await self.archive.listing_part(
            filters)], filters["offset"], filters["limit"]))

    def own_part(self, filters: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        """This node's first `offset + limit` games the archive does not have."""
        return self._lobby.listing({**filters, "offset": 0,
                                    "limit": filters["offset"] + filters["limit"]})

    def is_peer(self, presented: str | None) -> bool:
        return False  # one process has no peers

    async def from_other_nodes(self, path: str) -> tuple[list[Any], list[str] | None]:
        return [], None

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

