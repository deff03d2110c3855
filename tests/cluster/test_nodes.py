"""Three real nodes behind nginx, sharing a real redis-server, on loopback: games played
to the end through one address by network bots, listed from every node, their replays
verified; a node killed mid-game; Redis stopped mid-run."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.clients.net import Client
from dominion.clients.network_bot import NetworkBot
from dominion.server.cluster import owner_of
from dominion.server.replays import verify_replay
from tests import process_cpu
from tests.eventually import eventually
from tests.tiers import Tier, starts

from .cluster import NODES, Cluster, needs_everything, running_cluster

pytestmark = needs_everything


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture(autouse=True)
def mended(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test of the cluster, whatever it stopped runs again (`Cluster.mend`)."""
    yield
    if "cluster" in request.fixturenames:
        request.getfixturevalue("cluster").mend()


def session_for(cluster: Cluster) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=cluster.ssl, limit=0))


class RecordingClient(Client):
    """The reference client, recording every answer the server accepted; `pace` seconds
    before each answer keep a game running long enough to break something under it, and
    `hold` stops it after HELD_AFTER answers until the event is set (however fast the
    game would otherwise end)."""

    def __init__(self, url: str, *, pace: float, hold: asyncio.Event | None = None,
                 **options: Any) -> None:
        super().__init__(url, max_delay=0.5, **options)
        self.pace = pace
        self.hold = hold
        self.accepted: list[tuple[int, tuple[int, ...]]] = []

    async def answer(self, game: str, decision: int, options: Any) -> Any:
        if self.pace:
            await asyncio.sleep(self.pace)
        if self.hold is not None and len(self.accepted) >= HELD_AFTER:
            await self.hold.wait()
        ack = await super().answer(game, decision, options)
        self.accepted.append((decision, tuple(options)))
        return ack


HELD_AFTER = 5
"""Answers a held client gives before it waits (`RecordingClient.hold`)."""


@dataclass
class Table:
    id: str
    ws_url: str
    tokens: list[str]
    clients: list[RecordingClient]


async def post(session: aiohttp.ClientSession, url: str, body: dict[str, Any],
               status: int = 200) -> dict[str, Any]:
    async with session.post(url, json=body) as response:
        answer: dict[str, Any] = await response.json()
        assert response.status == status, answer
        return answer


async def get(session: aiohttp.ClientSession, url: str, status: int = 200,
              headers: dict[str, str] | None = None, **params: Any) -> dict[str, Any]:
    async with session.get(url, params={k: str(v) for k, v in params.items()},
                           headers=headers) as response:
        answer: dict[str, Any] = await response.json()
        assert response.status == status, answer
        return answer


async def open_table(session: aiohttp.ClientSession, cluster: Cluster, player: str, *,
                     seated: bool = True) -> Table:
    """A 2-seat table created through nginx; with `seated`, its second seat joined (the
    game starts)."""
    created = await post(session, f"{cluster.https}/api/v1/games",
                         {"name": player, "seats": 2, "kingdom": "First Game"}, 201)
    game = created["game"]["id"]
    assert created["ws_url"] == f"/api/v1/ws?game={game}"
    tokens = [created["token"]]
    if seated:
        joined = await post(session, f"{cluster.https}/api/v1/games/{game}/join",
                            {"name": f"{player}-2"})
        assert joined["ws_url"] == created["ws_url"]
        tokens.append(joined["token"])
    return Table(game, created["ws_url"], tokens, [])


async def play(session: aiohttp.ClientSession, cluster: Cluster, table: Table,
               pace: float = 0.0, hold: asyncio.Event | None = None) -> None:
    """Both seats played to the end by network bots, over the game's ws_url (held after
    a few answers until `hold` is set, if given)."""
    socket = cluster.https.replace("https://", "wss://") + table.ws_url

    async def seat(token: str, seed: int) -> None:
        client = RecordingClient(socket, pace=pace, hold=hold, session=session,
                                 name="cluster-test")
        table.clients.append(client)
        async with client:
            await NetworkBot(client, table.id, token, "big_money", seed=seed).play()

    await asyncio.gather(*(seat(token, index) for index, token in enumerate(table.tokens)))


