"""The rows of a dump's three Parquet tables (games, seats, gains) made from a finished
game's replay, and the tables' schemas (docs/REPLAYS.md, "Dumps")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GAIN_KINDS = ("bought", "gained")


def game_row(replay: Mapping[str, Any]) -> list[Any]:
    """A replay's row of the games table, in the table's column order."""
    game, result = replay["game"], replay["result"] or {}
    control = game["time_control"] or {}
    return [game["id"], game["finished_at"], (game["finished_at"] or "")[:10], game["state"],
            game["edition"], game["kingdom"], len(replay["players"]), game["first_player"],
            game["end_reason"], game["rated"], control.get("initial_seconds"),
            control.get("increment_seconds"),
            replay["events"][-1]["turn"] if replay["events"] else 0,
            result.get("winners", [])]


def seat_rows(game_id: str, players: Sequence[Mapping[str, Any]],
              result: Mapping[str, Any] | None) -> list[tuple[Any, ...]]:
    """A game's rows of the seats table, in the table's column order: its replay's
    `players` and the stored result."""
    result = result or {}
    scores, turns = result.get("scores", []), result.get("turns", [])
    resigned, winners = set(result.get("resigned", [])), set(result.get("winners", []))
    seats = [_Seat(player, scores[player["seat"]] if player["seat"] < len(scores) else None,
                   turns[player["seat"]] if player["seat"] < len(turns) else None,
                   player["seat"] in resigned)
             for player in players]
    ranked = [seat.standing for seat in seats if seat.score is not None]
    rows = []
    for seat in seats:
        player = seat.player
        # 1 + the seats strictly ahead: ties share a rank
        rank = None if seat.score is None else 1 + sum(other < seat.standing
                                                       for other in ranked)
        rows.append((game_id, player["seat"], player["name"], player["kind"],
                     player["strategy"], player["level"], player["account"],
                     player["rating_before"], player["rating_after"], seat.score, seat.turns,
                     rank, player["seat"] in winners, seat.resigned, player["taken_over"]))
    return rows


@dataclass(frozen=True, slots=True)
class _Seat:
    player: Mapping[str, Any]
    score: int | None
    turns: int | None
    resigned: bool

    @property
    def standing(self) -> tuple[bool, int, int]:
        """Resigned or taken-over seats last, then more points, then fewer turns."""
        return (self.resigned or self.player["taken_over"], -(self.score or 0),
                self.turns or 0)


def gain_columns(replay: Mapping[str, Any]) -> list[list[Any]]:
    """Every card bought or gained, as the gains table's columns after `game_id`: by whom,
    on which turn (the game's, and the player's own of the turn it happened in), how, and
    what made it happen."""
    columns: list[list[Any]] = [[], [], [], [], [], [], []]
    seat, turn, player_turns, card, how, source, zone = columns
    player_turn = 0
    for event in replay["events"]:
        kind = event["kind"]
        if kind == "turn_started":
            player_turn = event["data"]["player_turn"]
        elif kind in GAIN_KINDS:
            for gained in event.get("cards", ()):
                seat.append(event.get("player"))
                turn.append(event["turn"])
                player_turns.append(player_turn)
                card.append(gained)
                how.append(kind)
                source.append(event.get("source"))
                zone.append(event.get("zone"))
    return columns


def schemas() -> dict[str, Any]:
    """The tables' Arrow schemas, by table."""
    import pyarrow as pa

    text, small, whole = pa.string(), pa.int8(), pa.int32()
    return {
        "games": pa.schema([
            ("game_id", text), ("finished_at", text), ("date", text), ("state", text),
            ("edition", small), ("kingdom", pa.list_(text)), ("players", small),
            ("first_player", small), ("end_reason", text), ("rated", pa.bool_()),
            ("initial_seconds", whole), ("increment_seconds", whole), ("turns", pa.int16()),
            ("winners", pa.list_(small))]),
        "seats": pa.schema([
            ("game_id", text), ("seat", small), ("name", text), ("kind", text),
            ("strategy", text), ("level", small), ("account", text),
            ("rating_before", whole), ("rating_after", whole), ("score", pa.int16()),
            ("turns", pa.int16()), ("rank", small), ("winner", pa.bool_()),
            ("resigned", pa.bool_()), ("taken_over", pa.bool_())]),
        "gains": pa.schema([
            ("game_id", text), ("seat", small), ("turn", pa.int16()),
            ("player_turn", pa.int16()), ("card", text), ("how", text), ("source", text),
            ("zone", text)]),
    }
