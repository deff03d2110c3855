"""One game as a client knows it: a snapshot, then the events that followed.

The server sends a `snapshot` (the whole game as you may see it) when you join,
watch or resume too late, and after that only the changes: an `update` per change
(protocol version 2: its events and the decision now pending), or `event` and
`decision` pushes (version 1). A client that wants current numbers between
snapshots keeps them up to date from the events itself; `GameState.apply_event`
does that for what the reference client and the bots need: the Supply, the coins
of the turn, each player's cards owned, hand sizes, your own hand, the play areas
and the trash (`GameState.apply_update` takes a whole version 2 `update`).

This module knows a few facts of the rules that events do not spell out: how many
coins a Treasure makes and which Action cards give +coins (docs/RULES.md, the card
texts). Nothing here needs the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

STARTING_DECK = {"copper": 7, "estate": 3}
"""Every player's first ten cards, in both editions."""
TREASURE_COINS = {"copper": 1, "silver": 2, "gold": 3}
ACTION_COINS = {"market": 1, "festival": 2, "militia": 2, "poacher": 1, "vassal": 2,
                "woodcutter": 2, "chancellor": 2}
"""Action cards whose text gives "+N coins" unconditionally."""
MONEYLENDER_COINS = 3
ACTION_EXTRAS = {"cellar": (1, 0), "village": (2, 0), "council_room": (0, 1),
                 "festival": (2, 1), "laboratory": (1, 0), "market": (1, 1),
                 "harbinger": (1, 0), "merchant": (1, 0), "poacher": (1, 0), "sentry": (1, 0),
                 "woodcutter": (0, 1), "spy": (1, 0)}
"""Action cards whose text gives "+N Actions" or "+N Buys": card -> (actions, buys)."""
COSTS = {"copper": 0, "curse": 0, "cellar": 2, "chapel": 2, "estate": 2, "moat": 2,
         "chancellor": 3, "harbinger": 3, "merchant": 3, "silver": 3, "vassal": 3,
         "village": 3, "woodcutter": 3, "workshop": 3, "bureaucrat": 4, "feast": 4,
         "gardens": 4, "militia": 4, "moneylender": 4, "poacher": 4, "remodel": 4,
         "smithy": 4, "spy": 4, "thief": 4, "throne_room": 4, "bandit": 5, "council_room": 5,
         "duchy": 5, "festival": 5, "laboratory": 5, "library": 5, "market": 5, "mine": 5,
         "sentry": 5, "witch": 5, "adventurer": 6, "artisan": 6, "gold": 6, "province": 8}
"""Every card's cost (the catalogue's `cost`); `GameState.costs` can be replaced by it."""


