"""Whether this node is alive, whether it can serve its games, and what works now:
`/livez`, `/readyz` (`/healthz` is its former name, kept), and the cluster's view of its
nodes (`GET /api/v1/cluster/health`).

Alive is the event loop answering. Ready is the games' database taking writes: without
it no answer can be stored, so the node's games cannot go on. Everything else a node
depends on (the account store, the cluster's Redis, the other nodes) is reported with its
state and what stops working without it, and never makes the node unready: its running
games go on without them, and a balancer that pulled every node while Redis is down
would stop games that run fine (docs/SERVER.md, "Health"). No answer here names a host,
a port or a URL: what failed is in the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from aiohttp import web

from dominion.protocol import ErrorCode

from ...cluster.directory import NodeHealth
from ..state import STATE
from .models import Schema, encode, member, model, nullable, obj, ref
from .operation import Operation, Reply, Routes, Tag


class DependencyState(StrEnum):
    OK = "ok"
    DEGRADED = "degraded"
    """Working, but not wholly: some of what depends on it is refused or incomplete."""
    DOWN = "down"


class Dependency(StrEnum):
    STORAGE = "storage"
    """The games' SQLite database: the only one readiness depends on."""
    ACCOUNTS = "accounts"
    """The account store: SQLite beside the games, or the cluster's PostgreSQL."""
    REDIS = "redis"
    """The cluster's Redis (a node among several only)."""
    PEERS = "peers"
    """The other nodes, as their heartbeats in Redis say (a node among several only)."""


IMPACT = {
    Dependency.STORAGE: "no answer can be stored: the node's games cannot go on and it takes "
                        "no new ones (it is not ready)",
    Dependency.ACCOUNTS: "new tables and joining them (a guest's name is checked against the "
                         "accounts), signing in, registering, access tokens, profiles and "
                         "ratings are refused, and finished rated games wait in this node's "
                         "outbox; running games go on",
    Dependency.REDIS: "new tables, listings, exports and automatch are refused; running games "
                      "go on",
    Dependency.PEERS: "listings and exports leave out the games of the nodes whose heartbeat "
                      "stopped (named in `nodes`)",
}
"""What stops working while a dependency is not ok."""


STATES: Schema = {"type": "string", "enum": [state.value for state in DependencyState]}


@model()
class DependencyHealth:
    state: DependencyState = member(STATES)
    impact: str | None = member({"type": "string"}, "what stops working while it is not ok",
                                omitted_if_none=True)
    nodes: list[str] | None = member({"type": "array", "items": {"type": "string"}},
                                     "(peers) the nodes whose heartbeat stopped",
                                     omitted_if_none=True)


@model()
class Health:
    status: DependencyState = member(STATES, "ok: every dependency is ok; degraded: ready, "
                                             "but some dependency is not; down: not ready")
    ready: bool = member({"type": "boolean"}, "whether this node can serve its games (its "
                                              "database takes writes)")
    games: int = member({"type": "integer", "minimum": 0})
    connections: int = member({"type": "integer", "minimum": 0})
    restoring: bool = member({"type": "boolean"}, "whether the games unfinished at the "
                                                  "node's start are still being rebuilt; "
                                                  "readiness does not wait for it (a game "
                                                  "asked for is rebuilt at once)")
    dependencies: dict[str, DependencyHealth] = member(obj(
        {name.value: ref(DependencyHealth) for name in Dependency},
        required=[Dependency.STORAGE.value, Dependency.ACCOUNTS.value],
        description="redis and peers only on a node among several"))


@dataclass(frozen=True)
class Report:
    """Each dependency's state now, and the node's readiness and status from them."""

    dependencies: dict[Dependency, DependencyState]
    gone_nodes: list[str]

    @property
    def ready(self) -> bool:
        return self.dependencies[Dependency.STORAGE] is DependencyState.OK

    @property
    def status(self) -> DependencyState:
        """ok: everything works; degraded: ready, but something is not ok; down: not ready."""
        if not self.ready:
            return DependencyState.DOWN
        if all(state is DependencyState.OK for state in self.dependencies.values()):
            return DependencyState.OK
        return DependencyState.DEGRADED

    def health(self, games: int, connections: int, restoring: bool) -> Health:
        return Health(self.status, self.ready, games, connections, restoring, {
            dependency.value: DependencyHealth(
                state, None if state is DependencyState.OK else IMPACT[dependency],
                self.gone_nodes if dependency is Dependency.PEERS and self.gone_nodes
                else None)
            for dependency, state in self.dependencies.items()})


