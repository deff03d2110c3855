"""One game as a client knows it: the latest view the server sent, and the events.

The server computes the game and sends it (docs/PROTOCOL.md, "View map"): a
`snapshot` when you join, watch or resume too late, then an `update` per change, each
carrying the game as you may now see it (`view`) besides the change's events. So the
whole rule here is "on a snapshot or an update, the game is its view"; the events are
for the log. Nothing here knows a card's cost or effect: counters, what each player
owns and their points are the server's (`GameState.apply_update`).

A complete replay has no views, only events that show every card: `ReplayHands`
follows hands, play areas, piles and the trash through them (where cards go, never
what they do), for the replay viewers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def numbered(seq: int, events: Sequence[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The events of a version 2 `update` with their numbers: the last one is `seq`."""
    return enumerate(events, seq - len(events) + 1)


@dataclass
class PlayerState:
    seat: int
    name: str
    hand_size: int = 0
    hand: list[str] | None = None
    """Known only for your own seat (and for everyone in a complete replay)."""
    deck_size: int | None = None
    """Known only for your own seat."""
    in_play: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    owned: dict[str, int] = field(default_factory=dict)
    """Card -> how many the player owns, wherever they are (public; empty in a replay)."""
    points: int | None = None
    """Their victory points now, as the server scores them (None in a replay)."""
    turns: int = 0
    resigned: bool = False
    discard_top: str | None = None
    """The top card of the discard pile (public), None when empty or face down."""

    @classmethod
    def from_view(cls, seen: Mapping[str, Any]) -> PlayerState:
        """One entry of a view's `players`."""
        seat = int(seen["seat"])
        hand = seen.get("hand")
        return cls(seat=seat, name=str(seen.get("name") or f"seat {seat}"),
                   hand_size=seen.get("hand_size", 0),
                   hand=list(hand) if isinstance(hand, list) else None,
                   deck_size=seen.get("deck_size"),
                   in_play=list(seen.get("in_play", ())),
                   set_aside=list(seen.get("set_aside", ())),
                   owned=dict(seen.get("owned", {})), points=seen.get("points"),
                   turns=seen.get("turns", 0), resigned=bool(seen.get("resigned")),
                   discard_top=seen.get("discard_top"))


