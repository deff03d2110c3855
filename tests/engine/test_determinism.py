"""A game is its set-up, seed and answers: the same inputs give the same game, anywhere."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from dominion.bots import make_strategy
from dominion.server.engine import Answer, Game, Setup, replay
from dominion.server.engine.rng import Rng
from dominion.server.engine.view import event_record
from dominion.server.play.bots import play_out

from .mt19937 import MT19937

GAME_DIGEST_SCRIPT = """
import hashlib, json, random
from dominion.bots import make_strategy
from dominion.server.play.bots import play_out
from dominion.server.engine import Game, Setup
from dominion.server.engine.view import event_record
setup = Setup.create(3, edition=2, kingdom="Size Distortion")
game = Game(setup, seed=2026)
play_out(game, [make_strategy("random", random.Random(seat)) for seat in range(3)])
text = json.dumps([event_record(e) for e in game.events], sort_keys=True)
print(hashlib.sha256(text.encode()).hexdigest())
"""


def digest_here() -> str:
    import random

    setup = Setup.create(3, edition=2, kingdom="Size Distortion")
    game = Game(setup, seed=2026)
    play_out(game, [make_strategy("random", random.Random(seat)) for seat in range(3)])
    text = json.dumps([event_record(e) for e in game.events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.integration  # a real server or socket
def test_same_game_in_a_fresh_process() -> None:
    fresh = subprocess.run([sys.executable, "-c", GAME_DIGEST_SCRIPT], capture_output=True,
                           text=True, check=True)
    assert fresh.stdout.strip() == digest_here()


def test_replay_reproduces_events_and_state() -> None:
    setup = Setup.create(2, kingdom="First Game")
    game = Game(setup, seed=99)
    play_out(game, [make_strategy("smithy_big_money"), make_strategy("big_money")])
    again = replay(setup, 99, game.answers)
    assert again.events == game.events
    assert again.snapshot() == game.snapshot()
    assert again.result == game.result


def test_different_seeds_give_different_shuffles() -> None:
    setup = Setup.create(2, kingdom="First Game")
    hands = {tuple(Game(setup, seed=seed).players[0].hand) for seed in range(20)}
    assert len(hands) > 1


def test_shuffle_matches_its_documented_algorithm() -> None:
    # An independent MT19937 following rng.py's description gives the same draws and
    # the same starting deck order, so the algorithm can be re-implemented from its text.
    for seed in (0, 42, 2026, 2**100 + 12345):
        reference, ours = MT19937(seed), Rng(seed)
        assert [reference.below(n) for n in range(2, 300)] == [ours.below(n) for n in range(2, 300)]
    setup = Setup.create(3, kingdom="First Game")
    game = Game(setup, seed=2**64 + 7)
    reference = MT19937(2**64 + 7)
    assert game.first_player == reference.below(3)
    for p in game.players:
        deck = ["copper"] * 7 + ["estate"] * 3
        reference.shuffle(deck)
        assert p.deck + p.hand[::-1] == deck  # the hand was drawn from the top (the end)


def test_seed_defaults_to_a_fresh_secure_one() -> None:
    setup = Setup.create(2, kingdom="First Game")
    seeds = {Game(setup).seed for _ in range(5)}
    assert len(seeds) == 5 and all(seed.bit_length() <= 128 for seed in seeds)


def test_resignation_is_part_of_the_replayed_log() -> None:
    import random

    setup = Setup.create(3, kingdom="First Game")
    game = Game(setup, seed=5)
    bots = [make_strategy("random", random.Random(seat)) for seat in range(3)]
    from dominion.server.play.bots import seat_table

    for _ in range(30):
        decision = game.pending
        assert decision is not None
        game.answer(decision.player, decision.id,
                    bots[decision.player].choose(decision, seat_table(game, decision.player)))
    game.resign(1)
    assert not game.over
    play_out(game, bots)
    again = replay(setup, 5, game.answers)
    assert again.events == game.events
    assert game.result is not None and 1 not in game.result.winners
    assert game.result.resigned == (1,)


def test_a_game_without_history_produces_the_same_events_and_keeps_none() -> None:
    import random

    setup = Setup.create(3, edition=2, kingdom="Size Distortion")
    full = Game(setup, seed=7)
    play_out(full, [make_strategy("random", random.Random(seat)) for seat in range(3)])
    lean = Game(setup, seed=7, history=False)
    produced = list(lean.events)  # set-up and first turn, up to the first decision
    for entry in full.answers:
        if isinstance(entry, Answer):
            new = lean.answer(entry.player, entry.decision, entry.choices)
        else:
            new = lean.resign(entry.player)
        assert lean.events == new, "only the latest change's events are kept"
        produced += new
        assert lean.event_count == len(produced)
    assert produced == full.events
    assert lean.answers == [] and lean.answer_count == full.answer_count == len(full.answers)
    assert lean.over and lean.result == full.result
    assert replay(setup, 7, full.answers, history=False).event_count == len(full.events)
