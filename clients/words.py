"""Decisions in a person's words: the question asked, and a line of help for each kind.

The server's `prompt` is an English sentence; the client words each decision itself
from its `kind`, its `source` card and its options, so that it reads the same in every
language and never shows an internal name such as `play_action`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .choose import CardName
from .i18n import _, ngettext


def _card_of(decision: Mapping[str, Any]) -> str | None:
    for option in decision.get("options", ()):
        if option.get("card"):
            return str(option["card"])
    return None


def _discard_question(decision: Mapping[str, Any]) -> str:
    """How many cards to discard when the count is fixed (`min` = `max`), and how many
    stay in hand (the options are the cards in hand): "Discard 2 cards, down to 3 in
    hand." No card's rules: the decision says it all."""
    low, high = decision.get("min"), decision.get("max")
    if not (isinstance(high, int) and low == high and high > 0):
        return _("Choose cards to discard.")
    keep = len(decision.get("options", ())) - high
    if keep <= 0:
        return ngettext("Discard {n} card.", "Discard {n} cards.", high).format(n=high)
    return ngettext("Discard {n} card, down to {keep} in hand.",
                    "Discard {n} cards, down to {keep} in hand.", high).format(n=high, keep=keep)


def question(decision: Mapping[str, Any], name: CardName) -> str:
    """The decision as a question: "Militia: discard down to 3 cards." """
    kind = decision.get("kind")
    source = decision.get("source")
    kinds = {o.get("kind") for o in decision.get("options", ())}
    yes_no = kinds == {"yes", "no"}
    card = name(_card_of(decision)) if _card_of(decision) else ""
    text = {
        "play_action": _("Play an Action card, or end your Action phase."),
        "buy": _("Play Treasures, buy a card, or end your turn."),
        "discard": _discard_question(decision),
        "trash": _("Trash {card}?").format(card=card) if yes_no
        else _("Choose cards to trash."),
        "gain": _("Choose a card to gain."),
        "topdeck": _("Choose a card to put onto your deck."),
        "play": _("Play {card}?").format(card=card) if yes_no
        else _("Choose an Action card to play."),
        "react": _("Reveal Moat, so that this Attack does not affect you?"),
        "yes_no": _("{card}?").format(card=name(source)) if source else _("Yes or no?"),
        "set_aside": _("Set {card} aside?").format(card=card) if yes_no
        else _("Choose cards to set aside."),
        "choose_fate": _("{card}: trash it, discard it, or put it back?").format(card=card),
        "order": _("Put these cards back onto your deck, in order."),
    }.get(str(kind))
    if source == "chancellor":
        text = _("Put your deck into your discard pile?")
    if text is None:
        text = str(decision.get("prompt") or kind)
    if source and kind not in ("play_action", "buy"):
        return f"{name(source)}: {text}"
    return text


def waiting_for(decision: Mapping[str, Any], name: CardName) -> str:
    """What another player is deciding, as the others may know it."""
    kind = decision.get("kind")
    text = {"play_action": _("their Action phase"), "buy": _("their Buy phase"),
            "react": _("whether to reveal a Reaction")}.get(str(kind))
    source = decision.get("source")
    if text is None:
        text = _("a choice for {card}").format(card=name(source)) if source else _("a choice")
    return text


def help_text(kind: object) -> str:
    """One line of help for a decision kind."""
    text = {
        "play_action": _("Play an Action card from your hand (it uses one Action), or "
                         "'end' to go on to your Buy phase."),
        "buy": _("Play Treasures ('all' plays every one), buy a card you can afford, or "
                 "'end' your turn."),
        "discard": _("Choose cards from your hand to discard."),
        "trash": _("Choose cards to trash: they leave the game."),
        "gain": _("Choose a card to gain from the Supply."),
        "topdeck": _("Choose cards to put onto your deck."),
        "play": _("Choose a card to play, or say whether to play it."),
        "react": _("Reveal a Reaction (Moat) to defend against the Attack, or choose "
                   "nothing."),
        "yes_no": _("Answer yes or no."),
        "set_aside": _("Choose cards to set aside."),
        "choose_fate": _("Say what happens to this card: trash it, discard it, or put it "
                         "back."),
        "order": _("The first card you name ends on top of your deck."),
    }
    return text.get(str(kind), "")


def syntax() -> str:
    return _("Answer with option numbers ('3', '1 4 5') or card names (a unique prefix is "
             "enough; 'buy silver', 'play copper'). The fixed actions have letters, the same "
             "in every phase: 't' (or 'all') plays all Treasures, 'e' (or 'end') ends the "
             "phase; numbers are only ever the cards and options listed. An empty line or "
             "'none' chooses nothing when that is allowed. "
             "'help CARD' shows a card's text; 'quit' leaves (you can come back); "
             "'resign' gives up.")


__all__ = ["help_text", "question", "syntax", "waiting_for"]
