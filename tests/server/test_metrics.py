"""/metrics counts what a host watches, through a game played over a real WebSocket:
connections, live games, accepted answers and refusals by error code."""

from __future__ import annotations

import asyncio

from prometheus_client.parser import text_string_to_metric_families

from dominion.protocol import Answer
from tests.eventually import eventually

from .wsplay import Player, ServerFactory, Site, expect_error, ws_server

__all__ = ["ws_server"]

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(site: Site) -> Samples:
    async with site.session.get(site.url("/metrics")) as response:
        text = await response.text()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_metrics_follow_a_game_from_start_to_end(ws_server: ServerFactory) -> None:
    site = await ws_server()
    before = await scrape(site)
    assert value(before, "dominion_live_games") == 0
    game, token = await site.create(seats=2, bots={1: "big_money"})  # full: it starts
    ann = await Player.join(site, game, token)
    playing = await scrape(site)
    assert value(playing, "dominion_live_games") == 1
    assert value(playing, "dominion_connections") == 1
    await expect_error(ann.client, Answer, "stale_decision", game=game, decision=10**6,
                       options=[0])
    refused = await scrape(site)
    assert value(refused, "dominion_errors_total", code="stale_decision") == 1

    await asyncio.wait_for(ann.play(), 30)
    ended = await scrape(site)
    room_game = site.room(game).game
    assert room_game is not None and room_game.over
    assert value(ended, "dominion_live_games") == 0
    # every answer the game applied, the bot's as well as the player's, and none refused
    assert value(ended, "dominion_answers_total") == room_game.answer_count > ann.answered
    assert value(ended, "dominion_errors_total", code="stale_decision") == 1
    await ann.client.ws.close()

    async def no_connections() -> bool:
        return value(await scrape(site), "dominion_connections") == 0
    await eventually(no_connections)
