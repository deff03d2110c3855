"""Effects of Attack cards. `play.victims` are the players the Attack hits, in turn order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import Known, choose_card, choose_cards, choose_fate
from ..decisions import DecisionKind, OptionKind
from ..events import Event, EventKind

if TYPE_CHECKING:
    from ..game import Flow, Game, PlayContext
    from ..state import PlayerState


def bureaucrat(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    game.gain(p, "silver", to="deck", source="bureaucrat")
    cards = game.cards
    for victim in play.victims:
        victories = [c for c in victim.hand if cards[c].is_victory]
        card = yield from choose_card(
            game, victim, victories, DecisionKind.TOPDECK,
            "Reveal a Victory card from your hand and put it onto your deck.", "bureaucrat",
            known=Known.NOTHING,
        )
        if card is None:
            game.log(Event(EventKind.REVEALED, victim.seat, tuple(victim.hand),
                           source="bureaucrat", zone="hand"))
            continue
        game.log(Event(EventKind.REVEALED, victim.seat, (card,), source="bureaucrat", zone="hand"))
        game.put_on_deck(victim, victim.hand, [card], source="bureaucrat", zone_name="hand",
                         public=True)


def militia(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    for victim in play.victims:
        excess = len(victim.hand) - 3
        if excess <= 0:
            continue
        chosen = yield from choose_cards(
            game, victim, list(victim.hand), DecisionKind.DISCARD, "Discard down to 3 cards.",
            "militia", excess, excess, known=Known.COUNT,
        )
        game.discard_from(victim, victim.hand, chosen, source="militia")


def witch(game: Game, p: PlayerState, play: PlayContext) -> None:
    for victim in play.victims:
        game.gain(victim, "curse", source="witch")


def bandit(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    game.gain(p, "gold", source="bandit")
    cards = game.cards
    for victim in play.victims:
        revealed = game.reveal_from_deck(victim, 2, source="bandit")
        targets = [c for c in revealed if cards[c].is_treasure and c != "copper"]
        card = yield from choose_card(
            game, victim, targets, DecisionKind.TRASH,
            "Trash a revealed Treasure other than Copper.", "bandit", known=Known.CARDS,
        )
        if card is not None:
            game.trash_from(victim, victim.set_aside, [card], source="bandit",
                            zone_name="set_aside")
            revealed.remove(card)
        game.discard_from(victim, victim.set_aside, revealed, source="bandit",
                          zone_name="set_aside", public=True)


def spy(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    # The attacker's own reveal is not part of what Moat blocks.
    for target in (p, *play.victims):
        revealed = game.reveal_from_deck(target, 1, source="spy")
        if not revealed:
            continue
        whose = "your" if target is p else f"{target.name}'s"
        fate = yield from choose_fate(
            game, p, revealed[0], (OptionKind.DISCARD, OptionKind.KEEP),
            f"Discard {whose} revealed card, or put it back?", "spy",
        )
        if fate is OptionKind.DISCARD:
            game.discard_from(target, target.set_aside, revealed, source="spy",
                              zone_name="set_aside", public=True)
        else:
            game.put_on_deck(target, target.set_aside, revealed, source="spy",
                             zone_name="set_aside", public=True)


def thief(game: Game, p: PlayerState, play: PlayContext) -> Flow[None]:
    cards = game.cards
    stolen: list[str] = []
    for victim in play.victims:
        revealed = game.reveal_from_deck(victim, 2, source="thief")
        treasures = [c for c in revealed if cards[c].is_treasure]
        card = yield from choose_card(
            game, p, treasures, DecisionKind.TRASH,
            f"Choose a revealed Treasure for {victim.name} to trash.", "thief", known=Known.CARDS,
        )
        if card is not None:
            game.trash_from(victim, victim.set_aside, [card], source="thief",
                            zone_name="set_aside")
            revealed.remove(card)
            stolen.append(card)
        game.discard_from(victim, victim.set_aside, revealed, source="thief",
                          zone_name="set_aside", public=True)
    taken = yield from choose_cards(
        game, p, stolen, DecisionKind.GAIN, "Gain any of the trashed Treasures.", "thief",
        0, len(stolen), known=Known.CARDS,
    )
    for card in taken:
        game.gain_from_trash(p, card, source="thief")
