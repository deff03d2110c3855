"""Games and replays as readable text: card names (English or Polish), log lines, turns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .state import ReplayHands

VERBS = {
    "shuffled": "shuffles", "drew": "draws", "played": "plays", "bought": "buys",
    "gained": "gains", "trashed": "trashes", "discarded": "discards", "revealed": "reveals",
    "looked_at": "looks at", "put_on_deck": "puts onto their deck",
    "put_in_hand": "puts into their hand", "set_aside": "sets aside",
    "reacted": "reveals", "deck_to_discard": "puts their deck into their discard pile",
}


class Names:
    """Card names from the catalogue, in English or Polish; ids title-cased otherwise."""

    def __init__(self, catalogue: Iterable[Mapping[str, Any]] = (), lang: str = "en") -> None:
        self.lang = lang
        self._names: dict[str, str] = {}
        key = "name_pl" if lang == "pl" else "name"
        for entry in catalogue:
            name = entry.get(key) or entry.get("name")
            if isinstance(name, str):
                self._names.setdefault(entry["id"], name)

    @classmethod
    def from_cards_endpoint(cls, body: Mapping[str, Any], lang: str = "en") -> Names:
        """From `GET /api/v1/cards` (`{"editions": {"1": [...], "2": [...]}}`)."""
        entries = [entry for edition in sorted(body.get("editions", {}), reverse=True)
                   for entry in body["editions"][edition]]
        return cls(entries, lang)

    def __call__(self, card: str | None) -> str:
        if card is None:
            return "-"
        return self._names.get(card) or card.replace("_", " ").title()

    def many(self, cards: Iterable[str]) -> str:
        return ", ".join(self(c) for c in cards) or "nothing"

    def counted(self, cards: Iterable[str]) -> str:
        """`3 Copper, 2 Estate` in first-seen order."""
        counts = Counter(cards)
        return ", ".join(f"{n} {self(c)}" if n > 1 else self(c) for c, n in counts.items()) \
            or "nothing"


def _who(players: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}" if seat is not None else "?"


def describe(event: Mapping[str, Any], players: Sequence[str], names: Names) -> str | None:
    """One event as a sentence, or None for the ones a log leaves out (`phase` action)."""
    kind = event.get("kind", "?")
    who = _who(players, event.get("player"))
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    assert isinstance(data, dict)
    source = event.get("source")
    because = f" ({names(source)})" if isinstance(source, str) else ""
    if kind == "game_started":
        return (f"The game starts: {', '.join(data.get('players', players))}; edition "
                f"{data.get('edition', '?')}; Kingdom: {names.many(data.get('kingdom', []))}.")
    if kind == "turn_started":
        return None  # shown as a heading
    if kind == "phase":
        zone = event.get("zone")
        return None if zone in ("action", "cleanup") else f"{who} starts the {zone} phase."
    if kind == "resigned":
        return f"{who} resigns."
    if kind == "game_ended":
        return "The game is over. " + result_line(data, players)
    verb = VERBS.get(str(kind), str(kind))
    cards = event.get("cards")
    if kind == "shuffled":
        return f"{who} shuffles."
    if isinstance(cards, list):
        what = names.many(cards)
        if kind == "reacted":
            return f"{who} reveals {what} against {names(source)}."
        if kind == "drew" and len(cards) > 1:
            return f"{who} draws {len(cards)} cards: {what}{because}."
        return f"{who} {verb} {what}{because}."
    count = event.get("count")
    if isinstance(count, int):
        noun = "card" if count == 1 else "cards"
        top = f" ({names(event['top'])} on top)" if event.get("top") else ""
        return f"{who} {verb} {count} {noun}{top}{because}."
    return f"{who} {verb}{because}."


def result_line(result: Mapping[str, Any], players: Sequence[str]) -> str:
    scores = result.get("scores", [])
    winners = result.get("winners", [])
    parts = [f"{_who(players, seat)} {score}" for seat, score in enumerate(scores)]
    if result.get("abandoned"):
        return "Abandoned; scores: " + ", ".join(parts) + "."
    won = " and ".join(_who(players, seat) for seat in winners) or "nobody"
    return f"Scores: {', '.join(parts)}. Winner: {won}."


def turn_heading(event: Mapping[str, Any], players: Sequence[str]) -> str:
    data = event.get("data") or {}
    return f"Turn {data.get('turn', '?')} — {_who(players, event.get('player'))}"


# -- replays, turn by turn ----------------------------------------------------------


@dataclass
class Turn:
    """One turn of a replay: who, the hands at its start, and what happened."""

    number: int
    player: int | None
    heading: str
    hands: list[list[str]]
    lines: list[str] = field(default_factory=list)


def replay_players(replay: Mapping[str, Any]) -> list[str]:
    setup = replay.get("setup") or {}
    players = setup.get("players") or [p.get("name", f"seat {p.get('seat')}")
                                       for p in replay.get("players", [])]
    return [str(p) for p in players]


def replay_turns(replay: Mapping[str, Any], names: Names) -> Iterator[Turn]:
    """The replay's events grouped by turn, each with everyone's hand at its start.

    A complete replay (a finished game) holds every event's cards, so every hand is
    known; a running game's replay shows only what a spectator saw (hands unknown).
    """
    players = replay_players(replay)
    hands = ReplayHands()
    complete = bool(replay.get("complete"))
    turn = Turn(0, None, "Before the first turn", [[] for _ in players])
    for seq, event in enumerate(replay.get("events", []), start=1):
        hands.apply(seq, event)
        if event.get("kind") == "turn_started":
            if turn.lines or turn.number:
                yield turn
            data = event.get("data") or {}
            known = [hands.hand(seat) if complete else [] for seat in range(len(players))]
            turn = Turn(data.get("turn", turn.number + 1), event.get("player"),
                        turn_heading(event, players), known)
            continue
        line = describe(event, players, names)
        if line:
            turn.lines.append(line)
    yield turn


def format_turn(turn: Turn, players: Sequence[str], names: Names, complete: bool) -> str:
    out = [turn.heading]
    if turn.number and complete:
        for seat, hand in enumerate(turn.hands):
            marker = "*" if seat == turn.player else " "
            out.append(f" {marker} {players[seat]}'s hand: {names.many(hand)}")
    out.extend(f"   {line}" for line in turn.lines)
    return "\n".join(out)


def replay_header(replay: Mapping[str, Any], names: Names) -> str:
    game = replay.get("game") or {}
    setup = replay.get("setup") or {}
    kingdom = game.get("kingdom") or setup.get("kingdom") or []
    state = "complete" if replay.get("complete") else "running (a spectator's view)"
    return "\n".join([
        f"Dominion, edition {game.get('edition', setup.get('edition', '?'))}, "
        f"game {game.get('id', '?')} ({state})",
        f"Players: {', '.join(replay_players(replay))}",
        f"Kingdom: {names.many(kingdom)}",
    ])


def summary_line(summary: Mapping[str, Any], names: Names) -> str:
    """One row of `dominion list`."""
    seats = summary.get("seats", [])
    taken = [s for s in seats if s.get("name")]
    people = ", ".join(s["name"] for s in taken) or "-"
    return (f"{summary.get('id')}  {summary.get('state'):<9}  {len(taken)}/{len(seats)}  "
            f"ed{summary.get('edition')}  turn {summary.get('turn', 0):<3}  {people}")
