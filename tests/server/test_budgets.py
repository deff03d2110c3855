"""The pieces that bound what a resume costs: the compact answer log, the cache of
re-derived histories, the per-address allowances (an address: its network prefix) and
the server-wide one."""

from __future__ import annotations

import random

import pytest

from dominion.server.edge.transport.budgets import PRUNE_FROM, Budgets
from dominion.server.edge.transport.prefixes import address_key
from dominion.server.engine import Answer, Game, Resignation, Setup
from dominion.server.play.answer_log import AnswerLog
from dominion.server.play.history import GAME_WEIGHT, HistoryCache
from dominion.server.refusal import Refusal


def test_the_answer_log_gives_back_every_entry_in_a_few_bytes_each() -> None:
    rng = random.Random(5)
    entries: list[Answer | Resignation] = []
    decision = 0
    for _ in range(500):
        decision += rng.choice((1, 1, 2, 5, 300))
        if rng.random() < 0.02:
            entries.append(Resignation(rng.randrange(6)))
        else:
            entries.append(Answer(rng.randrange(6), decision, tuple(
                rng.choice((0, 1, 17, 127, 128, 65535)) for _ in range(rng.randrange(4)))))
    entries.append(Answer(0, 3, (1,)))  # a decision id smaller than the last one
    log = AnswerLog(entries)
    assert list(log) == entries and len(log) == len(entries)
    assert list(log.entries(100, 103)) == entries[100:103]
    assert list(log.entries(490)) == entries[490:]
    assert log.nbytes < 6 * len(entries)
    small: list[Answer | Resignation] = [Answer(0, 1, (2,)), Resignation(1), Answer(1, 3, ())]
    for some in (entries, small):  # with varints of several bytes; of one byte each
        one_by_one = AnswerLog()
        for entry in some:
            one_by_one.append(entry)
        bulk = AnswerLog(some[:2])
        bulk.extend(some[2:])  # (a decision id's step is from the last one before)
        assert list(one_by_one) == list(bulk) == some
        assert one_by_one.nbytes == bulk.nbytes


def test_a_game_of_the_answer_log_is_the_live_game() -> None:
    setup = Setup.create(["Ann", "Bob"], kingdom="First Game")
    live, log = Game(setup, seed=9, history=True), AnswerLog()
    while live.pending is not None and live.answer_count < 120:
        decision = live.pending
        choices = tuple(range(decision.min))
        live.answer(decision.player, decision.id, choices)
        log.append(Answer(decision.player, decision.id, choices))
    cache = HistoryCache(max_events=100_000)
    events = cache.events("g", lambda: Game(setup, seed=9), log, len(log))
    assert list(events) == live.events


def history_of(answers: int) -> tuple[Setup, AnswerLog]:
    setup = Setup.create(["Ann", "Bob"], kingdom="First Game")
    game, log = Game(setup, seed=3, history=False), AnswerLog()
    while game.pending is not None and len(log) < answers:
        decision = game.pending
        game.answer(decision.player, decision.id, tuple(range(decision.min)))
        log.append(Answer(decision.player, decision.id, tuple(range(decision.min))))
    return setup, log


def test_the_history_cache_catches_up_and_stays_within_its_bound() -> None:
    setup, log = history_of(60)
    cache = HistoryCache(max_events=10_000)
    start = len(Game(setup, seed=3).events)
    assert cache.replay_cost("a", 50) == 50  # nothing cached: everything is re-derived
    first = len(cache.events("a", lambda: Game(setup, seed=3), log, 30))
    assert cache.replayed == first > start
    assert cache.replay_cost("a", first + 7) == 7
    total = len(cache.events("a", lambda: Game(setup, seed=3), log, 60))
    assert cache.replayed == total  # only the answers since were applied
    assert cache.held == total + GAME_WEIGHT
    # a bound of about two such games: the least recently used goes
    small = HistoryCache(max_events=2 * (total + GAME_WEIGHT))
    for key in "abc":
        small.events(key, lambda: Game(setup, seed=3), log, 60)
    assert len(small) == 2 and small.held <= small.max_events
    assert small.replay_cost("a", total) == total and small.replay_cost("c", total) == 0
    # a history larger than the whole cache is not kept
    tiny = HistoryCache(max_events=10)
    tiny.events("a", lambda: Game(setup, seed=3), log, 60)
    assert len(tiny) == 0 and tiny.held == 0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_address_pays_before_the_work_and_refills_over_time() -> None:
    clock = Clock()
    budgets = Budgets({"work": (10, 100)}, clock)
    budgets.charge("work", "1.2.3.4", 60)
    with pytest.raises(Refusal) as refused:
        budgets.charge("work", "1.2.3.4", 60)
    assert refused.value.code == "rate_limited" and "retry in 2.0 s" in refused.value.message
    budgets.charge("work", "5.6.7.8", 100)  # another address has its own
    clock.now = 2.0
    budgets.charge("work", "1.2.3.4", 60)
    budgets.charge("work", "1.2.3.4", 0)  # nothing to pay is always paid


