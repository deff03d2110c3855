"""What a player, or a spectator, may know. The only way anything leaves the engine.

Per docs/RULES.md, "Hidden and public information": everyone sees hand sizes, the top
card of each discard pile, play areas, set-aside cards, the Trash, the Supply and what
each player owns (every gain and trash is public);
only the owner sees their hand and their deck's size; nobody sees a deck's order
or what lies in a discard pile below its top card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .events import Event, EventKind, Secrecy
from .scoring import count_cards

if TYPE_CHECKING:
    from .decisions import Decision
    from .game import Game

# Bound once, Final: Enum class attributes are slow on Python 3.11, and these are read
# per event; compiled, a Final one is a C static, any other a look-up in the module's dict.
_PUBLIC: Final = Secrecy.PUBLIC
_HIDDEN: Final = Secrecy.HIDDEN
_OWNER_TOP: Final = Secrecy.OWNER_TOP
_BOUGHT: Final = EventKind.BOUGHT
_GAINED: Final = EventKind.GAINED
_TRASHED: Final = EventKind.TRASHED
_GAME_STARTED: Final = EventKind.GAME_STARTED
_SECRECY_NAMES: Final = tuple(secrecy.name.lower() for secrecy in Secrecy)
"""By `Secrecy` value (they run from 0), as a record writes it: a member's `name` is a
property that Python 3.11 looks up through the Enum machinery, once per hidden event."""

Viewer = int | None
"""A seat, or None for a spectator."""

_OWNER_ONLY_DATA = frozenset({"index"})
"""`data` keys of a non-public event that only its owner sees: where in their discard
pile Harbinger's card was tells the others what lies below its top."""


def event_record(event: Event) -> dict[str, Any]:
    """An event in full, hidden cards included: for logs and finished games' replays."""
    # Kinds are StrEnum members: they are str, and serialise as their value.
    record: dict[str, Any] = {"kind": event.kind}
    if event.player is not None:
        record["player"] = event.player
    if event.cards:
        record["cards"] = list(event.cards)
    if event.secrecy is not _PUBLIC:
        record["secrecy"] = _SECRECY_NAMES[event.secrecy]
    if event.source is not None:
        record["source"] = event.source
    if event.zone is not None:
        record["zone"] = event.zone
    if event.data is not None:
        record["data"] = event.data
    return record


def visible_event(event: Event, viewer: Viewer) -> dict[str, Any]:
    """What `viewer` may know of an event: always that it happened, its cards if allowed."""
    secrecy = event.secrecy
    if secrecy is _PUBLIC or (secrecy is not _HIDDEN and viewer == event.player):
        return event_record(event) if secrecy is _PUBLIC else _without_secrecy(event)
    seen: dict[str, Any] = {"kind": event.kind}
    if event.player is not None:
        seen["player"] = event.player
    if secrecy is not _HIDDEN or viewer == event.player:
        seen["count"] = len(event.cards)
    if secrecy is _OWNER_TOP:
        seen["top"] = event.cards[-1]
    if event.source is not None:
        seen["source"] = event.source
    if event.zone is not None:
        seen["zone"] = event.zone
    if event.data is not None:
        shown = {key: value for key, value in event.data.items() if key not in _OWNER_ONLY_DATA}
        if shown:
            seen["data"] = shown
    return seen


def fan_out(
    events: Sequence[Event], viewers: Sequence[Viewer]
) -> dict[Viewer, list[dict[str, Any]]]:
    """`visible_event` for many viewers at once, building each distinct form only once.

    Every viewer who is not an event's owner sees it as a spectator does, so a public
    event has one form and any other event at most two. The maps are shared between
    viewers: treat them as read-only.
    """
    seen: dict[Viewer, list[dict[str, Any]]] = {viewer: [] for viewer in viewers}
    for event in events:
        if event.secrecy is _PUBLIC:
            public = event_record(event)
            for viewer in viewers:
                seen[viewer].append(public)
            continue
        outsider: dict[str, Any] | None = None
        for viewer in viewers:
            if viewer == event.player:
                seen[viewer].append(visible_event(event, viewer))
            else:
                if outsider is None:
                    outsider = visible_event(event, None)
                seen[viewer].append(outsider)
    return seen


def _without_secrecy(event: Event) -> dict[str, Any]:
    record = event_record(event)
    del record["secrecy"]
    return record


