"""Helpers shared by the card and turn-rule scenario tests (this module has no tests)."""

from __future__ import annotations

from typing import Any

from dominion.server.engine import Decision, DecisionKind, Event, EventKind, Game, Secrecy
from tests.engine.scenario import end_phase

ZONES = ("hand", "deck", "discard", "in_play", "set_aside")


def zones(game: Game, seat: int) -> dict[str, list[str]]:
    """A player's zones by name (piles list the top card last)."""
    p = game.players[seat]
    return {zone: list(getattr(p, zone)) for zone in ZONES}


def pending(game: Game) -> Decision:
    decision = game.pending
    assert decision is not None, "the game is over"
    return decision


def opts(game: Game) -> list[tuple[str, str | None]]:
    """The pending decision's options as (kind, card), in option-id order."""
    return [(o.kind.value, o.card) for o in pending(game).options]


def asked(game: Game, player: int, kind: DecisionKind, source: str | None,
          min_count: int = 1, max_count: int = 1) -> Decision:
    """Assert who is asked what, and return the decision."""
    decision = pending(game)
    assert (decision.player, decision.kind, decision.source, decision.min, decision.max) == (
        player, kind, source, min_count, max_count), decision
    return decision


def answer_forced(game: Game, player: int, kind: DecisionKind, source: str | None
                  ) -> list[tuple[str, str | None]]:
    """Assert that `player` is asked a forced question (its one answer: every option, in
    order), answer it so, and return its options as (kind, card)."""
    decision = pending(game)
    assert (decision.player, decision.kind, decision.source, decision.forced) == (
        player, kind, source, True), decision
    assert decision.min == decision.max == len(decision.options), decision
    options = opts(game)
    game.answer(player, decision.id, list(range(len(decision.options))))
    return options


def buyable(game: Game) -> set[str]:
    """The cards the pending Buy decision offers to buy."""
    decision = pending(game)
    assert decision.kind is DecisionKind.BUY, decision
    return {o.card for o in decision.options if o.kind.value == "buy" and o.card}


def to_buy_phase(game: Game) -> None:
    """End the Action phase if it is still asking."""
    if pending(game).kind is DecisionKind.PLAY_ACTION:
        end_phase(game)
    assert pending(game).kind is DecisionKind.BUY


def events(game: Game, *kinds: EventKind, source: Any = ...) -> list[Event]:
    return [e for e in game.events
            if (not kinds or e.kind in kinds) and (source is ... or e.source == source)]


def moves(game: Game, *kinds: EventKind,
          source: Any = ...) -> list[tuple[str, int | None, tuple[str, ...], Secrecy]]:
    """Events of the given kinds as (kind, player, cards, secrecy)."""
    return [(e.kind.value, e.player, e.cards, e.secrecy)
            for e in events(game, *kinds, source=source)]