async def ended_on(session: aiohttp.ClientSession, cluster: Cluster, node: str) -> Table:
    """A game of `node`'s played to its end and handed to the archive."""
    table = await open_table(session, cluster, "Ended")
    while owner_of(table.id) != node:  # tables go round the nodes
        table = await open_table(session, cluster, "Ended")
    await play(session, cluster, table)

    async def archived() -> bool:
        return table.id in await export(session, f"{cluster.https}/api/v1/replays/export",
                                        player="Ended")
    await eventually(archived)
    return table


async def replay_checked(session: aiohttp.ClientSession, cluster: Cluster,
                         table: Table) -> dict[str, Any]:
    """The replay through the single address: it verifies, and holds every answer the
    server accepted from each seat (none lost)."""
    replay = await get(session, f"{cluster.https}/api/v1/games/{table.id}/replay")
    verification = verify_replay(replay)
    assert verification.ok, verification.problems
    for client in table.clients:
        seat = client.games[table.id].seat
        stored = [(answer["decision"], tuple(answer["choices"]))
                  for answer in replay["answers"] if answer["player"] == seat]
        assert client.accepted and set(client.accepted) <= set(stored)
    return replay


async def export(session: aiohttp.ClientSession, url: str,
                 headers: dict[str, str] | None = None, **params: str) -> set[str]:
    """An export's game ids."""
    async with session.get(url, params={"limit": "100", **params},
                           headers=headers) as response:
        assert response.status == 200
        lines = (await response.read()).splitlines()
        return {json.loads(line)["game"]["id"] for line in lines}


def ids(listing: dict[str, Any]) -> list[str]:
    return [game["id"] for game in listing["games"]]


async def test_thirty_games_through_one_address(cluster: Cluster) -> None:
    async with session_for(cluster) as session:
        tables = [await open_table(session, cluster, "Thirty") for _ in range(30)]
        created = {table.id for table in tables}
        assert {owner_of(game) for game in created} == set(NODES)  # round robin

        async def every_node_lists_them_playing() -> bool:
            for node in cluster.nodes.values():  # from Redis, whichever node is asked
                listing = await get(session, f"{node.url}/api/v1/games", state="playing",
                                    player="Thirty", limit=100)
                if set(ids(listing)) != created:
                    return False
            return True
        await eventually(every_node_lists_them_playing)

        await asyncio.gather(*(play(session, cluster, table) for table in tables))

        # finished games: each node answers for its own database; any node merges (a game
        # just ended is listed once its end is stored, or once the archive has it)
        for base in [cluster.https, *(node.url for node in cluster.nodes.values())]:
            async def all_finished(base: str = base) -> bool:
                listing = await get(session, f"{base}/api/v1/games", state="finished",
                                    player="Thirty", limit=100)
                assert listing["missing_nodes"] == []
                return set(ids(listing)) == created and listing["total"] == 30
            await eventually(all_finished)
        # pages merged across nodes: page by page, the same order as one long page
        whole = ids(await get(session, f"{cluster.https}/api/v1/games", player="Thirty",
                              limit=100))
        paged: list[str] = []
        for offset in range(0, 30, 7):
            paged += ids(await get(session, f"{cluster.https}/api/v1/games", player="Thirty",
                                   limit=7, offset=offset))
        assert paged == whole and len(whole) == 30

        for table in tables:
            await replay_checked(session, cluster, table)
        async def exported_from_the_archive() -> bool:  # each node archives as games end
            return await export(session, f"{cluster.https}/api/v1/replays/export",
                                player="Thirty") == created
        await eventually(exported_from_the_archive)

        async def every_node_counts_three_nodes() -> bool:  # as of its latest heartbeat
            for name, node in cluster.nodes.items():
                metrics = await (await session.get(f"{node.url}/metrics")).text()
                assert f'dominion_games_created_total{{node="{name}"}}' in metrics
                if f'dominion_cluster_nodes{{node="{name}"}} 3.0' not in metrics:
                    return False
            return True
        await eventually(every_node_counts_three_nodes)
    log = cluster.access_log()
    assert "GET /api/v1/ws?game=g-" in log and " 101 " in log


