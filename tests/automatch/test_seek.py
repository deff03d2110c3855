"""Automatch over real WebSockets on one server: seek, a table found, everyone accepts,
the game made with every seat taken; declines and lapses dissolve the table (the others
back at the front, the one who failed it out with a longer wait next time); a guest's
seek survives a reconnect; rated needs an account and uses its rating; every refusal
typed; the lobby's counts over REST and the wait histogram in /metrics. In process, on
a virtual clock (test_turns.py): the confirm window's edges, the wait a decline earns, a
game that cannot be made or handed out, a seek the queue lost, a banned account's seek."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient as HttpClient

from dominion.protocol import (
    Ack,
    Answer,
    Error,
    Hello,
    Join,
    MatchAccept,
    MatchCancelled,
    MatchDecline,
    MatchEnd,
    MatchFound,
    MatchReady,
    Resume,
    Seek,
    SeekCancel,
    SeekState,
    SeekStatus,
    ServerMessage,
    ShownRating,
    Snapshot,
    TimeControl,
    Update,
    Welcome,
)
from dominion.server.accounts import Account
from dominion.server.automatch import RatingLookup, stored_ratings
from dominion.server.automatch.store import Writes
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.play.lobby import SeatHolder
from dominion.server.ratings.model import INITIAL, Pool, Rating
from dominion.server.settings import Settings
from dominion.server.storage import GameState
from tests.cluster.cluster import Redis
from tests.eventually import eventually
from tests.server.restapi import Api
from tests.server.test_process import free_port
from tests.server.wsclient import TestClient
from tests.server.wsplay import FAST, expect_error, raw_request

from .redis_server import needs_redis, redis_server

__all__ = ["redis_server"]

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
QUICK = {"automatch_wave_seconds": 0.1, "automatch_confirm_seconds": 5.0}


class Site:
    def __init__(self, http: HttpClient[Any, Any]) -> None:
        self.http = http
        self.app = http.app
        self.api = Api(http)

    async def connect(self, access_token: str | None = None) -> TestClient:
        ws = await self.http.ws_connect("/api/v1/ws", protocols=("dominion.v2.msgpack",))
        client = TestClient(ws)
        welcome = await client.request(Hello, versions=[2], client="tests",
                                       access_token=access_token)
        assert isinstance(welcome, Welcome), welcome
        return client

    async def account(self, name: str) -> tuple[Account, str]:
        accounts = self.app[STATE].accounts
        account, _ = await accounts.register(name, "correct horse battery", "10.0.0.1")
        _, secret = await accounts.access_tokens.create(account, "tests", ["play"])
        return account, secret


@pytest.fixture
def site_with(aiohttp_client: Any, tmp_path: Path) -> Any:
    """`await site_with(ratings=lookup, **settings)`: a started server (without a lookup,
    the server's own: the ratings store's)."""
    async def start(ratings: RatingLookup | None = None, **overrides: Any) -> Site:
        values = dict(FAST, **CHEAP, **QUICK, db=str(tmp_path / "games.sqlite3"))
        return Site(await aiohttp_client(create_app(Settings(**(values | overrides)),
                                                    ratings)))
    return start


@pytest.fixture
async def site(site_with: Any) -> Site:
    started: Site = await site_with()
    return started


async def next_of(client: TestClient, kind: type, timeout: float = 10) -> Any:
    """The next push of this type; others before it must not be game pushes we check."""
    async def find() -> ServerMessage:
        while True:
            message = await client.push(timeout)
            if isinstance(message, kind):
                return message
    return await asyncio.wait_for(find(), timeout)


async def seek(client: TestClient, name: str | None = "guest", sizes: tuple[int, ...] = (2,),
               rated: bool = False, token: str | None = None) -> SeekStatus:
    reply = await client.request(Seek, sizes=sizes, edition=2, rated=rated, name=name,
                                 token=token)
    assert isinstance(reply, Ack), reply
    status: SeekStatus = await next_of(client, SeekStatus)
    assert status.state is SeekState.WAITING
    return status


async def test_two_guests_are_matched_accept_and_join_the_game_made(site: Site) -> None:
    ann, bob = await site.connect(), await site.connect()
    ann_status = await seek(ann, "Ann")
    assert ann_status.token, "a guest's seek has a token to take it up again"
    await seek(bob, "Bob")
    found: list[MatchFound] = [await next_of(client, MatchFound) for client in (ann, bob)]
    assert found[0] == found[1] and found[0].players == ("Ann", "Bob")
    assert found[0].size == 2 and 0 < found[0].deadline_ms <= 5000
    assert found[0].ratings is None  # an unrated table's players are shown without
    assert found[0].time_control == TimeControl(600, 5)  # rated_time_control's, 10+5
    table = found[0].table
    for client in (ann, bob):
        assert isinstance(await client.request(MatchAccept, table=table), Ack)
    ready: list[MatchReady] = [await next_of(client, MatchReady) for client in (ann, bob)]
    assert ready[0].game == ready[1].game and {ready[0].seat, ready[1].seat} == {0, 1}
    assert ready[0].ws_url == f"/api/v1/ws?game={ready[0].game}"
    for client, mine in zip((ann, bob), ready, strict=True):
        joined = await client.request(Join, game=mine.game, token=mine.token)
        assert isinstance(joined, Ack) and joined.seat == mine.seat
        snapshot = await next_of(client, Snapshot)
        assert snapshot.view["turn"]  # started: every seat was taken
        assert snapshot.clocks is not None and snapshot.clocks.initial_ms == 600_000
    room = site.app[STATE].lobby.room(ready[0].game)
    assert [seat.name for seat in room.seats] == ["Ann", "Bob"]
    assert room.record.options == {"automatch": True, "time_control": {
        "initial_seconds": 600, "increment_seconds": 5}} and not room.record.rated
    # the seek is over: nothing to cancel
    await expect_error(ann, SeekCancel, "not_seeking")
    metrics = await (await site.http.get("/metrics")).text()
    assert 'dominion_automatch_wait_seconds_count{size="2"} 2.0' in metrics


async def test_a_seat_taken_late_gets_the_whole_history_by_resuming_from_0(
        site: Site) -> None:
    """docs/PROTOCOL.md, `match_ready`: the game may be under way when a player's
    match_ready arrives; `join` then gives a snapshot of it as it stands, and `resume`
    from `last_seq` 0 with the token every event since the start."""
    ann, bob, table = await matched(site)
    for client in (ann, bob):
        assert isinstance(await client.request(MatchAccept, table=table), Ack)
    ready = {mine.seat: mine for mine in [await next_of(c, MatchReady) for c in (ann, bob)]}
    first = await site.connect()
    joined = await first.request(Join, game=ready[0].game, token=ready[0].token)
    assert isinstance(joined, Ack)
    snapshot = await next_of(first, Snapshot)
    mover = snapshot.view["turn"]["player"]
    if mover != 0:  # the player to move joins: only they see the decision
        first = await site.connect()
        await first.request(Join, game=ready[mover].game, token=ready[mover].token)
        snapshot = await next_of(first, Snapshot)
    decision = snapshot.view["decision"]
    end = next(o["id"] for o in decision["options"] if o["kind"] == "end_phase")
    answered = await first.request(Answer, game=ready[mover].game, decision=decision["id"],
                                   options=[end])
    assert isinstance(answered, Ack), answered
    played = await next_of(first, Update)  # the first turn is over
    assert {"turn_started", "drew"} <= {event["kind"] for event in played.events}

    late = ready[1 - mover]
    snapshot_only = await site.connect()
    await snapshot_only.request(Join, game=late.game, token=late.token)
    assert (await next_of(snapshot_only, Snapshot)).seq == played.seq
    resumed = await site.connect()
    reply = await resumed.request(Resume, game=late.game, last_seq=0, token=late.token)
    assert isinstance(reply, Ack) and reply.seat == late.seat
    history = await next_of(resumed, Update)
    assert history.seq == played.seq == len(history.events)
    assert history.events[0]["kind"] == "game_started"
    assert history.decision is not None and history.decision["player"] == late.seat


async def test_a_decline_ends_that_seek_and_puts_the_other_back_at_the_front(
        site: Site) -> None:
    ann, bob = await site.connect(), await site.connect()
    await seek(ann, "Ann")
    await seek(bob, "Bob")
    table = (await next_of(ann, MatchFound)).table
    await next_of(bob, MatchFound)
    assert isinstance(await bob.request(MatchDecline, table=table), Ack)
    assert await next_of(bob, MatchCancelled) == MatchCancelled(table, MatchEnd.DECLINED)
    ended = await next_of(bob, SeekStatus)
    assert ended.state is SeekState.ENDED and ended.reason is MatchEnd.DECLINED
    assert await next_of(ann, MatchCancelled) == MatchCancelled(table, MatchEnd.DECLINED)
    again = await next_of(ann, SeekStatus)
    assert again.state is SeekState.WAITING and again.waited_ms > 0
    await expect_error(ann, MatchAccept, "unknown_table", table=table)
    await expect_error(bob, MatchAccept, "not_seeking", table=table)


async def test_a_table_nobody_answers_lapses_and_ends_both_seeks(site_with: Any) -> None:
    """In real time, the confirm window's one test that waits for it (its edges, on a
    virtual clock: test_turns.py)."""
    site = await site_with(automatch_confirm_seconds=0.5)
    ann, bob = await site.connect(), await site.connect()
    await seek(ann, "Ann")
    await seek(bob, "Bob")
    table = (await next_of(ann, MatchFound)).table
    assert isinstance(await ann.request(MatchAccept, table=table), Ack)
    for client, state in ((ann, SeekState.WAITING), (bob, SeekState.ENDED)):
        assert await next_of(client, MatchCancelled) == MatchCancelled(table, MatchEnd.LAPSED)
        status = await next_of(client, SeekStatus)
        assert status.state is state
    assert status.reason is MatchEnd.LAPSED


async def test_a_guest_who_reconnects_with_the_seek_token_keeps_the_place(site: Site) -> None:
    ann = await site.connect()
    token = (await seek(ann, "Ann")).token
    await ann.close()
    again = await site.connect()
    status = await seek(again, "Ann", token=token)
    assert status.token == token and status.waited_ms > 0, "the same seek, its wait kept"
    bob = await site.connect()
    await seek(bob, "Bob")
    found = await next_of(again, MatchFound)
    assert found.players == ("Ann", "Bob")


async def test_refusals_are_typed_and_change_nothing(site: Site) -> None:
    guest = await site.connect()
    await expect_error(guest, Seek, "not_signed_in", sizes=(2,), edition=2, rated=True,
                       name="Ann")
    await expect_error(guest, SeekCancel, "not_seeking")
    await expect_error(guest, MatchAccept, "not_seeking", table="nope")
    await expect_error(guest, Seek, "bad_name", sizes=(2,), edition=2, rated=False, name="")
    await seek(guest, "Ann")
    await expect_error(guest, Seek, "already_seeking", sizes=(2,), edition=2, rated=False,
                       name="Ann")
    await expect_error(guest, MatchDecline, "unknown_table", table="nope")
    for sizes in ([7], [], [1, 2]):
        refused = await raw_request(guest, {"type": "seek", "id": 90, "sizes": sizes,
                                            "edition": 2, "rated": False})
        assert isinstance(refused, Error) and refused.code == "out_of_range", refused
    assert isinstance(await guest.request(SeekCancel), Ack)
    await expect_error(guest, SeekCancel, "not_seeking")


async def test_rated_seeks_use_each_accounts_rating_and_make_a_rated_game(
        site_with: Any) -> None:
    ratings = {"Ada": 1500.0, "Cy": 1520.0, "Far": 2300.0}
    asked: list[tuple[str, Pool]] = []

    async def lookup(account: Account | None, name: str, pool: Pool) -> Rating:
        assert account is not None and account.name == name
        asked.append((name, pool))
        return Rating(ratings[name], 60.0)

    site = await site_with(ratings=lookup)
    clients = {}
    for name in ratings:
        _, secret = await site.account(name)
        clients[name] = await site.connect(secret)
        await seek(clients[name], None, rated=True)
    found = await next_of(clients["Ada"], MatchFound)
    assert set(found.players) == {"Ada", "Cy"} and found.rated
    # each player's rating beside their name, as their seek began
    assert found.ratings is not None and dict(zip(found.players, found.ratings, strict=True)) == {
        "Ada": ShownRating(1500, False), "Cy": ShownRating(1520, False)}
    assert {(name, Pool.TWO_PLAYER) for name in ratings} <= set(asked)
    for name in ("Ada", "Cy"):
        await clients[name].request(MatchAccept, table=found.table)
    ready = await next_of(clients["Cy"], MatchReady)
    assert site.app[STATE].lobby.room(ready.game).record.options["rated"] is True
    counts = await site.api.call("GET", "/api/v1/automatch", 200)
    assert counts["waiting"] == {"2": 1}, "Far still waits"
    assert counts["median_wait_seconds"] >= 0


async def test_a_seek_while_redis_is_unreachable_is_refused_and_changes_nothing(
        site_with: Any) -> None:
    site = await site_with(node="a", redis=f"redis://127.0.0.1:{free_port()}/0")
    guest = await site.connect()
    await expect_error(guest, Seek, "cluster_unavailable", sizes=(2,), edition=2,
                       rated=False, name="Ann")
    await expect_error(guest, SeekCancel, "not_seeking")
    await site.api.error("GET", "/api/v1/automatch", 503, "cluster_unavailable")


async def matched(site: Site) -> tuple[TestClient, TestClient, str]:
    """Ann and Bob seek and are offered the same table."""
    ann, bob = await site.connect(), await site.connect()
    await seek(ann, "Ann")
    await seek(bob, "Bob")
    table = (await next_of(ann, MatchFound)).table
    await next_of(bob, MatchFound)
    return ann, bob, table


async def unmarked(queue: Any, game: str) -> bool:
    """The game's mark (its seats went out, not started yet) is gone."""
    return not await queue.handed(game)