def up_or_down(up: bool) -> DependencyState:
    return DependencyState.OK if up else DependencyState.DOWN


async def report_of(request: web.Request) -> Report:
    """This node's dependencies now: the storage's own state (tried again at most once a
    second while it fails), the account store's as last probed (health_watch.py), and the
    cluster's as the directory's last heartbeat saw it. Nothing here waits on a network."""
    state = request.config_dict[STATE]
    directory = request.config_dict[STATE].directory
    dependencies = {
        Dependency.STORAGE: up_or_down(await state.storage.probe()),
        Dependency.ACCOUNTS: up_or_down(request.config_dict[STATE].accounts_probe.up),
    }
    gone: list[str] = []
    if state.settings.redis:
        redis_up = directory.problem is None
        dependencies[Dependency.REDIS] = up_or_down(redis_up)
        if redis_up:  # without Redis, the other nodes are not known
            gone = list(directory.gone)
            dependencies[Dependency.PEERS] = (DependencyState.DEGRADED if gone
                                              else DependencyState.OK)
    return Report(dependencies, gone)


READINESS = (Reply(200, "Ready (status ok or degraded)", Health),
             Reply(503, "Not ready: its database fails writes (status: down)", Health))
ROOT_ROUTES = Routes(prefix="")
"""Liveness and readiness on the main application (proxies and orchestrators probe them
where they always were, beside /healthz)."""
ROUTES = Routes()
"""The cluster's nodes as Redis knows them, on the REST sub-application (any node answers
for all; JSON errors)."""


@model()
class Liveness:
    status: str = member({"type": "string", "enum": ["ok"]})


@model()
class NodeView:
    """A node as the cluster's Redis knows it (never its address)."""

    node: str = member({"type": "string"})
    fresh: bool = member({"type": "boolean"}, "whether its heartbeat is current (false: "
                                              "dead, stopped or cut off from Redis)")
    ready: bool | None = member(nullable({"type": "boolean"}),
                                "as its current heartbeat says (null: none current)")
    heartbeat_age_seconds: float | None = member(
        nullable({"type": "number", "minimum": 0}),
        "since its last heartbeat, by the answering node's clock")
    connections: int | None = member(nullable({"type": "integer", "minimum": 0}))
    live_games: int | None = member(nullable({"type": "integer", "minimum": 0}))

    @classmethod
    def of(cls, node: NodeHealth) -> NodeView:
        age = node.heartbeat_age_seconds
        return cls(node.node, node.fresh, node.ready, None if age is None else round(age, 3),
                   node.connections, node.live_games)


@model()
class ClusterHealth:
    nodes: list[NodeView] = member({"type": "array", "items": ref(NodeView)})


@ROOT_ROUTES(Operation("GET", "/livez", "livez", Tag.OPERATIONS,
                       "Liveness: the process answers (nothing else is checked)",
                       (Reply(200, "Alive", Liveness),)))
async def livez(request: web.Request) -> Liveness:
    """Alive: the event loop ran this handler. Nothing else is checked: restart a node only
    when this fails, never because something it depends on is down."""
    return Liveness("ok")


@ROOT_ROUTES(Operation("GET", "/healthz", "healthz", Tag.OPERATIONS,
                       "The former name of /readyz: the same answer", READINESS))
@ROOT_ROUTES(Operation("GET", "/readyz", "readyz", Tag.OPERATIONS,
                       "Readiness: whether this node can serve its games, and each "
                       "dependency's state", READINESS))
async def readyz(request: web.Request) -> web.Response:
    """200 while this node can serve its games (its database takes writes), else 503; each
    dependency's state either way."""
    state = request.config_dict[STATE]
    report = await report_of(request)
    return web.json_response(
        encode(report.health(len(state.lobby.rooms), len(state.connections),
                             state.lobby.restoring)),
        status=200 if report.ready else 503)


@ROUTES(Operation("GET", "/cluster/health", "clusterHealth", Tag.OPERATIONS,
                  "Every node the cluster's Redis knows: fresh or not, ready or not, its "
                  "heartbeat's age (empty for a single server)",
                  (Reply(200, "The nodes, by name", ClusterHealth),),
                  (ErrorCode.CLUSTER_UNAVAILABLE,), notes={503: "Redis is unreachable"}))
async def cluster_health(request: web.Request) -> ClusterHealth:
    nodes = await request.config_dict[STATE].directory.node_health()
    return ClusterHealth([NodeView.of(node) for node in nodes])
