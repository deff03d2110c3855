"""Effects of the second edition's own cards and second-edition texts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import (
    Known,
    choose_card,
    choose_cards,
    choose_fate,
    choose_gain,
    choose_order,
    choose_positions,
    yes_no,
)
from ..decisions import DecisionKind, OptionKind
from ..events import Event, EventKind, Secrecy

if TYPE_CHECKING:
    from ..game import Flow, Game, PlayContext
    from ..state import PlayerState


def harbinger(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    # The options are the discard pile bottom first: an option's id is its copy's position.
    picked = yield from choose_positions(
        game, p, list(p.discard), DecisionKind.TOPDECK,
        "You may put a card from your discard pile onto your deck.", "harbinger", 0, 1,
        known=Known.COUNT,  # only whether it is empty matters, and the top card shows that
    )
    if not picked:
        return
    card = p.discard[picked[0]]
    if not game.setup.discard_tops:  # a game stored before: it took the lowest copy, untold
        game.put_on_deck(p, p.discard, [card], source="harbinger", zone_name="discard")
        return
    del p.discard[picked[0]]
    p.deck.append(card)
    # The owner learns where the copy was (it orders the next shuffle); everyone, the top.
    game.log(Event(EventKind.PUT_ON_DECK, p.seat, (card,), Secrecy.OWNER, "harbinger",
                   "discard", {"index": picked[0], "discard_top": p.discard_top}))


def merchant(game: Game, p: PlayerState, play: PlayContext) -> None:
    game.turn.merchants += 1


def vassal(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    card = game.take_top(p)
    if card is None:
        return
    game.to_discard(p, [card], source="vassal", zone="deck")
    if not game.cards[card].is_action:
        return
    play_it = yield from yes_no(game, p, DecisionKind.PLAY, "Play the discarded card?",
                                "vassal", card)
    if play_it:
        p.discard.pop()  # it is still the top card of the discard pile
        p.in_play.append(card)
        uncovered = {"discard_top": p.discard_top} if game.setup.discard_tops else None
        yield from game.play(p, card, zone="discard", source="vassal", data=uncovered)


def poacher(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    empty = sum(1 for count in game.supply.values() if count == 0)
    if not empty:
        return
    count = min(empty, len(p.hand))
    chosen = yield from choose_cards(
        game, p, list(p.hand), DecisionKind.DISCARD,
        f"Discard {count} card(s): one per empty Supply pile.", "poacher", count, count,
        known=Known.COUNT,
    )
    game.discard_from(p, p.hand, chosen, source="poacher")


def sentry(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    for _ in range(2):
        card = game.take_top(p)
        if card is None:
            break
        p.looking.append(card)
    if not p.looking:
        return
    looked = list(p.looking)
    game.log(Event(EventKind.LOOKED_AT, p.seat, tuple(looked), Secrecy.OWNER, "sentry", "deck"))
    fates = (OptionKind.TRASH, OptionKind.DISCARD, OptionKind.KEEP)
    chosen = []
    for card in looked:
        fate = yield from choose_fate(game, p, card, fates,
                                      "Trash this card, discard it, or put it back?", "sentry")
        chosen.append(fate)
    trash = [c for c, fate in zip(looked, chosen, strict=True) if fate is OptionKind.TRASH]
    discard = [c for c, fate in zip(looked, chosen, strict=True) if fate is OptionKind.DISCARD]
    keep = [c for c, fate in zip(looked, chosen, strict=True) if fate is OptionKind.KEEP]
    if trash:
        game.trash_from(p, p.looking, trash, source="sentry", zone_name="deck")
    game.discard_from(p, p.looking, discard, source="sentry", zone_name="deck")
    if keep:
        ordered = yield from choose_order(
            game, p, keep, "Put these back on your deck: choose the top card first.", "sentry"
        )
        game.put_on_deck(p, p.looking, ordered, source="sentry", zone_name="deck")


def artisan(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    card = yield from choose_gain(game, p, "artisan", 5)
    if card is not None:
        game.gain(p, card, to="hand", source="artisan")
    back = yield from choose_card(
        game, p, list(p.hand), DecisionKind.TOPDECK, "Put a card from your hand onto your deck.",
        "artisan", known=Known.COUNT,
    )
    if back is not None:
        game.put_on_deck(p, p.hand, [back], source="artisan", zone_name="hand")


def moneylender(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    trash = yield from yes_no(game, p, DecisionKind.TRASH, "Trash a Copper for +3 coins?",
                              "moneylender", "copper", possible="copper" in p.hand)
    if trash:
        game.trash_from(p, p.hand, ["copper"], source="moneylender")
        game.turn.coins += 3


def mine(game: Game, p: PlayerState, play: PlayContext, *, optional: bool = True) -> Flow[None]:
    cards = game.cards
    treasures = [c for c in p.hand if cards[c].is_treasure]
    trashed = yield from choose_card(
        game, p, treasures, DecisionKind.TRASH,
        "Trash a Treasure from your hand to gain one costing up to 3 more, to your hand.",
        "mine", optional=optional, known=Known.NOTHING,
    )
    if trashed is None:
        return
    game.trash_from(p, p.hand, [trashed], source="mine")
    card = yield from choose_gain(game, p, "mine", cards[trashed].cost + 3, treasure=True)
    if card is not None:
        game.gain(p, card, to="hand", source="mine")


def throne_room(game: Game, p: PlayerState, play: PlayContext, *,
                optional: bool = True) -> Flow[None]:
    cards = game.cards
    actions = [c for c in p.hand if cards[c].is_action]
    card = yield from choose_card(
        game, p, actions, DecisionKind.PLAY, "Choose an Action card to play twice.",
        "throne_room", optional=optional, known=Known.NOTHING,
    )
    if card is not None:
        yield from game.play_from_hand(p, card, source="throne_room", times=2)