@needs_redis
async def test_a_restart_starts_a_game_whose_seats_went_out_and_abandons_the_other(
        site_with: Any, redis_server: Redis) -> None:
    """The node stopped between making a game and starting it: the queue's mark says
    whether its seats went out. One whose did starts; the other was told to nobody, and
    must not be played out by bots in its players' names (rated, even)."""
    settings = {"node": "a", "redis": redis_server.url}
    site = await site_with(**settings)
    lobby, automatch = site.app[STATE].lobby, site.app[STATE].automatch
    assert automatch is not None
    holders = [SeatHolder("Ann", None, False), SeatHolder("Bob", None, False)]
    told, _ = await lobby.create_matched(holders, 2, rated=False)
    untold, _ = await lobby.create_matched(holders, 2, rated=True)
    mark = f"handed:{told.id}"
    await automatch.queue.store.change(
        (), lambda found: (None, Writes(put={mark: {"table": "t"}})))
    await site.http.close()
    again = await site_with(**settings)
    storage = again.app[STATE].storage

    def state(game: str) -> str:
        stored = storage.load_game(game)
        assert stored is not None
        return stored.game.state
    await eventually(lambda: state(told.id) == "playing" and state(untold.id) == "abandoned")
    stored = storage.load_game(untold.id)
    assert stored is not None and stored.game.result is None and stored.answers == ()
    queue = again.app[STATE].automatch.queue  # type: ignore[union-attr]
    await eventually(lambda: unmarked(queue, told.id))


