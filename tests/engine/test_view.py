"""The view function's own rulings (docs/RULES.md, "Hidden and public information"), one
event and one decision at a time; the random-game and on-the-wire tests check the rest
over thousands of events."""

from __future__ import annotations

import random
from collections.abc import Iterator

from dominion.bots import Strategy, make_strategy
from dominion.bots.wire import WireDecision
from dominion.server.engine import (
    DecisionKind,
    Event,
    EventKind,
    Game,
    Setup,
    decision_view,
    fan_out,
    visible_event,
)
from dominion.server.engine.cards import kingdom_cards
from dominion.server.engine.scoring import count_cards, player_score
from dominion.server.engine.view import Ownership, board_views
from dominion.server.play.bots import seat_table
from tests.engine.scenario import play_action, scenario
from tests.engine.test_cards_second_edition import sentry_keeping_estate_and_copper
from tests.engine.test_cards_support import asked


def test_others_see_who_drew_how_many_and_by_which_card_but_not_the_cards() -> None:
    game = scenario(hands={0: ["smithy"]}, decks={0: ["gold", "silver", "copper"]})
    play_action(game, "smithy")
    [drew] = [event for event in game.events if event.kind is EventKind.DREW]
    assert visible_event(drew, 0) == {"kind": "drew", "player": 0,
                                      "cards": ["copper", "silver", "gold"], "source": "smithy"}
    outsider = {"kind": "drew", "player": 0, "count": 3, "source": "smithy"}
    assert visible_event(drew, 1) == outsider  # an opponent
    assert visible_event(drew, None) == outsider  # a spectator
    assert fan_out([drew], [0, 1, None]) == {0: [visible_event(drew, 0)], 1: [outsider],
                                              None: [outsider]}


def test_only_the_decider_sees_the_options_the_bounds_the_order_and_the_forcing() -> None:
    game = sentry_keeping_estate_and_copper()
    decision = asked(game, 0, DecisionKind.ORDER, "sentry", 2, 2)
    public = {"id": decision.id, "player": 0, "kind": "order", "prompt": decision.prompt,
              "source": "sentry"}
    assert decision_view(decision, 0) == public | {
        "min": 2, "max": 2, "ordered": True, "forced": False,
        "options": [{"id": 0, "kind": "card", "card": "estate"},
                    {"id": 1, "kind": "card", "card": "copper"}]}
    assert decision_view(decision, 1) == public
    assert decision_view(decision, None) == public


def games_of_every_kingdom_card(*, history: bool) -> Iterator[tuple[Game, Strategy]]:
    """Games whose Kingdoms together hold every Kingdom card of both editions, each with
    a random strategy to play it."""
    for edition in (1, 2):
        cards = list(kingdom_cards(edition))
        for number, start in enumerate(range(0, len(cards), 8)):
            kingdom = (cards[start:] + cards)[:10]
            yield (Game(Setup.create(2 + number % 3, edition=edition, kingdom=kingdom),
                        seed=number, history=history),
                   make_strategy("random", random.Random(number)))


def answer_randomly(game: Game, strategy: Strategy) -> list[Event]:
    """Answer the pending decision as `strategy` chooses; the change's events."""
    pending = game.pending
    assert pending is not None
    decision = WireDecision.from_map(decision_view(pending, pending.player))
    return game.answer(pending.player, pending.id, strategy.choose(
        decision, seat_table(game, decision.player)))


def test_what_the_game_keeps_each_player_owning_is_what_their_zones_hold() -> None:
    """The game counts each gain and trash into the player's `holdings` and points: after
    every answer of random games of every Kingdom card they are the cards in the player's
    zones, counted, in the same order, and what those score; and the views built with an
    `Ownership` kept between changes are the views built from nothing (Thief, Bandit,
    Remodel, Feast and the rest move cards)."""
    for game, strategy in games_of_every_kingdom_card(history=False):
        ownership = Ownership()
        viewers = [*range(len(game.players)), None]
        for _ in range(400):
            for p in game.players:
                assert list(p.holdings.items()) == list(count_cards(p.owned()).items())
                assert game.points(p) == player_score(p, game.cards)
            assert board_views(game, viewers, ownership) == board_views(game, viewers)
            if game.pending is None:
                break
            answer_randomly(game, strategy)


def test_the_game_counts_every_change_of_what_players_own() -> None:
    """`ownership_changes` counts the events that give or take a player's cards (an
    `Ownership` reads no events while it stays): one a buy, gain or trash."""
    changing = {EventKind.BOUGHT, EventKind.GAINED, EventKind.TRASHED}
    for game, strategy in games_of_every_kingdom_card(history=True):
        for _ in range(400):
            assert game.ownership_changes == sum(e.kind in changing for e in game.events)
            if game.pending is None:
                break
            answer_randomly(game, strategy)
