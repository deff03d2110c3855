"""Lay out a game exactly as a test needs it, then play from a chosen turn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dominion.server.engine import Decision, Game, Setup
from dominion.server.engine.state import TurnState

SECOND_EDITION_KINGDOM = "First Game"


def scenario(
    *,
    players: int = 2,
    edition: int = 2,
    kingdom: Sequence[str] | str = SECOND_EDITION_KINGDOM,
    seat: int = 0,
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    discards: dict[int, list[str]] | None = None,
    supply: dict[str, int] | None = None,
    seed: int = 0,
    discard_tops: bool = True,
) -> Game:
    """A game whose turn for `seat` starts now, with the zones given.

    Decks and discard piles list the top card LAST. Players not named get empty
    zones. `supply` overrides pile counts; `discard_tops=False` plays by the rules of
    games stored before events told a discard pile's new top. Cards a test takes out of nowhere are
    fine here: conservation is checked by the random-game tests, not by scenarios.
    """
    setup = Setup.create(players, edition=edition, kingdom=kingdom)
    game = Game(replace(setup, discard_tops=discard_tops), seed=seed)
    for p in game.players:
        p.hand = list((hands or {}).get(p.seat, []))
        p.deck = list((decks or {}).get(p.seat, []))
        p.discard = list((discards or {}).get(p.seat, []))
        p.in_play, p.set_aside, p.looking = [], [], []
    game.count_holdings()
    game.supply.update(supply or {})
    game._empty_piles = tuple(card for card, left in game.supply.items() if not left)
    game.turn = TurnState()
    game.events.clear()
    game.answers.clear()
    game._flow = game.play_turns(seat)
    game.pending = next(game._flow)
    return game


def pick(game: Game, *picks: int | str | tuple[str, str | None]) -> Decision | None:
    """Answer the pending decision by option ids, or by card id / (kind, card) of options."""
    decision = game.pending
    assert decision is not None, "the game is over"
    ids: list[int] = []
    for wanted in picks:
        if isinstance(wanted, int):
            ids.append(wanted)
            continue
        for i, option in enumerate(decision.options):
            matches = (option.card == wanted if isinstance(wanted, str)
                       else (option.kind.value, option.card) == wanted)
            if matches and i not in ids:
                ids.append(i)
                break
        else:
            raise AssertionError(f"no option {wanted!r} in {decision}")
    game.answer(decision.player, decision.id, ids)
    return game.pending


def play_action(game: Game, card: str) -> Decision | None:
    """In the Action phase, play `card` from hand."""
    return pick(game, ("play", card))


def end_phase(game: Game) -> Decision | None:
    return pick(game, ("end_phase", None))