async def test_exports_from_many_clients_hold_every_nodes_replays(cluster: Cluster) -> None:
    """An export reads the archive every node shares (no node's private route): each of
    many clients, at its own address, gets every node's replays."""
    async with session_for(cluster) as session:
        tables = [await open_table(session, cluster, "Export") for _ in range(12)]
        await asyncio.gather(*(play(session, cluster, table) for table in tables))
        entry = cluster.nodes["a"].url
        finished = set(ids(await get(session, f"{entry}/api/v1/games", state="finished",
                                     limit=100)))
        assert {table.id for table in tables} <= finished

        async def archived() -> bool:  # each node hands its games over as they end
            return await export(session, f"{entry}/api/v1/replays/export",
                                state="finished") == finished
        await eventually(archived)
        # sixteen clients at sixteen addresses (nginx's forwarding, as it would be)
        exports = await asyncio.gather(*(
            export(session, f"{entry}/api/v1/replays/export", state="finished",
                   headers={"X-Forwarded-For": f"198.51.100.{client}"})
            for client in range(16)))
        wrong = {client: {"lacking": sorted(finished - got), "extra": sorted(got - finished)}
                 for client, got in enumerate(exports) if got != finished}
        assert not wrong, (f"every export holds the {len(finished)} finished games; these "
                           f"did not (by client): {wrong}")

        # the private routes serve nodes only, whatever the proxy in front lets through
        peer_key = subprocess.run(
            ["redis-cli", "-p", str(cluster.redis.port), "GET", "dominion:peer-key"],
            capture_output=True, text=True, check=True).stdout.strip()
        private = f"{cluster.nodes['b'].url}/api/v1/node/games"
        for headers in ({}, {"X-Dominion-Peer-Key": "guess"}):
            refused = await get(session, private, 404, headers=headers)
            assert refused["error"]["code"] == "not_found"
        async with session.get(private, headers={"X-Dominion-Peer-Key": peer_key}) as response:
            assert response.status == 200


async def test_a_killed_node_pauses_only_its_games_and_resumes_them(cluster: Cluster) -> None:
    victim = cluster.nodes["b"]
    async with session_for(cluster) as session:
        tables = [await open_table(session, cluster, "Killed") for _ in range(6)]
        theirs = [table for table in tables if owner_of(table.id) == "b"]
        others = [table for table in tables if owner_of(table.id) != "b"]
        assert theirs and others
        # its games wait mid-game until it is killed: on a slow machine they would
        # otherwise end while the test plays the game it ends before the kill
        killed = asyncio.Event()
        playing = {table.id: asyncio.ensure_future(
            play(session, cluster, table, pace=0.01,
                 hold=killed if table in theirs else None)) for table in tables}

        async def victim_games_under_way() -> bool:
            # (one player held stops the other too: the game waits on it)
            return all(len(t.clients) == 2
                       and any(len(c.accepted) >= HELD_AFTER for c in t.clients)
                       for t in theirs)
        await eventually(victim_games_under_way)
        ended = await ended_on(session, cluster, "b")
        victim.kill()
        killed.set()
        # its ended game, from another node: every node reads the archive
        assert (await replay_checked(session, cluster, ended))["game"]["state"] == "finished"
        summary = await get(session, f"{cluster.https}/api/v1/games/{ended.id}")
        assert summary["state"] == "finished"

        # the other nodes' games finish while it is down, without a reconnect
        await asyncio.gather(*(playing[table.id] for table in others))
        assert all(client.reconnects == 0 for table in others for client in table.clients)
        assert not any(playing[table.id].done() for table in theirs)
        down = await get(session, f"{cluster.https}/api/v1/games/{theirs[0].id}", 503)
        assert down["error"]["code"] == "node_unavailable"
        listing = await get(session, f"{cluster.https}/api/v1/games", state="finished",
                            player="Killed", limit=100)
        assert listing["missing_nodes"] == ["b"]
        assert set(ids(listing)) == {table.id for table in others}
        # an export reads the archive: the ended games, whichever node is down

        async def exported() -> bool:
            return await export(session, f"{cluster.https}/api/v1/replays/export",
                                player="Killed") == {table.id for table in others}
        await eventually(exported)

        victim.start(port=victim.port)  # its database, its port: nginx finds it again
        await asyncio.gather(*(playing[table.id] for table in theirs))
        assert all(client.reconnects >= 1 for table in theirs for client in table.clients)
        for table in tables:
            replay = await replay_checked(session, cluster, table)
            assert replay["game"]["state"] == "finished"


