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

from .events import Event, Secrecy

if TYPE_CHECKING:
    from .decisions import Decision
    from .game import Game

# Bound once, Final: Enum class attributes are slow on Python 3.11, and these are read
# per event; compiled, a Final one is a C static, any other a look-up in the module's dict.
_PUBLIC: Final = Secrecy.PUBLIC
_HIDDEN: Final = Secrecy.HIDDEN
_OWNER_TOP: Final = Secrecy.OWNER_TOP
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
    """What each player owns and the points it scores, and the Supply's counts, kept
    from one change's views to the next: the game keeps each player's `holdings` (a new
    map whenever they gain or trash), so only a change that gained or trashed
    (`Game.ownership_changes`) is read, and only the players whose map is new have their
    points counted again. Held by whoever builds the views of one game's changes; what
    it hands out is replaced, never changed: views already built keep theirs."""

    __slots__ = ("changes_seen", "kingdom", "owned", "points", "supply")

    def __init__(self) -> None:
        self.changes_seen = -1
        """The game's `ownership_changes` when last brought up to date (-1: never)."""
        self.owned: tuple[dict[str, int], ...] = ()
        """Per seat: card -> how many, by card id (the players' `holdings`; the order of a
        deck is not public)."""
        self.points: list[int] = []
        """Per seat (ints: a view copies them as it is built)."""
        self.supply: dict[str, int] = {}
        """The Supply's counts, in its order (a copy of `Game.supply`, replaced on change)."""
        self.kingdom: list[str] = []
        """The Kingdom as a view lists it (a game's never changes)."""

    def update(self, game: Game) -> None:
        """Bring it up to date with `game` (always the same one)."""
        changes = game.ownership_changes
        if changes == self.changes_seen:  # most decisions: nothing gained or trashed
            return
        players = game.players
        owned = self.owned
        if len(owned) != len(players):  # the first time
            self.kingdom = list(game.setup.kingdom)
            self.points = [game.points(p) for p in players]
        else:
            points = self.points
            for seat, p in enumerate(players):  # (compiled, `zip` is a Python-level call)
                if p.holdings is not owned[seat]:
                    points[seat] = game.points(p)
        self.owned = tuple(p.holdings for p in players)
        self.supply = dict(game.supply)  # (a gain from the trash copies it for nothing)
        self.changes_seen = changes


def board_views(game: Game, viewers: Sequence[Viewer], ownership: Ownership | None = None
                ) -> dict[Viewer, dict[str, Any]]:
    """`view` without `decision` for many viewers at once (an `update`'s `view`).

    The public parts (the Supply, the trash, the turn, every player's public fields,
    what they own and their points) are built once and shared between the viewers, as
    `fan_out` shares events: treat the maps as read-only. Only a seat's own player map
    (its hand, deck size and the cards it looks at) and the top-level map are its own.
    With `ownership` (kept between a game's calls), the Supply and what the players own
    are copied, and points counted, only after a change that gained or trashed.
    """
    if ownership is None:
        ownership = Ownership()
    ownership.update(game)
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