async def test_the_servers_own_lookup_reads_the_ratings_store() -> None:
    """Without a test's lookup, automatch pairs accounts by their stored ratings."""
    settled = Rating(1840.0, 90.0, games=30)

    class Store:
        async def ratings_of(self, account_id: int) -> dict[Pool, Rating]:
            return {Pool.TWO_PLAYER: settled} if account_id == 7 else {}

    lookup = stored_ratings(Store())  # type: ignore[arg-type]  # only ratings_of is read
    ada = Account(7, "Ada", "ada", None, datetime.now(UTC))
    cy = Account(8, "Cy", "cy", None, datetime.now(UTC))
    assert await lookup(ada, "Ada", Pool.TWO_PLAYER) == settled
    assert await lookup(ada, "Ada", Pool.MULTIPLAYER) == INITIAL, "no rated game there yet"
    assert await lookup(cy, "Cy", Pool.TWO_PLAYER) == INITIAL
    assert await lookup(None, "Guest", Pool.TWO_PLAYER) == INITIAL


async def test_a_player_in_a_running_game_cannot_seek(site: Site) -> None:
    # matched while playing elsewhere, they kept real players waiting in a confirm window
    account, secret = await site.account("Ada")
    lobby = site.app[STATE].lobby
    room, _ = await lobby.create({"seats": 2, "bots": {"1": "big_money"}}, "10.0.0.1",
                                 account)
    assert room.state == GameState.PLAYING
    client = await site.connect(secret)
    await expect_error(client, Seek, "already_seated", sizes=(2,), edition=2, rated=False,
                       name=None)
    assert await seek_waits(site, 0)