@dataclass
class GameState:
    """A game seen from one seat (or as a spectator): the latest view, field by field."""

    game: str
    seat: int | None = None
    token: str | None = None
    seq: int = 0
    """The number of the last event held."""
    edition: int = 2
    kingdom: list[str] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)
    trash: list[str] = field(default_factory=list)
    players: list[PlayerState] = field(default_factory=list)
    turn_number: int = 0
    """Turns taken at the table so far (everyone's): not what players call a turn."""
    turn_player: int | None = None
    player_turn: int = 0
    """The turn player's own turn number: "Ann's turn 12"."""
    phase: str = "action"
    coins: int = 0
    actions: int = 1
    buys: int = 1
    decision: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    abandoned: str | None = None
    """Why the game ended with no result (`game_abandoned`: an admin ended it, or the
    server, an open table nobody joined in time), if it did."""
    started: bool = False
    snapshots: int = 0
    view: dict[str, Any] | None = None
    """The latest view map, as the server sent it."""
    clocks: dict[str, Any] | None = None
    """The players' clocks as the latest frame said them (None: the table has none)."""
    clocks_at: float = 0.0
    """When that frame arrived (`time.monotonic()`): the running clock counts from it."""

    @property
    def over(self) -> bool:
        return self.result is not None or self.abandoned is not None

    # -- what the strategies read (dominion.bots.Table) ------------------------

    def supply_of(self, card: str) -> int:
        return self.supply.get(card, 0)

    def owned_by(self, seat: int, card: str) -> int:
        return self.players[seat].owned.get(card, 0) if 0 <= seat < len(self.players) else 0

    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def my_decision(self) -> dict[str, Any] | None:
        """The pending decision if it is ours to answer (it then carries options)."""
        decision = self.decision
        if (decision is not None and self.seat is not None and decision.get("player") == self.seat
                and "options" in decision):
            return decision
        return None

    # -- what the server sends ------------------------------------------------

    def apply_snapshot(self, seq: int, view: dict[str, Any],
                       clocks: Mapping[str, Any] | None = None) -> None:
        """Start again from a whole view (`seq` is its last event), and its clocks."""
        self.snapshots += 1
        self.seq = seq
        self.take_view(view)
        self.decision = view.get("decision")
        self.take_clocks(clocks)

    def apply_update(self, seq: int, events: Sequence[dict[str, Any]],
                     decision: dict[str, Any] | None, view: dict[str, Any],
                     clocks: Mapping[str, Any] | None = None,
                     ) -> list[tuple[int, dict[str, Any]]]:
        """A version 2 `update`: the game is now its `view` and `decision` (None: nothing
        is pending, the game has ended), and its clocks. Returns its events not held
        before, numbered (an update after a resume may repeat some)."""
        new = [(number, event) for number, event in numbered(seq, events) if number > self.seq]
        self.seq = max(self.seq, seq)
        self.take_view(view)
        self.decision = decision
        self.take_clocks(clocks)
        return new

    def take_clocks(self, clocks: Mapping[str, Any] | None) -> None:
        self.clocks = None if clocks is None else dict(clocks)
        self.clocks_at = time.monotonic()

    def remaining_ms(self, seat: int, now: float | None = None) -> int | None:
        """The seat's time left at `now` (a `time.monotonic()`; default: now): the running
        clock counted down since its frame arrived. None: no clock."""
        clocks = self.clocks
        if clocks is None or not 0 <= seat < len(clocks.get("remaining_ms", ())):
            return None
        left = int(clocks["remaining_ms"][seat])
        if clocks.get("running") == seat and not self.over:
            elapsed = (time.monotonic() if now is None else now) - self.clocks_at
            left -= round(elapsed * 1000)  # int() would turn 3.2 s into 3,199 ms
        return max(0, left)

    def take_view(self, view: Mapping[str, Any]) -> None:
        """Every field from a view map (a snapshot's, or an update's)."""
        self.view = dict(view)
        self.started = True
        viewer = view.get("viewer", self.seat)
        self.seat = viewer if isinstance(viewer, int) else self.seat
        self.edition = view.get("edition", self.edition)
        self.kingdom = list(view.get("kingdom", ()))
        self.supply = dict(view.get("supply", {}))
        self.trash = list(view.get("trash", ()))
        turn = view.get("turn", {})
        self.turn_number = turn.get("number", 0)
        self.turn_player = turn.get("player")
        self.player_turn = turn.get("player_turn", 0)
        self.phase = turn.get("phase", "action")
        self.coins = turn.get("coins", 0)
        self.actions = turn.get("actions", 1)
        self.buys = turn.get("buys", 1)
        self.result = view.get("result")
        if self.result is not None:
            self.phase = "game_over"
        self.players = [PlayerState.from_view(seen) for seen in view.get("players", ())]


def _cards(event: Mapping[str, Any]) -> list[str]:
    cards = event.get("cards")
    return list(cards) if isinstance(cards, list) else []


def _count(event: Mapping[str, Any]) -> int:
    cards = event.get("cards")
    if isinstance(cards, list):
        return len(cards)
    count = event.get("count")
    return count if isinstance(count, int) else 0


def _remove(cards: list[str], gone: list[str]) -> None:
    for card in gone:
        if card in cards:
            cards.remove(card)