def decision_view(decision: Decision, viewer: Viewer) -> dict[str, Any]:
    """The decider sees the options; everyone else sees who decides, and what about.

    The engine asks a question only when everyone can tell that it exists (docs/ENGINE.md,
    "Questions that tell nothing"), and its kind, prompt and source never depend on hidden
    cards. Its bounds, options and whether it is forced may: only the decider sees them."""
    seen: dict[str, Any] = {
        "id": decision.id,
        "player": decision.player,
        "kind": decision.kind,
        "prompt": decision.prompt,
        "source": decision.source,
    }
    if viewer == decision.player:
        seen["min"] = decision.min
        seen["max"] = decision.max
        seen["ordered"] = decision.ordered
        seen["forced"] = decision.forced
        seen["options"] = [
            {"id": i, "kind": option.kind, "card": option.card}
            for i, option in enumerate(decision.options)
        ]
    return seen


def view(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The game as `viewer` may see it (a seat, or None for a spectator), with the
    decision pending as they see it: a snapshot's map."""
    seen = board_views(game, [viewer])[viewer]
    pending = game.pending
    seen["decision"] = None if pending is None else decision_view(pending, viewer)
    return seen


class Ownership:
    """What each player owns and the points it scores, kept from one change's views to
    the next: a change's gains and trashes are counted in (they are the only ways cards
    come and go; every other event moves them between a player's own zones), and only
    the players they concern have their points counted again. Held by whoever builds the
    views of a game's changes. Each player's map is replaced, never changed, when what
    they own changes: views already built keep theirs. It keeps the Supply's counts too,
    which only the same gains change (and copies again only then), and the parts of a
    seat's `seat_view` that last until such a change."""

    __slots__ = ("by_total", "changes_seen", "event_count", "fixed_points", "kingdom", "owned",
                 "points", "seat_players", "supply")

    def __init__(self) -> None:
        self.event_count = -1
        """The game's event count when last brought up to date (-1: never)."""
        self.changes_seen = 0
        """The game's `ownership_changes` then: while it stays, no event is read."""
        self.owned: list[dict[str, int]] = []
        """Per seat: card -> how many, by card id (the order of a deck is not public)."""
        self.points: list[int] = []
        self.fixed_points: list[int] = []
        """Per seat: `points` but for what cards scoring by their number earn (a change
        adds the changed cards' `vp`)."""
        self.by_total: dict[str, int] = {}
        """The cards seen in the game (in the Supply, owned or changing hands) that score
        by their owner's number of cards (Gardens), with that `vp_per_cards`: a change
        adds their part to the changed player's `fixed_points` (it is counted over these
        cards only, not the player's every card)."""
        self.supply: dict[str, int] = {}
        """The Supply's counts, in its order (a copy of `Game.supply`, replaced on change)."""
        self.seat_players: list[dict[str, Any]] = []
        """Per seat, its map in another seat's `seat_view`: what it owns (replaced with
        its `owned` map)."""
        self.kingdom: list[str] = []
        """The Kingdom as a view lists it (a game's never changes)."""

    def update(self, game: Game, events: Sequence[Event]) -> None:
        """Bring it up to date with `game`, whose latest events are `events` (all those
        since the last update: else, or at the start, everyone is counted again)."""
        count = game.event_count
        if count == self.event_count:
            return
        players = game.players
        if self.event_count != count - len(events) or len(self.owned) != len(players):
            self.recount(game)
            return
        if game.ownership_changes == self.changes_seen:  # most decisions: nothing to read
            self.event_count = count
            return
        changes: dict[int, dict[str, int]] = {}
        for event in events:
            kind = event.kind
            if kind is _BOUGHT or kind is _GAINED:
                step = 1
            elif kind is _TRASHED:
                step = -1
            elif kind is _GAME_STARTED:  # the deal: its event names no player
                self.recount(game)
                return
            else:
                continue
            seat = event.player
            assert seat is not None
            change = changes.setdefault(seat, {})
            for card in event.cards:
                change[card] = change.get(card, 0) + step
        for seat, change in changes.items():
            self._apply(game, seat, change)
        if changes:
            self.supply = dict(game.supply)  # (a gain from the trash copies it for nothing)
        self.event_count = count
        self.changes_seen = game.ownership_changes

    def recount(self, game: Game) -> None:
        """Count every player's cards in their zones."""
        self.owned = [count_cards(p.owned()) for p in game.players]
        cards = game.cards
        self.by_total = {card: cards[card].vp_per_cards
                         for card in (*game.supply, *(c for owned in self.owned for c in owned))
                         if cards[card].vp_per_cards}
        self.fixed_points = [sum(count * cards[card].vp for card, count in owned.items())
                             for owned in self.owned]
        self.points = [self._with_by_total(fixed, owned)
                       for fixed, owned in zip(self.fixed_points, self.owned, strict=True)]
        self.seat_players = [{"owned": owned} for owned in self.owned]
        self.kingdom = list(game.setup.kingdom)
        self.supply = dict(game.supply)
        self.event_count = game.event_count
        self.changes_seen = game.ownership_changes

    def _apply(self, game: Game, seat: int, change: dict[str, int]) -> None:
        owned = dict(self.owned[seat])
        new_card = False
        for card, step in change.items():
            held = owned.get(card, 0) + step
            if held:
                new_card = new_card or card not in owned
                owned[card] = held
            else:  # all gone (or gained and trashed again)
                owned.pop(card, None)
        owned = self.owned[seat] = dict(sorted(owned.items())) if new_card else owned
        self.seat_players[seat] = {"owned": owned}
        cards = game.cards
        fixed = self.fixed_points[seat]
        for card, step in change.items():
            spec = cards[card]
            if spec.vp_per_cards:
                self.by_total[card] = spec.vp_per_cards
            fixed += step * spec.vp
        self.fixed_points[seat] = fixed
        self.points[seat] = self._with_by_total(fixed, owned)

    def _with_by_total(self, fixed: int, owned: dict[str, int]) -> int:
        """`fixed` points and what the cards scoring by their number earn (as
        `owned_points` counts them)."""
        if not self.by_total:
            return fixed
        total = sum(owned.values())
        for card, per_cards in self.by_total.items():
            fixed += owned.get(card, 0) * (total // per_cards)
        return fixed


def board_views(game: Game, viewers: Sequence[Viewer], ownership: Ownership | None = None,
                events: Sequence[Event] = ()) -> dict[Viewer, dict[str, Any]]:
    """`view` without `decision` for many viewers at once (an `update`'s `view`).

    The public parts (the Supply, the trash, the turn, every player's public fields,
    what they own and their points) are built once and shared between the viewers, as
    `fan_out` shares events: treat the maps as read-only. Only a seat's own player map
    (its hand, deck size and the cards it looks at) and the top-level map are its own.
    With `ownership` (kept between calls) and the game's latest `events`, only the
    players those events gave or took cards from are counted again.
    """
    if ownership is None:
        ownership = Ownership()
    ownership.update(game, events)
    turn = game.turn
    resigned = game.resigned
    public: list[dict[str, Any]] = [{
        "seat": p.seat,
        "name": p.name,
        "hand_size": len(p.hand),
        "discard_top": p.discard_top,
        "in_play": list(p.in_play),
        "set_aside": list(p.set_aside),
        "turns": p.turns,
        "owned": ownership.owned[p.seat],
        "points": ownership.points[p.seat],
        "resigned": p.seat in resigned,
    } for p in game.players]
    board = {
        "edition": game.setup.edition,
        "kingdom": list(game.setup.kingdom),
        "supply": ownership.supply,
        "trash": list(game.trash),
        "turn": {
            "number": turn.number,
            "player": turn.player,
            "player_turn": game.players[turn.player].turns,
            "phase": turn.phase.value,
            "actions": turn.actions,
            "buys": turn.buys,
            "coins": turn.coins,
        },
    }
    result = None if game.result is None else game.result.end_dict()
    seen: dict[Viewer, dict[str, Any]] = {}
    for viewer in viewers:
        players = public
        if viewer is not None and 0 <= viewer < len(public):
            p = game.players[viewer]
            players = list(public)
            players[viewer] = public[viewer] | {
                "hand": list(p.hand), "deck_size": len(p.deck), "looking": list(p.looking)}
        seen[viewer] = {"viewer": viewer, **board, "players": players, "result": result,
                        "event_count": game.event_count}
    return seen


def seat_view(game: Game, seat: int, ownership: Ownership | None = None,
              events: Sequence[Event] = ()) -> dict[str, Any]:
    """The part of `seat`'s `board_views` map that a bot reads (bots/seat.py, `SeatTable`):
    the turn's counters, the Kingdom, the Supply, what every player owns and the seat's
    own hand, each key as the whole map has it, so a bot knows nothing a network client
    does not (tests/bots/test_seat_table.py). Built for every decision a bot answers in
    process: the rest of the map would cost as much again. `ownership` and `events` as
    `board_views` takes them; the maps that last until a gain or trash are shared (the
    Kingdom, the Supply, the other players'): treat them as read-only."""
    if ownership is None:
        ownership = Ownership()
    ownership.update(game, events)
    turn = game.turn
    players = list(ownership.seat_players)
    players[seat] = {"owned": ownership.owned[seat], "hand": list(game.players[seat].hand)}
    return {"viewer": seat, "kingdom": ownership.kingdom, "supply": ownership.supply,
            "turn": {"actions": turn.actions, "buys": turn.buys, "coins": turn.coins},
            "players": players}