async def test_a_player_at_an_open_rated_table_cannot_seek_a_rated_game(site: Site) -> None:
    # matched, the rated game could not seat them: its table dissolved, and formed again
    account, secret = await site.account("Ada")
    lobby = site.app[STATE].lobby
    room, _ = await lobby.create({"seats": 2}, "10.0.0.1", account, rated=True)
    assert room.state == GameState.OPEN
    client = await site.connect(secret)
    await expect_error(client, Seek, "already_seated", sizes=(2,), edition=2, rated=True,
                       name=None)
    assert await seek_waits(site, 0)
    await seek(client, None, rated=False)  # an unrated game seats them elsewhere


async def seek_waits(site: Site, count: int) -> bool:
    """Whether `count` seeks wait in the queue (read from it: REST limits look-ups)."""
    automatch = site.app[STATE].automatch
    assert automatch is not None
    return sum((await automatch.queue_counts()).waiting.values()) == count


async def test_a_guest_playing_on_this_connection_cannot_seek(site: Site) -> None:
    # a guest has no account to find their seats by; the connection playing holds them
    lobby = site.app[STATE].lobby
    room, token = await lobby.create(
        {"name": "Guest", "seats": 2, "bots": {"1": "big_money"}}, "10.0.0.1", None)
    assert room.state == GameState.PLAYING
    client = await site.connect()
    joined = await client.request(Join, game=room.id, token=token)
    assert isinstance(joined, Ack), joined
    assert room.state == GameState.PLAYING, room.state
    await expect_error(client, Seek, "already_seated", sizes=(2,), edition=2, rated=False,
                       name="Guest")
    assert await seek_waits(site, 0)