class ReplayHands:
    """A replay's game followed through its events: whose turn, the piles, the trash,
    hands (every card shows in a complete replay), play areas and discard tops. Where
    cards go only; the counters of a turn and the points are not followed."""

    def __init__(self) -> None:
        self.state = GameState(game="replay")

    def hand(self, seat: int) -> list[str]:
        return list(self.state.players[seat].hand or ())

    def apply(self, seq: int, event: Mapping[str, Any]) -> None:
        state = self.state
        state.seq = seq
        kind = event.get("kind")
        seat = event.get("player")
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        assert isinstance(data, dict)
        if kind == "game_started":
            state.started = True
            state.players = [PlayerState(seat=i, name=str(n), hand=[])
                             for i, n in enumerate(data.get("players", []))]
            state.edition = data.get("edition", state.edition)
            state.kingdom = list(data.get("kingdom", ()))
            state.supply = dict(data.get("supply", {}))
            return
        player = state.players[seat] if isinstance(seat, int) and 0 <= seat < len(
            state.players) else None
        if kind == "turn_started":
            state.turn_number = data.get("turn", state.turn_number + 1)
            state.turn_player = seat
            state.phase = "action"
            if player is not None:
                player.turns = data.get("player_turn", player.turns + 1)
                state.player_turn = player.turns
        elif kind == "phase":
            state.phase = str(event.get("zone") or state.phase)
        elif kind == "game_ended":
            state.result = data
            state.phase = "game_over"
        elif kind == "resigned" and player is not None:
            player.resigned = True
        if player is not None:
            self._piles(event)
            self._move(player, event)
            self._discard_top(player, event)

    def _piles(self, event: Mapping[str, Any]) -> None:
        """Gains take a card from its pile (or the trash); trashing puts it there."""
        kind = event.get("kind")
        data = event.get("data")
        for card in _cards(event):
            if kind == "trashed":
                self.state.trash.append(card)
            elif kind in ("bought", "gained"):
                if isinstance(data, dict) and data.get("from") == "trash":
                    _remove(self.state.trash, [card])
                else:
                    self.state.supply[card] = self.state.supply.get(card, 1) - 1

    @staticmethod
    def _discard_top(player: PlayerState, event: Mapping[str, Any]) -> None:
        """The public top card of the discard pile."""
        kind, zone, cards = event.get("kind"), event.get("zone"), _cards(event)
        if kind == "discarded" or (kind in ("bought", "gained") and zone == "discard"):
            top = event.get("top")
            if cards:
                player.discard_top = cards[-1]
            elif isinstance(top, str):
                player.discard_top = top
        elif kind == "shuffled":
            player.discard_top = None
        elif zone == "discard" and kind in ("played", "put_on_deck"):
            # Vassal or Harbinger took a card off it: the event says the card it uncovered
            data = event.get("data")
            player.discard_top = data.get("discard_top") if isinstance(data, dict) else None
        # deck_to_discard puts the deck under the pile: its top stays as it was

    @staticmethod
    def _move(player: PlayerState, event: Mapping[str, Any]) -> None:
        """Hands and play areas (hand contents only where the cards are seen)."""
        kind, zone, cards = event.get("kind"), event.get("zone"), _cards(event)
        count = _count(event)
        hand = player.hand
        if kind in ("drew", "put_in_hand") or (kind == "gained" and zone == "hand"):
            player.hand_size += count
            if hand is not None:
                hand.extend(cards)
        elif kind == "played":
            if zone == "hand":
                player.hand_size -= count
                if hand is not None:
                    _remove(hand, cards)
            if zone != "in_play":
                player.in_play.extend(cards)
        elif kind == "discarded" and zone == "cleanup":
            player.hand_size = 0
            player.in_play.clear()
            if hand is not None:
                hand.clear()
        elif kind == "trashed" and zone == "in_play":  # a card that trashes itself
            _remove(player.in_play, cards)
        elif kind in ("discarded", "trashed", "put_on_deck", "set_aside") and zone == "hand":
            player.hand_size -= count
            if hand is not None:
                _remove(hand, cards)
        player.hand_size = max(player.hand_size, 0)
