"""Replays: a finished game in full, or a running game as a spectator sees it.

The format is versioned (docs/REPLAYS.md). A finished game's replay reveals the seed,
so anyone can check it against the commitment published at the start and re-play
every answer (`dominion.server.verify`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .engine import Answer, Resignation, Setup, event_record, replay, view, visible_event
from .engine.cards import catalogue

if TYPE_CHECKING:
    from .room import Room
    from .storage import GameRecord, SeatRecord, StoredGame

FORMAT = "dominion-replay"
VERSION = 1
SHUFFLE = "mt19937-fisher-yates-1"
"""How the seed becomes shuffles: docs/ENGINE.md, "Shuffling and the seed"."""


def _game_part(record: GameRecord) -> dict[str, Any]:
    return {
        "id": record.id, "state": record.state, "edition": record.edition,
        "kingdom": list(record.kingdom), "kingdom_name": record.kingdom_name,
        "created_at": record.created_at, "started_at": record.started_at,
        "finished_at": record.finished_at,
    }


def _players(seats: Sequence[SeatRecord]) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in seats]


def answer_record(entry: Answer | Resignation) -> dict[str, Any]:
    if isinstance(entry, Resignation):
        return {"player": entry.player, "resign": True}
    return {"player": entry.player, "decision": entry.decision, "choices": list(entry.choices)}


def answer_entry(record: dict[str, Any]) -> Answer | Resignation:
    if record.get("resign"):
        return Resignation(record["player"])
    return Answer(record["player"], record["decision"], tuple(record["choices"]))


def logged_events(stored: StoredGame) -> list[dict[str, Any]]:
    """Every event of a stored game, hidden cards included: its answers replayed."""
    record = stored.game
    if record.setup is None or record.seed is None:
        return []  # never started
    game = replay(Setup.from_dict(record.setup), record.seed, stored.answers)
    return [event_record(event) for event in game.events]


def finished_replay(stored: StoredGame, chat: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything about an ended game: set-up, players, seed, answers, every event, result."""
    record = stored.game
    return {
        "format": FORMAT,
        "version": VERSION,
        "complete": True,
        "game": _game_part(record),
        "players": _players(stored.seats),
        "setup": record.setup,
        "shuffle": SHUFFLE,
        "seed": None if record.seed is None else str(record.seed),
        "commitment": record.commitment,
        "answers": [answer_record(entry) for entry in stored.answers],
        "events": logged_events(stored),
        "result": record.result,
        "chat": [{"at": c["at"], "seat": c["seat"], "name": c["name"], "text": c["text"]}
                 for c in chat],
    }


def spectator_replay(room: Room) -> dict[str, Any]:
    """A game still running (or not started): only what a spectator may see so far."""
    game = room.game
    return {
        "format": FORMAT,
        "version": VERSION,
        "complete": False,
        "game": _game_part(room.record),
        "players": _players([seat.record() for seat in room.seats]),
        "setup": room.record.setup,
        "shuffle": SHUFFLE,
        "seed": None,
        "commitment": room.record.commitment,
        "answers": None,
        "events": [] if game is None else [visible_event(e, None)
                                           for e in room.events_so_far()],
        "view": None if game is None else view(game, None),
        "result": None,
        "chat": [],
    }


# -- the text log --------------------------------------------------------------

def text_log(replay: dict[str, Any]) -> str:
    """The game as players tell it: "Turn 3 — Alice", "Alice plays a Smithy."."""
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
            return f"\nTurn {event['data']['player_turn']} — {who}"
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
