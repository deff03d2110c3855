"""The strong bot answers exactly as it did when its card knowledge became one table
(bots/strong/cards.py): seeded games on random Kingdoms of both editions, 2-4 players,
every answer hashed and compared with a digest recorded from the code before the change.

Besides the bots that choose their plan (each level), seats play a plan forced around a
random Kingdom card, so that the bot also owns and plays the cards no chosen plan buys
(Chapel, Thief, Spy, Throne Room, Harbinger...) and answers their questions. A change
meant to alter the bot's play changes these digests: record the new ones (`digest` below
prints them) in the same change, saying why. Last recorded when it began to play
Chapel/Witch in 2-player Kingdoms holding both (thin_plan.py), and Chapel became worth
playing on a Copper beyond four coins of Treasure (tactics.py), which changes those
Kingdoms' 2-player games and the games of every forced plan that owns a Chapel. Seed 1
re-recorded when that plan began to buy a Market or Festival where the Kingdom has no
Laboratory, and its Duchies to come from 4 gains to the end rather than 5 (measured:
docs/BOTS.md, "Against the simulators' reference strategies"): its 2-player
Chapel/Witch games changed."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field, replace

import pytest

from dominion.bots.strong import Level, StrongBot
from dominion.bots.strong.plans import Plan
from dominion.server.engine import Game, Setup
from dominion.server.engine.setup import random_kingdom
from dominion.server.engine.view import Ownership
from dominion.server.play.bots import seat_table

GAMES = 40
RECORDED = {0: "ca8d9a846470ea1852ff23ff48bb5b2b", 1: "72c47e45c2556931b4b1a73a603b6e3d",
            2: "97b51a0227ac3d0fab92453955fbc686", 3: "eb41fbbc93d45f844ed486bf3d8ebe56",
            4: "0991f80bd3831ff05a10cf23f63187ed"}
"""The digest of each seed's GAMES games: 200 games in all, in parts that each fit the
unit tier's budget."""
ASKING = {"bureaucrat", "cellar", "chancellor", "chapel", "feast", "harbinger", "library",
          "militia", "mine", "moneylender", "remodel", "sentry", "spy", "thief", "throne_room",
          "witch", "workshop"}
"""Cards whose questions each part's games ask (the others' come up more rarely)."""

def a_bot(rng: random.Random, kingdom: tuple[str, ...]) -> StrongBot:
    """A strong bot at a random level, or one whose plan is forced around a random card."""
    if rng.random() < 0.4:
        return StrongBot(level=rng.choice(list(Level)))
    card, support = rng.sample(kingdom, 2)
    return StrongBot(plan=Plan(card, rng.randint(1, 4), rng.choice((0, 3, 6)),
                               over_gold=rng.random() < 0.3, support=support,
                               support_copies=rng.randint(1, 4)))


@dataclass
class Digest:
    hash: hashlib._Hash = field(default_factory=hashlib.sha256)
    decisions: int = 0
    asked: Counter[tuple[str, str | None]] = field(default_factory=Counter)
    """Decisions by kind and source: what the games covered."""

    def hexdigest(self) -> str:
        return self.hash.hexdigest()[:32]


def digest(games: int, seed: int) -> Digest:
    """Play `games` seeded games of strong bots only; hash each decision and its answer."""
    rng = random.Random(seed)
    found = Digest()
    for _ in range(games):
        edition, players = rng.choice((1, 2)), rng.randint(2, 4)
        kingdom = random_kingdom(edition, rng)
        game = Game(replace(Setup.create(players, edition=edition), kingdom=kingdom),
                    seed=rng.getrandbits(64))
        bots = [a_bot(rng, kingdom) for _ in range(players)]
        ownership = Ownership()  # kept, as play_out keeps it
        while (decision := game.pending) is not None:
            seat = decision.player
            answer = bots[seat].choose(decision, seat_table(game, seat, ownership))
            options = ",".join(f"{option.kind}:{option.card}" for option in decision.options)
            found.hash.update(f"{seat}|{decision.kind}|{decision.source}|{decision.min}|"
                              f"{decision.max}|{options}|{answer}\n".encode())
            found.decisions += 1
            found.asked[str(decision.kind), decision.source] += 1
            game.answer(seat, decision.id, answer)
    return found


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_seeded_games_answer_as_before(seed: int) -> None:
    played = digest(GAMES, seed)
    assert {source for _, source in played.asked} >= ASKING
    assert played.hexdigest() == RECORDED[seed]
