"""A replay as players tell it, one line per happening: "Alice's turn 3", "Alice plays a
Smithy." (the `text` format of a replay download)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.cards import catalogue


def text_log(replay: dict[str, Any]) -> str:
    """The game as players tell it: "Alice's turn 3", "Alice plays a Smithy."."""
    edition = replay["game"]["edition"]
    cards = catalogue(edition)
    names = {p["seat"]: p["name"] or f"Seat {p['seat'] + 1}" for p in replay["players"]}

    def card_list(ids: list[str]) -> str:
        return ", ".join(cards[c].name if c in cards else c for c in ids)

    lines = [f"Dominion, edition {edition}, game {replay['game']['id']}",
             "Kingdom: " + card_list(replay["game"]["kingdom"]), ""]
    for event in replay["events"]:
        line = _describe(event, names, card_list)
        if line:
            lines.append(line)
    return "\n".join(lines) + "\n"


def _describe(event: dict[str, Any], names: dict[int, str],
              card_list: Callable[[list[str]], str]) -> str | None:
    kind = event["kind"]
    who = names.get(event.get("player", -1), "")
    shown = event.get("cards")
    count = event.get("count", len(shown) if shown else 0)
    secret = event.get("secrecy")
    # "draws 1 card (Harbinger)" read as if Harbinger were the card drawn
    source = card_list([event["source"]]) if event.get("source") else None
    by = f" because of {source}" if source else ""

    def what(noun: str = "card") -> str:
        """The cards, marked when only their owner (or nobody) saw them at the time."""
        plural = f"{count} {noun}{'s' if count != 1 else ''}"
        if shown is None:
            top = f", {card_list([event['top']])} on top" if event.get("top") else ""
            return plural + top
        if secret == "hidden":
            return f"{plural} [seen by nobody: {card_list(shown)}]"
        if secret in ("owner", "owner_top"):
            return f"{plural} [seen only by {who}: {card_list(shown)}]"
        return card_list(shown)

    match kind:
        case "game_started":
            return None
        case "turn_started":
            # named by the player's own count, as every client names a turn
            return f"\n{who}'s turn {event['data']['player_turn']}"
        case "phase":
            return None
        case "shuffled":
            return f"{who} shuffles." + (f" [new deck, bottom first: {card_list(shown)}]"
                                         if shown else "")
        case "drew":
            return f"{who} draws {what()}{by}."
        case "played":
            return f"{who} plays {what()}{by}."
        case "bought":
            return f"{who} buys {what()}."
        case "gained":
            return f"{who} gains {what()}{by} (to {event.get('zone', 'discard')})."
        case "trashed":
            return f"{who} trashes {what()}{by}."
        case "discarded":
            return f"{who} discards {what()}{by}."
        case "revealed":
            return f"{who} reveals {what()}{by}."
        case "looked_at":
            return f"{who} looks at {what()}{by}."
        case "put_on_deck":
            return f"{who} puts {what()} onto their deck{by}."
        case "put_in_hand":
            return f"{who} puts {what()} into their hand{by}."
        case "set_aside":
            return f"{who} sets aside {what()}{by}."
        case "deck_to_discard":
            return f"{who} puts their deck into their discard pile{by}."
        case "reacted":
            return f"{who} reveals a Moat and is unaffected{f' by {source}' if source else ''}."
        case "resigned":
            return f"{who} resigns."
        case "game_ended":
            data = event.get("data", {})
            scores = ", ".join(f"{names.get(seat, seat)} {score}"
                               for seat, score in enumerate(data.get("scores", [])))
            winners = " and ".join(names.get(seat, str(seat)) for seat in data.get("winners", []))
            return f"\nThe game ends. Scores: {scores}. Winner: {winners or 'nobody'}."
    return f"{who} {kind}."
