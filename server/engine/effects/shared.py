"""Effects of Kingdom cards whose text is the same in both editions (attacks aside)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import Known, choose_card, choose_cards, choose_gain, yes_no
from ..decisions import DecisionKind
from ..events import Event, EventKind

if TYPE_CHECKING:
    from ..game import Flow, Game, PlayContext
    from ..state import PlayerState


def cellar(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    chosen = yield from choose_cards(
        game, p, list(p.hand), DecisionKind.DISCARD,
        "Discard any number of cards, then draw that many.", "cellar", 0, len(p.hand),
        known=Known.COUNT,
    )
    if chosen:
        game.discard_from(p, p.hand, chosen, source="cellar")
        game.draw(p, len(chosen), source="cellar")


def chapel(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    chosen = yield from choose_cards(
        game, p, list(p.hand), DecisionKind.TRASH, "Trash up to 4 cards from your hand.",
        "chapel", 0, 4, known=Known.COUNT,
    )
    if chosen:
        game.trash_from(p, p.hand, chosen, source="chapel")


def workshop(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    card = yield from choose_gain(game, p, "workshop", 4)
    if card is not None:
        game.gain(p, card, source="workshop")


def remodel(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    trashed = yield from choose_card(
        game, p, list(p.hand), DecisionKind.TRASH, "Trash a card from your hand.", "remodel",
        known=Known.COUNT,
    )
    if trashed is None:
        return
    game.trash_from(p, p.hand, [trashed], source="remodel")
    card = yield from choose_gain(game, p, "remodel", game.cards[trashed].cost + 2)
    if card is not None:
        game.gain(p, card, source="remodel")


def council_room(game: Game, p: PlayerState, play: PlayContext) -> None:
    for other in game.others(p):
        game.draw(other, 1, source="council_room")


def library(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    skipped: list[str] = []
    while len(p.hand) < 7 and game.draw(p, 1, source="library"):
        card = p.hand[-1]
        # Asked for every card drawn that might be an Action for all the others know.
        if not game.may_hold(p, game.action_cards):
            continue
        skip = yield from yes_no(
            game, p, DecisionKind.SET_ASIDE,
            "Set this Action card aside instead of keeping it in hand?", "library", card,
            possible=game.cards[card].is_action,
        )
        if skip:
            p.hand.pop()
            p.set_aside.append(card)
            skipped.append(card)
            game.log(Event(EventKind.SET_ASIDE, p.seat, (card,), source="library", zone="hand"))
    game.discard_from(p, p.set_aside, skipped, source="library", zone_name="set_aside",
                      public=True)