def numbered(seq: int, events: Sequence[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The events of a version 2 `update` with their numbers: the last one is `seq`."""
    return enumerate(events, seq - len(events) + 1)


def _cards(event: dict[str, Any]) -> list[str]:
    cards = event.get("cards")
    return list(cards) if isinstance(cards, list) else []


def _count(event: dict[str, Any]) -> int:
    cards = event.get("cards")
    if isinstance(cards, list):
        return len(cards)
    count = event.get("count")
    return count if isinstance(count, int) else 0


def _remove(cards: list[str], gone: list[str]) -> None:
    for card in gone:
        if card in cards:
            cards.remove(card)


@dataclass
class PlayerState:
    seat: int
    name: str
    hand_size: int = 0
    hand: list[str] | None = None
    """Known only for your own seat (and for everyone in a complete replay)."""
    in_play: list[str] = field(default_factory=list)
    owned: Counter[str] = field(default_factory=Counter)
    owned_known: bool = True
    """False when the game was first seen mid-way, so `owned` counts only what followed."""
    turns: int = 0
    resigned: bool = False
    discard_top: str | None = None
    """The top card of the discard pile (public), None when empty or not known."""


@dataclass
class GameState:
    """A game seen from one seat (or as a spectator) and kept current from events."""

    game: str
    seat: int | None = None
    token: str | None = None
    seq: int = 0
    edition: int = 2
    kingdom: list[str] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)
    trash: list[str] = field(default_factory=list)
    players: list[PlayerState] = field(default_factory=list)
    turn_number: int = 0
    turn_player: int | None = None
    phase: str = "action"
    coins: int = 0
    actions: int = 1
    buys: int = 1
    decision: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    started: bool = False
    costs: dict[str, int] = field(default_factory=lambda: dict(COSTS))
    snapshots: int = 0
    _merchants: int = 0
    _silver_played: bool = False

    @property
    def over(self) -> bool:
        return self.result is not None

    # -- what the strategies read (clients.bots.Table) ------------------------

    def supply_of(self, card: str) -> int:
        return self.supply.get(card, 0)

    def owned_by(self, seat: int, card: str) -> int:
        return self.players[seat].owned[card] if 0 <= seat < len(self.players) else 0

    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def my_decision(self) -> dict[str, Any] | None:
        """The pending decision if it is ours to answer (it then carries options)."""
        decision = self.decision
        if (decision is not None and self.seat is not None and decision.get("player") == self.seat
                and "options" in decision):
            return decision
        return None

    # -- snapshots ------------------------------------------------------------

    def apply_snapshot(self, seq: int, view: dict[str, Any]) -> None:
        """Start again from a whole view (`seq` is its last event)."""
        self.seq = seq
        self.started = True
        self.snapshots += 1
        self.seat = view.get("viewer", self.seat)
        self.edition = view.get("edition", self.edition)
        self.kingdom = list(view.get("kingdom", ()))
        self.supply = dict(view.get("supply", {}))
        self.trash = list(view.get("trash", ()))
        turn = view.get("turn", {})
        self.turn_number = turn.get("number", 0)
        self.turn_player = turn.get("player")
        self.phase = turn.get("phase", "action")
        self.coins = turn.get("coins", 0)
        self.actions = turn.get("actions", 1)
        self.buys = turn.get("buys", 1)
        self.decision = view.get("decision")
        self.result = view.get("result")
        players = []
        for seen in view.get("players", ()):
            seat = seen["seat"]
            player = PlayerState(seat=seat, name=seen.get("name", f"seat {seat}"),
                                 hand_size=seen.get("hand_size", 0),
                                 hand=list(seen["hand"]) if "hand" in seen else None,
                                 in_play=list(seen.get("in_play", ())),
                                 turns=seen.get("turns", 0),
                                 discard_top=seen.get("discard_top"))
            player.owned = Counter(STARTING_DECK)
            players.append(player)
        # Gains are public, but a view does not list them: the counts are certain only
        # before anyone could have bought anything (callers may `recount_owned`).
        fresh = self.turn_number <= 1 and not any(p.in_play for p in players)
        for player in players:
            player.owned_known = fresh
        self.players = players
        # The +1 coin of a Merchant for the first Silver cannot be seen in a view:
        # a snapshot taken mid-turn after a Merchant but before a Silver may miss it.
        self._merchants = 0
        self._silver_played = any("silver" in p.in_play for p in players)

    def recount_owned(self, events: list[dict[str, Any]]) -> None:
        """Count every player's cards from the public events of a whole game so far."""
        for player in self.players:
            player.owned = Counter(STARTING_DECK)
            player.owned_known = True
        for event in events:
            self._count_owned(event, board=False)

    # -- events ---------------------------------------------------------------

    def apply_update(self, seq: int, events: Sequence[dict[str, Any]],
                     decision: dict[str, Any] | None) -> None:
        """A version 2 `update`: its events (the last numbered `seq`), then the decision
        now pending (None: nothing is pending, the game has ended)."""
        for number, event in numbered(seq, events):
            if number > self.seq:  # never apply an event twice (as for `event` frames)
                self.apply_event(number, event)
        self.decision = decision

    def apply_event(self, seq: int, event: dict[str, Any]) -> None:
        """One event, as the recipient sees it (`cards` or only `count`)."""
        self.seq = seq
        kind = event.get("kind")
        seat = event.get("player")
        player = self.players[seat] if isinstance(seat, int) and 0 <= seat < len(
            self.players) else None
        cards = _cards(event)
        zone = event.get("zone")
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        assert isinstance(data, dict)
        if kind == "game_started":
            self.started = True
            names = data.get("players", [])
            self.players = [PlayerState(seat=i, name=n, owned=Counter(STARTING_DECK))
                            for i, n in enumerate(names)]
            self.edition = data.get("edition", self.edition)
            self.kingdom = list(data.get("kingdom", ()))
            self.supply = dict(data.get("supply", {}))
            if self.seat is not None and 0 <= self.seat < len(self.players):
                self.players[self.seat].hand = []
            return
        self._count_owned(event)
        if kind == "turn_started":
            self.turn_number = data.get("turn", self.turn_number + 1)
            self.turn_player = seat
            self.phase = "action"
            self.coins = 0
            self.actions = 1
            self.buys = 1
            self._merchants = 0
            self._silver_played = False
            if player is not None:
                player.turns = data.get("player_turn", player.turns + 1)
        elif kind == "phase":
            self.phase = zone or self.phase
        elif kind == "game_ended":
            self.result = data
            self.phase = "game_over"
            self.decision = None
        elif kind == "resigned" and player is not None:
            player.resigned = True
        if player is None:
            return
        self._move(player, kind, event, cards, zone)
        self._discard_top(player, kind, event, cards, zone)
        if kind == "played" and seat == self.turn_player:
            self._add_coins(cards)
            if self.phase == "action" and zone == "hand" and not event.get("source"):
                self.actions -= len(cards)  # an Action card played from hand in turn
            for card in cards:
                actions, buys = ACTION_EXTRAS.get(card, (0, 0))
                self.actions += actions
                self.buys += buys
        elif kind == "bought":
            self.buys -= len(cards)
            for card in cards:
                self.coins -= self.costs.get(card, 0)
        elif (kind == "trashed" and event.get("source") == "moneylender"
              and cards == ["copper"]):
            self.coins += MONEYLENDER_COINS

    def _count_owned(self, event: dict[str, Any], board: bool = True) -> None:
        """Gains and trashes are public: they change `owned` (and, if `board`, the
        Supply and the trash)."""
        kind = event.get("kind")
        seat = event.get("player")
        if kind not in ("bought", "gained", "trashed") or not isinstance(seat, int) \
                or not 0 <= seat < len(self.players):
            return
        player = self.players[seat]
        data = event.get("data")
        for card in _cards(event):
            if kind == "trashed":
                player.owned[card] -= 1
                if board:
                    self.trash.append(card)
            else:
                player.owned[card] += 1
                if not board:
                    continue
                if isinstance(data, dict) and data.get("from") == "trash":
                    if card in self.trash:
                        self.trash.remove(card)
                else:
                    self.supply[card] = self.supply.get(card, 1) - 1

    def _add_coins(self, cards: list[str]) -> None:
        for card in cards:
            if card in TREASURE_COINS:
                self.coins += TREASURE_COINS[card]
                if card == "silver" and not self._silver_played:
                    self._silver_played = True
                    self.coins += self._merchants
            else:
                self.coins += ACTION_COINS.get(card, 0)
                if card == "merchant":
                    self._merchants += 1

    @staticmethod
    def _discard_top(player: PlayerState, kind: object, event: dict[str, Any],
                     cards: list[str], zone: object) -> None:
        """The public top card of the discard pile."""
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
            # (servers before `discard_tops`, docs/PROTOCOL.md 9.1, did not: None)
            data = event.get("data")
            player.discard_top = data.get("discard_top") if isinstance(data, dict) else None
        # deck_to_discard puts the deck under the pile: its top stays as it was

    @staticmethod
    def _move(player: PlayerState, kind: object, event: dict[str, Any], cards: list[str],
              zone: object) -> None:
        """Hands and play areas (hand contents only where the cards are seen)."""
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
        elif kind == "trashed" and zone == "in_play":  # Feast trashes itself
            _remove(player.in_play, cards)
        elif kind in ("discarded", "trashed", "put_on_deck", "set_aside") and zone == "hand":
            player.hand_size -= count
            if hand is not None:
                _remove(hand, cards)
        player.hand_size = max(player.hand_size, 0)


class ReplayHands:
    """Everyone's hand, followed through a complete replay's events (all cards shown)."""

    def __init__(self) -> None:
        self.state = GameState(game="replay")

    def apply(self, seq: int, event: dict[str, Any]) -> None:
        self.state.apply_event(seq, event)
        if event.get("kind") == "game_started":
            for player in self.state.players:
                player.hand = []

    def hand(self, seat: int) -> list[str]:
        return list(self.state.players[seat].hand or ())
