"""Effects of the first edition's own cards and first-edition texts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import choose_gain, yes_no
from ..decisions import DecisionKind
from ..events import Event, EventKind, Secrecy
from . import second_edition

if TYPE_CHECKING:
    from ..game import Flow, Game, PlayContext
    from ..state import PlayerState


def moneylender(game: Game, p: PlayerState, play: PlayContext) -> None:
    if "copper" in p.hand:
        game.trash_from(p, p.hand, ["copper"], source="moneylender")
        game.turn.coins += 3


def mine(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    return second_edition.mine(game, p, play, optional=False)


def throne_room(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    return second_edition.throne_room(game, p, play, optional=False)


def chancellor(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    # Asked even of an empty deck: its size is private to its owner.
    move = yield from yes_no(game, p, DecisionKind.YES_NO,
                             "Put your deck into your discard pile?", "chancellor",
                             possible=bool(p.deck))
    if move:
        deck = p.deck
        p.deck = []
        # Not discarding: nothing is revealed, so a pile made only of the deck shows no top card.
        p.discard_top_hidden = p.discard_top_hidden or not p.discard
        p.discard[:0] = deck
        game.log(Event(EventKind.DECK_TO_DISCARD, p.seat, tuple(deck), Secrecy.HIDDEN,
                       "chancellor", "deck"))


def feast(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    if play.in_play:
        play.in_play = False
        game.trash_from(p, p.in_play, ["feast"], source="feast", zone_name="in_play")
    card = yield from choose_gain(game, p, "feast", 5)
    if card is not None:
        game.gain(p, card, source="feast")


def adventurer(game: Game, p: PlayerState, play: PlayContext) -> None:
    cards = game.cards
    treasures: list[str] = []
    others: list[str] = []
    while len(treasures) < 2:
        revealed = game.reveal_from_deck(p, 1, source="adventurer")
        if not revealed:
            break
        card = revealed[0]
        (treasures if cards[card].is_treasure else others).append(card)
    for card in treasures:
        p.set_aside.remove(card)
    p.hand.extend(treasures)
    if treasures:
        game.log(Event(EventKind.PUT_IN_HAND, p.seat, tuple(treasures), source="adventurer",
                       zone="set_aside"))
    game.discard_from(p, p.set_aside, others, source="adventurer", zone_name="set_aside",
                      public=True)
