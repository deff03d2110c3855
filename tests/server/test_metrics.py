"""/metrics counts what a host watches, through a game played over a real WebSocket:
connections, live games, accepted answers, their latency and refusals by error code; and
the process, the event loop, the account store, the rating outbox and the build."""

from __future__ import annotations

import asyncio
import random

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.parser import text_string_to_metric_families

from dominion.protocol import Answer
from dominion.server.edge.state import STATE, package_version
from dominion.server.edge.tasks.rating_outbox import RatingOutbox
from dominion.server.engine import ENGINE
from dominion.server.metrics import ANSWER_BUCKETS, LoopCounter, LoopHistogram
from dominion.server.play.fill import store_one
from tests.eventually import eventually
from tests.ratings.test_outbox import NOW, finish_rated

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
    # the player's answers came over the socket: each timed from its frame to its ack
    assert value(ended, "dominion_answer_seconds_count") == ann.answered
    assert 0 < value(ended, "dominion_answer_seconds_sum") < ann.answered * 5
    assert value(ended, "dominion_errors_total", code="stale_decision") == 1
    await ann.client.ws.close()

    async def no_connections() -> bool:
        return value(await scrape(site), "dominion_connections") == 0
    await eventually(no_connections)


async def test_the_process_the_loop_and_the_build_are_measured(ws_server: ServerFactory) -> None:
    site = await ws_server()
    samples = await scrape(site)
    assert value(samples, "process_cpu_seconds_total") > 0
    assert value(samples, "process_resident_memory_bytes") > 0
    assert value(samples, "dominion_build_info", version=package_version(),
                 engine=ENGINE.value) == 1
    assert value(samples, "dominion_accounts_up") == 1

    async def the_loop_was_measured() -> bool:
        return value(await scrape(site), "dominion_event_loop_lag_seconds_count") >= 2
    await eventually(the_loop_was_measured)


async def test_the_archive_backlog_counts_ended_games_the_archive_lacks(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    assert value(await scrape(site), "dominion_archive_backlog") == 0
    outbox = site.app[STATE].archive_outbox
    stored = site.app_state().storage
    await store_one(stored, random.Random(1), ("big_money",), 2, 2)  # ended, not yet woken
    assert value(await scrape(site), "dominion_archive_backlog") == 1
    outbox.wake()

    async def handed_on() -> bool:
        return value(await scrape(site), "dominion_archive_backlog") == 0
    await eventually(handed_on)


async def test_the_rating_outbox_backlog_counts_games_the_ledger_lacks(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    store = site.app[STATE].accounts.store
    ada = await store.create_account("Ada", "ada", "h", NOW)
    assert value(await scrape(site), "dominion_rating_outbox_backlog") == 0
    await finish_rated(site.app_state().storage, ada.id)  # ended; its outbox not yet woken
    assert value(await scrape(site), "dominion_rating_outbox_backlog") == 1
    outbox: RatingOutbox = site.app[STATE].rating_outbox
    outbox.wake()

    async def handed_on() -> bool:
        return value(await scrape(site), "dominion_rating_outbox_backlog") == 0
    await eventually(handed_on)


def test_the_loops_counter_and_histogram_export_what_prometheus_clients_would() -> None:
    """The answer's own counter and histogram, counted without locks, show the samples
    prometheus_client's `Counter` and `Histogram` show for the same observations (but
    the time each was created)."""
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    counter, reference = LoopCounter("c", "d", registry=ours), Counter("c", "d", registry=theirs)
    histogram = LoopHistogram("h", "i", buckets=ANSWER_BUCKETS, registry=ours)
    expected = Histogram("h", "i", buckets=ANSWER_BUCKETS, registry=theirs)
    for amount in (0.0, 0.001, 0.0011, 0.003, 0.7, 5.0, 9.5, 0.001):
        counter.inc()
        reference.inc()
        histogram.observe(amount)
        expected.observe(amount)

    def samples(registry: CollectorRegistry) -> list[tuple[str, dict[str, str], float]]:
        return [(sample.name, sample.labels, sample.value) for family in registry.collect()
                for sample in family.samples if not sample.name.endswith("_created")]

    assert samples(ours) == samples(theirs)
