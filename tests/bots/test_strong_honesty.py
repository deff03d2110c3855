"""The strong bot is honest: it answers from what its seat may know. Changing another
player's hidden cards or the order of any deck, everything the seat sees staying the
same, never changes its answer, over many positions of many games. It reads a table built
from its seat's view map, as every bot does (tests/bots/test_seat_table.py: nothing of
the game is reachable from it)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from dominion.bots import DecisionLike, Strategy, Table, make_strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong import StrongBot
from dominion.bots.wire import WireDecision
from dominion.clients.state import GameState
from dominion.server.engine import Game, Setup, view
from dominion.server.engine.setup import random_kingdom
from dominion.server.engine.state import PlayerState
from dominion.server.play.bots import CARD_FACTS, seat_table


def hide_differently(game: Game, seat: int, rng: random.Random) -> None:
    """Deal the cards `seat` cannot see anew: the other players' hands, decks and discard
    piles below their tops mixed together (sizes kept), and every deck reshuffled."""
    for other in game.players:
        if other.seat != seat:
            _mix_hidden(other, rng)
        rng.shuffle(other.deck)


def _mix_hidden(p: PlayerState, rng: random.Random) -> None:
    top = 1 if p.discard_top is not None else 0
    below = len(p.discard) - top
    hidden = p.hand + p.deck + p.discard[:below]
    rng.shuffle(hidden)
    hand, deck = len(p.hand), len(p.deck)
    p.hand[:] = hidden[:hand]
    p.deck[:] = hidden[hand:hand + deck]
    p.discard[:below] = hidden[hand + deck:]


def check_honest(make_bot: Callable[[Game], Strategy], *, games: int, players: int,
                 edition: int, seed: int) -> int:
    """Play `games` games of `make_bot` (given the game, which only a cheat would keep) at
    seat 0 against Big Money; at each of its decisions ask a copy of it again, from the
    seat's view after `hide_differently`, and fail on any other answer. Returns the
    positions checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        setup = replace(Setup.create(players, edition=edition),
                        kingdom=random_kingdom(edition, rng))
        game = Game(setup, seed=rng.getrandbits(64))
        bots = [make_bot(game), *(make_strategy("big_money") for _ in range(players - 1))]
        while (decision := game.pending) is not None:
            seat = decision.player
            if seat == 0:
                again = copy.deepcopy(bots[0])
                answer = bots[0].choose(decision, seat_table(game, 0))
                hide_differently(game, 0, rng)
                assert again.choose(decision, seat_table(game, 0)) == answer, (
                    f"hidden cards changed the answer to {decision}")
                checked += 1
            else:
                answer = bots[seat].choose(decision, seat_table(game, seat))
            game.answer(seat, decision.id, answer)
    return checked


@pytest.mark.parametrize(("players", "edition"), [(2, 2), (2, 1), (4, 2), (3, 1)])
def test_hidden_cards_never_change_the_strong_bots_answer(players: int, edition: int) -> None:
    assert check_honest(lambda game: StrongBot(), games=12, players=players, edition=edition,
                        seed=players * 10 + edition) > 12 * 40


class Peeker:
    """A bot that looks at the next player's hand: the check must catch it. Its table
    holds nothing of the game, so it cheats with a game handed to it apart."""

    name = "peeker"

    def __init__(self, game: Game) -> None:
        self.inner = StrongBot()
        self.game = game

    def __deepcopy__(self, memo: dict[int, object]) -> Peeker:
        twin = Peeker(self.game)  # the same game: a copy would keep the hands before
        twin.inner = copy.deepcopy(self.inner, memo)
        return twin

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        rival = self.game.players[1]  # a cheat, on purpose
        if decision.kind == "buy" and "gold" in rival.hand:
            return [len(decision.options) - 1]
        return self.inner.choose(decision, table)


def test_the_check_catches_a_bot_that_peeks() -> None:
    with pytest.raises(AssertionError, match="hidden cards changed the answer"):
        check_honest(Peeker, games=6, players=2, edition=2, seed=1)


def test_over_the_network_it_answers_as_in_the_server() -> None:
    """The seat's view as the server builds it for that seat (a network bot's table)
    gives every answer the engine's table gives."""
    rng = random.Random(5)
    for _ in range(4):
        setup = replace(Setup.create(2), kingdom=random_kingdom(2, rng))
        game = Game(setup, seed=rng.getrandbits(64))
        bots = [StrongBot(), StrongBot()]
        wire_bots = [StrongBot(), StrongBot()]
        while (decision := game.pending) is not None:
            seat = decision.player
            state = GameState(game="g", seat=seat)
            state.take_view(view(game, seat))
            seen = view(game, seat)["decision"]
            answer = bots[seat].choose(decision, seat_table(game, seat))
            assert state.view is not None
            table = SeatTable.from_view(state.view, CARD_FACTS)
            assert wire_bots[seat].choose(WireDecision.from_map(seen), table) == answer
            game.answer(seat, decision.id, answer)