async def test_without_redis_games_go_on_and_listings_come_back(cluster: Cluster) -> None:
    async with session_for(cluster) as session:
        waiting = await open_table(session, cluster, "Outage", seated=False)
        tables = [await open_table(session, cluster, "Outage") for _ in range(3)]
        playing = [asyncio.ensure_future(play(session, cluster, table, pace=0.01))
                   for table in tables]
        await eventually(lambda: all_under_way(tables))
        cluster.redis.stop()

        async def every_node_ready_without_redis() -> bool:
            # still ready: a balancer must not pull every node while their games go on
            for node in cluster.nodes.values():
                async with session.get(f"{node.url}/healthz") as response:
                    assert response.status == 200
                    body = await response.json()
                    if body["dependencies"]["redis"]["state"] != "down":
                        return False
                    assert body["status"] == "degraded"
            return True
        await eventually(every_node_ready_without_redis)
        refused = await post(session, f"{cluster.https}/api/v1/games",
                             {"name": "Outage", "seats": 2}, 503)
        assert refused["error"]["code"] == "cluster_unavailable"
        listing = await get(session, f"{cluster.https}/api/v1/games", 503, state="open")
        assert listing["error"]["code"] == "cluster_unavailable"

        await asyncio.gather(*playing)  # no answer waits on Redis
        for table in tables:
            await replay_checked(session, cluster, table)

        cluster.redis.start()  # empty: every node publishes its entries again

        async def listings_are_back() -> bool:
            for node in cluster.nodes.values():
                async with session.get(f"{node.url}/api/v1/games",
                                       params={"state": "open", "player": "Outage"}) as answer:
                    if answer.status != 200 or ids(await answer.json()) != [waiting.id]:
                        return False
            return True
        await eventually(listings_are_back)
        await post(session, f"{cluster.https}/api/v1/games", {"name": "Outage", "seats": 2},
                   201)


async def all_under_way(tables: list[Table]) -> bool:
    return all(len(t.clients) == 2 and all(c.accepted for c in t.clients) for t in tables)


def test_the_derived_configuration_names_every_node(tmp_path: Path) -> None:
    """The file's nodes are the tests' nodes (a node added to one must be added to both)."""
    from .cluster import CLUSTER_CONF, derive_cluster_config

    text = derive_cluster_config(
        CLUSTER_CONF.read_text(), http_port=1, https_port=2,
        node_ports={name: 10 + index for index, name in enumerate(NODES)},
        cert=tmp_path / "c", key=tmp_path / "k", acme_root=tmp_path)
    for name in NODES:
        assert f"~^g-{name}-" in text


def test_a_second_node_with_a_live_nodes_name_is_refused(cluster: Cluster,
                                                         tmp_path: Path) -> None:
    """Two processes called `a` would both answer for the games g-a-…: the second one
    stops at start, saying why."""
    done = process_cpu.run(
        [sys.executable, "-m", "dominion.server.main", "--node", "a", "--redis",
         cluster.redis.url, "--db", str(tmp_path / "other.sqlite3"), "--port", "0"],
        cpu_limit=30)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot join the cluster" in done.stderr and "names must be unique" in done.stderr
