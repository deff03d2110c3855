"""A fairness checker written from docs/REPLAYS.md alone reproduces every shuffle.

It follows each player's deck and discard pile, in order, from a complete replay's events
by the rules of "The order of cards" (deck_to_discard, shuffles under cards still on the
deck, Harbinger's `index`, Vassal), and re-shuffles each discard pile with the
documented MT19937 (tests/engine/mt19937.py): every `shuffled` event must be exactly that
shuffle, and every card taken from a deck the one on top. Random games of every Kingdom
card, both editions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from dominion.bots import make_strategy
from dominion.server.engine import Game, Setup, event_record
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.bots import play_out

from .mt19937 import MT19937

STARTING_DECK = ["copper"] * 7 + ["estate"] * 3


@dataclass
class Piles:
    deck: list[str] = field(default_factory=list)
    """Bottom first: the last item is the top card."""
    discard: list[str] = field(default_factory=lambda: list(STARTING_DECK))


class OrderChecker:
    """What a verifier in another language would do with a complete replay's events."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = MT19937(seed)
        self.first_player = self.rng.below(players)
        self.piles = [Piles() for _ in range(players)]

    def take_from_deck(self, piles: Piles, cards: list[str]) -> None:
        for card in cards:  # listed in the order taken, the first from the top
            assert piles.deck.pop() == card

    def apply(self, event: dict[str, Any]) -> None:
        kind, zone, cards = event["kind"], event.get("zone"), event.get("cards", [])
        if kind == "game_started":
            assert event["data"]["first_player"] == self.first_player
            return
        if "player" not in event:
            return
        piles = self.piles[event["player"]]
        data = event.get("data", {})
        if kind == "shuffled":
            pile = piles.discard
            self.rng.shuffle(pile)
            assert cards == pile
            piles.deck[:0] = pile  # under any cards the events have not yet taken
            piles.discard = []
        elif kind in ("drew", "looked_at") or (kind == "revealed" and zone == "deck"):
            self.take_from_deck(piles, cards)
        elif kind == "discarded":
            if zone == "deck" and event.get("source") == "vassal":
                self.take_from_deck(piles, cards)
            piles.discard.extend(cards)
        elif kind in ("bought", "gained") and zone == "discard":
            piles.discard.extend(cards)
        elif kind == "gained" and zone == "deck":
            piles.deck.extend(cards)
        elif kind == "put_on_deck":
            if zone == "discard":  # Harbinger: the copy at `index`
                assert piles.discard.pop(data["index"]) == cards[0]
                assert data["discard_top"] == (piles.discard[-1] if piles.discard else None)
            piles.deck.extend(cards)
        elif kind == "played" and zone == "discard":  # Vassal: its card, from the top
            assert piles.discard.pop() == cards[0]
            assert data["discard_top"] == (piles.discard[-1] if piles.discard else None)
        elif kind == "deck_to_discard":  # Chancellor: the deck, in its order, goes under
            assert cards == piles.deck
            piles.discard[:0] = piles.deck
            piles.deck = []


def random_games(edition: int) -> Iterator[tuple[int, Game]]:
    """Random games covering every Kingdom card of the edition, 2 to 4 players: each
    with its seed, played to the end."""
    rng = random.Random(edition)
    cards = list(kingdom_cards(edition))
    kingdoms = [cards[i:i + 10] for i in range(0, len(cards) - 9, 10)]
    kingdoms += [rng.sample(cards, 10) for _ in range(4)]
    for number, kingdom in enumerate(kingdoms):
        players = 2 + number % 3
        seed = rng.getrandbits(128)
        game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=seed)
        play_out(game, [make_strategy("random", random.Random(seat)) for seat in range(players)])
        yield seed, game


@pytest.mark.parametrize("edition", [1, 2])
def test_a_checker_from_the_docs_reproduces_every_shuffle(edition: int) -> None:
    shuffles = 0
    for seed, game in random_games(edition):
        checker = OrderChecker(seed, len(game.players))
        for event in game.events:
            checker.apply(event_record(event))
        for mine, theirs in zip(checker.piles, game.players, strict=True):
            assert (mine.deck, mine.discard) == (theirs.deck, theirs.discard)
        shuffles += sum(1 for event in game.events if event.kind == "shuffled")
    assert shuffles > 100


@pytest.mark.parametrize("edition", [1, 2])
def test_the_zones_the_pile_table_names_are_the_events_zones(edition: int) -> None:
    """docs/REPLAYS.md, "Following every pile's order": `drew` has no zone, and of the
    events from `deck` that the table does not move cards for, each is Sentry's (its
    `looked_at` took them) or Vassal's `discarded`."""
    seen: set[tuple[str, str | None, str | None]] = set()
    for _seed, game in random_games(edition):
        seen |= {(event.kind, event.zone, event.source) for event in game.events}
    assert {zone for kind, zone, _source in seen if kind == "drew"} == {None}
    from_deck = {(kind, source) for kind, zone, source in seen if zone == "deck"
                 and kind not in ("gained", "revealed", "deck_to_discard")}
    sentry = {("looked_at", "sentry"), ("discarded", "sentry"), ("put_on_deck", "sentry"),
              ("trashed", "sentry")}
    assert from_deck == ({("discarded", "vassal")} | sentry if edition == 2 else set())
