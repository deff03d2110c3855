"""The terminal client's game state (clients/state.py) is the server's view: after every
answer of random games of every Kingdom card (both editions), every seat's state and a
spectator's, kept from the `update` frames alone, show the engine's counters, what every
player owns and their points. A complete replay's reader follows the hands through the
events (where cards go, not what they do)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dominion.bots import make_strategy
from dominion.clients.state import GameState, PlayerState, ReplayHands
from dominion.server.engine import Game, Setup, event_record, view

from .view_games import answer_as, changes, kingdoms


def shown(state: GameState) -> dict[str, Any]:
    """What a screen or a bot reads from the state, named as the view names it."""
    return {
        "viewer": state.seat, "supply": state.supply, "trash": state.trash,
        "turn": {"number": state.turn_number, "player": state.turn_player,
                 "player_turn": state.player_turn, "phase": state.phase,
                 "actions": state.actions, "buys": state.buys, "coins": state.coins},
        "players": [player_fields(p) for p in state.players],
        "decision": state.decision, "result": state.result,
    }


def player_fields(player: PlayerState) -> dict[str, Any]:
    fields = {"seat": player.seat, "name": player.name, "hand_size": player.hand_size,
              "discard_top": player.discard_top, "in_play": player.in_play,
              "set_aside": player.set_aside, "turns": player.turns, "owned": player.owned,
              "points": player.points, "resigned": player.resigned}
    if player.hand is not None:
        fields |= {"hand": player.hand, "deck_size": player.deck_size}
    return fields


def expected_fields(seen: dict[str, Any]) -> dict[str, Any]:
    players = [{key: value for key, value in p.items() if key != "looking"}
               for p in seen["players"]]
    turn = dict(seen["turn"])
    if seen["result"] is not None:
        turn["phase"] = "game_over"
    return {"viewer": seen["viewer"], "supply": seen["supply"], "trash": seen["trash"],
            "turn": turn, "players": players, "decision": seen["decision"],
            "result": seen["result"]}


@pytest.mark.integration  # whole games for every viewer: over the unit tier's CPU budget
@pytest.mark.parametrize("edition", [1, 2])
def test_every_viewers_state_is_the_engines_view_after_every_answer(edition: int) -> None:
    states: dict[tuple[str, int | None], GameState] = {}
    checked = 0
    for number, kingdom in enumerate(kingdoms(edition)):
        for change in changes(edition, number, kingdom):
            state = states.setdefault((change.game, change.viewer),
                                      GameState(game="g", seat=change.viewer))
            update = change.update
            held = state.seq
            new = state.apply_update(update.seq, update.events, update.decision, update.view)
            assert [n for n, _ in new] == list(range(held + 1, update.seq + 1))
            assert state.seq == change.expected["event_count"]
            assert shown(state) == expected_fields(change.expected), (change.game, state.seat)
            checked += 1
    assert checked > 3000


def test_an_update_that_repeats_events_already_held_hands_out_only_the_new_ones() -> None:
    state = GameState(game="g", seat=0)
    game = Game(Setup.create(2, kingdom="First Game"), seed=1)
    seen = view(game, 0)
    events = [{"kind": "drew", "player": 0, "count": 5}, {"kind": "phase", "zone": "buy"}]
    assert [n for n, _ in state.apply_update(2, events, None, seen)] == [1, 2]
    assert state.apply_update(2, events, None, seen) == []
    assert [n for n, _ in state.apply_update(3, events, None, seen)] == [3]
    assert state.seq == 3


def test_a_complete_replays_reader_follows_every_hand_and_pile() -> None:
    for edition in (1, 2):
        for number, kingdom in enumerate(kingdoms(edition)):
            game = Game(Setup.create(3, edition=edition, kingdom=kingdom), seed=number)
            strategy = make_strategy("random", random.Random(number))
            replay = ReplayHands()
            seen = 0
            for _ in range(300):
                for event in game.events[seen:]:
                    seen += 1
                    replay.apply(seen, event_record(event))
                state = replay.state
                assert state.supply == game.supply and state.trash == game.trash
                for seat, player in enumerate(game.players):
                    assert sorted(replay.hand(seat)) == sorted(player.hand)
                    assert sorted(state.players[seat].in_play) == sorted(player.in_play)
                    assert state.players[seat].turns == player.turns
                assert state.player_turn == game.players[game.turn.player].turns
                if game.pending is None:
                    break
                answer_as(strategy, game)