def test_a_connection_and_its_address_both_pay() -> None:
    clock = Clock()
    budgets = Budgets({"work": (10, 100)}, clock)
    own, other = budgets.allowance("work"), budgets.allowance("work")
    budgets.charge("work", "a", 70, own)
    with pytest.raises(Refusal):
        budgets.charge("work", "a", 40, other)  # the address has 30 left
    with pytest.raises(Refusal):
        budgets.charge("work", "b", 40, own)  # this connection has 30 left
    budgets.charge("work", "b", 30, own)
    assert own.tokens == 0 and other.tokens == 100


def test_a_cost_beyond_the_burst_is_paid_from_a_full_allowance_and_owed() -> None:
    clock = Clock()
    budgets = Budgets({"work": (10, 100)}, clock)
    budgets.charge("work", "a", 250)
    assert budgets.seconds_until("work", "a", 1) == pytest.approx(15.1)


def test_idle_addresses_are_forgotten() -> None:
    clock = Clock()
    budgets = Budgets({"chat": (1, 5)}, clock)
    for n in range(PRUNE_FROM):
        budgets.charge("chat", f"10.0.{n // 256}.{n % 256}", 1)
    clock.now = 10.0  # every allowance is full again
    budgets.charge("chat", "192.0.2.1", 1)
    assert len(budgets) == 1


@pytest.mark.parametrize(("kind", "said"), [("games", "too many games from your address"),
                                            ("chat", "too many chat lines from your address"),
                                            ("work", "too much resume and replay work from")])
def test_a_refusal_names_what_was_spent_in_plain_words(kind: str, said: str) -> None:
    budgets = Budgets({kind: (1, 1)}, Clock())
    budgets.charge(kind, "a", 1)
    with pytest.raises(Refusal) as refused:
        budgets.charge(kind, "a", 1)
    assert refused.value.message.startswith(said)
def test_the_server_wide_allowance_bounds_every_address_together() -> None:
    clock = Clock()
    budgets = Budgets({"work": (10, 100)}, clock, server={"work": (20, 150)})
    budgets.charge("work", "10.0.0.1", 100)
    # the next address is within its own allowance, but the server has 50 left
    with pytest.raises(Refusal) as refused:
        budgets.charge("work", "10.0.0.2", 60)
    assert refused.value.code == "rate_limited" and refused.value.retry_after_ms == 500
    assert "the server" in refused.value.message
    assert budgets.seconds_until("work", "10.0.0.2", 60) == pytest.approx(0.5)
    budgets.charge("work", "10.0.0.2", 50)  # the refusal took nothing
    with pytest.raises(Refusal):
        budgets.charge("work", "10.0.0.3", 1)
    clock.now = 1.0  # the server's refills at 20 a second, each address's at 10
    budgets.charge("work", "10.0.0.3", 20)
    with pytest.raises(Refusal):
        budgets.charge("work", "10.0.0.4", 1)
    budgets.charge("chat", "10.0.0.4", 0)  # a kind without a server-wide allowance


@pytest.mark.parametrize(("address", "ipv4", "ipv6", "key"), [
    ("2001:db8:1:2::1", 32, 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", 32, 64, "2001:db8:1:2::/64"),  # the same /64
    ("2001:db8:1:3::1", 32, 64, "2001:db8:1:3::/64"),  # the next one
    ("2001:db8:1:3::1", 32, 48, "2001:db8:1::/48"),
    ("fe80::1%eth0", 32, 64, "fe80::/64"),  # a zone is no part of the key
    ("127.0.0.1", 32, 64, "127.0.0.1/32"),
    ("127.0.0.1", 24, 64, "127.0.0.0/24"),
    ("127.0.0.2", 24, 64, "127.0.0.0/24"),  # shares 127.0.0.1's
    ("::ffff:127.0.0.2", 24, 64, "127.0.0.0/24"),  # IPv4-mapped counts as IPv4
    ("::ffff:203.0.113.9", 32, 1, "203.0.113.9/32"),
    ("unknown", 32, 64, "unknown"),  # not an address: its own key
])
def test_an_address_is_counted_by_its_network(address: str, ipv4: int, ipv6: int,
                                              key: str) -> None:
    assert address_key(address, ipv4, ipv6) == key
