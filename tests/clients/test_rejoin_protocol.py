"""What a seat may see once, it may see again after a resume: `resume` from event 0 with
the seat's token brings back every event as that seat saw it, its own draws included
(docs/PROTOCOL.md, section 8), on a real server over a real socket."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from dominion.clients.lobby import Lobby
from dominion.clients.net import Client, events_of
from dominion.protocol import Snapshot, Update
from tests.server.test_process import start_server
from tests.tiers import Tier, starts

from .serverproc import server_url, stop

__all__ = ["server_url"]


async def played_then_resumed(server: str) -> tuple[list[dict[str, object]], list[object]]:
    """Ann plays a few decisions against a bot and leaves; a new connection resumes her
    seat from event 0. What she saw the first time, and what the resume sends."""
    async with aiohttp.ClientSession() as session:
        created = await Lobby(server, session).create("Ann", 2, kingdom="First Game",
                                                      bots={1: "big_money"})
        game, token = created["game"]["id"], created["token"]
        seen: list[dict[str, object]] = []
        async with Client(server, session=session) as client:
            state = await client.rejoin(game, token)
            answered = 0
            while answered < 6:
                push = await client.next_push(timeout=20)
                seen += [event for _seq, event in events_of(push)]
                decision = state.my_decision()
                if decision is not None and push is not None and isinstance(push, Update):
                    await client.answer(game, decision["id"], [
                        o["id"] for o in decision["options"] if o["kind"] in (
                            "play_all_treasures", "end_phase")][:1])
                    answered += 1
            seen_count = state.seq
        async with Client(server, session=session, reconnect=False) as again:
            await again.rejoin(game, token)
            pushes = [await again.next_push(timeout=20)]
        return seen[:seen_count], pushes


def own_draws(events: list[dict[str, object]]) -> list[object]:
    return [event.get("cards") for event in events
            if event.get("kind") == "drew" and event.get("player") == 0]


def test_a_seat_resuming_from_zero_gets_its_own_history_as_it_saw_it(server_url: str
                                                                      ) -> None:
    seen, pushes = asyncio.run(asyncio.wait_for(played_then_resumed(server_url), 60))
    assert isinstance(pushes[0], Update)
    resumed = list(pushes[0].events)
    assert resumed[:len(seen)] == seen
    assert own_draws(resumed) and all(isinstance(cards, list) for cards in own_draws(resumed))
    # the bot's draws stay hidden from Ann, as they were
    assert all("cards" not in event for event in resumed
               if event.get("kind") == "drew" and event.get("player") == 1)


@pytest.fixture
@starts(Tier.INTEGRATION)
def short_window_server(tmp_path: Path) -> Iterator[str]:
    """A server that replays at most 5 missed events on a resume (else a snapshot)."""
    process, url = start_server(tmp_path / "games.sqlite3", "--resume-window", "5")
    yield url
    stop(process)


def test_a_long_game_still_resumes_with_the_seats_own_history(short_window_server: str
                                                              ) -> None:
    seen, pushes = asyncio.run(asyncio.wait_for(played_then_resumed(short_window_server),
                                                60))
    assert not isinstance(pushes[0], Snapshot)
    # every draw Ann saw, as she saw it (the game may have gone on since she left)
    drawn = own_draws([e for p in pushes for _s, e in events_of(p)])
    assert drawn[:len(own_draws(seen))] == own_draws(seen)
