"""When the database cannot take a write, the answer is refused, nothing changes, and
the server stops taking new games; it never tells anyone of an answer it did not store."""

from __future__ import annotations

from typing import Any

import pytest

from dominion.protocol import Ack, Answer, Error, Join, PendingDecision, Snapshot
from dominion.server.storage import StorageError
from tests.eventually import eventually

from .wsplay import ServerFactory, fail_writes, ws_server  # noqa: F401 (the fixture)


async def test_a_write_that_fails_refuses_the_answer_and_new_games(
        ws_server: ServerFactory, monkeypatch: Any,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    site = await ws_server()
    game, token = await site.create(seats=2, bots={1: "big_money"})
    client = await site.connect()
    await client.request(Join, game=game, token=token)
    decision = None
    while decision is None or decision.get("player") != 0 or "options" not in decision:
        message = await client.push()
        if isinstance(message, Snapshot):
            decision = message.view["decision"]
        elif isinstance(message, PendingDecision):
            decision = message.decision
    room = site.room(game)
    before = (room.game.event_count, room.game.answer_count)  # type: ignore[union-attr]
    storage = site.app_state().storage

    async def full_disk(*args: Any, **kwargs: Any) -> None:
        storage._healthy = False  # what a failed batch does
        raise StorageError("database or disk is full")

    async def still_full() -> bool:
        return False

    monkeypatch.setattr(storage, "append_answers", full_disk)
    monkeypatch.setattr(storage, "probe", still_full)  # a write to try would fail too
    refused = await client.request(Answer, game=game, decision=decision["id"], options=[0])
    assert isinstance(refused, Error) and refused.code == "internal_error"
    assert (room.game.event_count, room.game.answer_count) == before  # type: ignore[union-attr]
    assert not client.pushes  # nobody heard of it
    logged = [r for r in caplog.records if r.getMessage() == "could not store an answer"]
    assert [getattr(r, "game", None) for r in logged] == [game]  # the host hears of it

    async with site.session.post(site.url("/api/v1/games"),
                                 json={"name": "Bo", "seats": 2}) as created:
        assert created.status == 503
        assert (await created.json())["error"]["code"] == "storage_unavailable"
    async with site.session.get(site.url("/healthz")) as health:
        assert health.status == 503 and (await health.json())["status"] == "down"

    monkeypatch.undo()  # the disk has room again: the same answer now goes through
    accepted = await client.request(Answer, game=game, decision=decision["id"], options=[0])
    assert isinstance(accepted, Ack)


async def test_bots_retry_when_storage_recovers_and_survive_a_broken_strategy(
        ws_server: ServerFactory, monkeypatch: Any) -> None:  # noqa: F811
    import dominion.server.play.bot_loop as bot_loop_module
    import dominion.server.play.clock as clock_module

    monkeypatch.setattr(clock_module, "RETRY_SECONDS", 0.01)
    site = await ws_server()
    failures = fail_writes(monkeypatch, site.app_state().storage, "append_answers")

    class Broken:
        name = "broken"

        def choose(self, decision: Any, table: Any) -> list[int]:
            raise RuntimeError("a strategy bug")

    monkeypatch.setattr(bot_loop_module, "make_strategy", lambda name, rng: Broken())
    game, _ = await site.create(seats=3, bots={1: "big_money", 2: "big_money"})
    room = site.room(game)
    await room.resign(0)  # every seat is a bot's now; the game must still end
    failures["left"] = 3  # the bots' next answers cannot be stored at first
    await eventually(lambda: room.state == "finished")
    assert failures["left"] == 0


async def test_a_seat_change_that_cannot_be_saved_changes_nothing(
        ws_server: ServerFactory, monkeypatch: Any) -> None:  # noqa: F811
    """A join or a leave whose seat cannot be stored is refused, and the seat stays as it
    was: free after a failed join, held after a failed leave."""
    site = await ws_server()
    game, token = await site.create(seats=3)
    storage = site.app_state().storage

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk I/O error")

    async def post(path: str, body: dict[str, Any]) -> int:
        async with site.session.post(site.url(f"/api/v1/games/{game}/{path}"),
                                     json=body) as reply:
            assert (await reply.json()).get("error", {}).get("code") in (None, "internal_error")
            return reply.status

    room = site.room(game)
    monkeypatch.setattr(storage, "save_seat", broken)
    assert await post("join", {"name": "Bo"}) == 500
    assert await post("leave", {"token": token}) == 500
    assert room.seats[1].free and not room.seats[0].free
    monkeypatch.undo()
    assert await post("leave", {"token": token}) == 200  # the token still holds seat 0
    assert (await site.join(game, "Bo"))[0] == 0  # the first free seat
    assert (await site.join(game, "Cy"))[0] == 1
