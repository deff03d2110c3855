"""The no-leak check on the wire: over many random games, every frame each seat and
each spectator received is checked against what docs/RULES.md lets them know, with
the engine's own record of every event (its true owner, cards and secrecy) as the truth."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from dominion.protocol import (
    GameEvent,
    GameOver,
    PendingDecision,
    ServerMessage,
    Snapshot,
    Update,
)
from dominion.server.engine import Event, EventKind, Secrecy, event_record, visible_event
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.room import Room
from tests.engine.invariants import PUBLIC_DECISION_KEYS

from .wsplay import Player, ServerFactory, Site, ws_server

pytestmark = pytest.mark.system  # whole games, every frame checked

__all__ = ["ws_server"]

# Kingdoms rich in hidden information: draws, looks, put-backs, reveals, discards.
SECRETIVE = {
    2: [("artisan", "bandit", "bureaucrat", "cellar", "harbinger", "library", "militia",
         "poacher", "sentry", "vassal"),
        ("chapel", "council_room", "festival", "moat", "moneylender", "remodel",
         "sentry", "throne_room", "witch", "workshop"),
        "Deck Top", "Sleight of Hand", "Improvements"],
    1: [("adventurer", "bureaucrat", "cellar", "chancellor", "feast", "library", "militia",
         "moat", "spy", "thief"),
        "Interaction", "Size Distortion", "Village Square"],
}
OWNER_ONLY = (EventKind.DREW, EventKind.LOOKED_AT, EventKind.PUT_ON_DECK)
NOBODY = (EventKind.SHUFFLED, EventKind.DECK_TO_DISCARD)


def jsonish(value: Any) -> Any:
    """Tuples as lists, as a msgpack round trip gives them."""
    if isinstance(value, dict):
        return {k: jsonish(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonish(v) for v in value]
    return value


def mentions(value: Any, digits: str) -> bool:
    """Whether the seed's decimal digits appear anywhere in a decoded frame."""
    if isinstance(value, dict):
        return any(mentions(k, digits) or mentions(v, digits) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(mentions(v, digits) for v in value)
    if isinstance(value, bool) or value is None:
        return False
    return digits in str(value)


def check_event(event: dict[str, Any], truth: Event, viewer: int | None) -> None:
    owner = truth.player
    may_see = truth.secrecy is Secrecy.PUBLIC or (
        truth.secrecy is not Secrecy.HIDDEN and viewer is not None and viewer == owner)
    if truth.kind in NOBODY or truth.secrecy is Secrecy.HIDDEN:
        assert "cards" not in event, (event, viewer)
    if truth.kind in OWNER_ONLY and truth.secrecy is not Secrecy.PUBLIC and viewer != owner:
        assert "cards" not in event, (event, viewer)
    if not may_see:
        assert "cards" not in event, (event, viewer)
        if "top" in event:  # only the card that ends on top of a discard pile is public
            assert truth.secrecy is Secrecy.OWNER_TOP and event["top"] == truth.cards[-1]
    elif truth.cards:
        assert event["cards"] == list(truth.cards)
    assert event["kind"] == truth.kind and event.get("player") == owner
    assert event == jsonish(visible_event(truth, viewer))


def check_decision(decision: dict[str, Any], viewer: int | None) -> None:
    """Only the decider learns the options, their bounds and whether the answer is forced
    (whether a question is asked at all: tests/server/test_question_secrecy.py)."""
    if decision["player"] == viewer:
        assert {"options", "min", "max", "ordered"} <= set(decision)
        assert type(decision["forced"]) is bool
    else:
        assert set(decision) == PUBLIC_DECISION_KEYS, (decision, viewer)


def check_frames(frames: list[ServerMessage], viewer: int | None, room: Room) -> int:
    """Check everything one recipient received; the number of frames checked."""
    game = room.game
    assert game is not None
    truth = room.events_so_far()
    digits = str(game.seed)
    assert len(digits) >= 6
    for frame in frames:
        content = {f.name: getattr(frame, f.name) for f in dataclasses.fields(frame)}
        assert not mentions(content, digits), (viewer, frame)
        match frame:
            case GameEvent(seq=seq, event=event):
                check_event(event, truth[seq - 1], viewer)
            case Snapshot(view=view):
                assert view["viewer"] == viewer
                assert "seed" not in view
                for player in view["players"]:
                    if player["seat"] != viewer:
                        assert not {"hand", "deck_size", "looking", "deck"} & set(player)
                if view["decision"] is not None:
                    check_decision(view["decision"], viewer)
            case Update(seq=seq, events=events, decision=decision):
                for number, event in enumerate(events, seq - len(events) + 1):
                    check_event(event, truth[number - 1], viewer)
                if decision is not None:
                    check_decision(decision, viewer)
            case PendingDecision(decision=decision):
                check_decision(decision, viewer)
            case GameOver():
                pass
    return len(frames)


async def one_game(site: Site, rng: random.Random) -> tuple[Room, list[Player]]:
    edition = rng.choice((1, 2))
    kingdom: Any = rng.choice(SECRETIVE[edition])
    if rng.random() < 0.25:
        kingdom = rng.sample(kingdom_cards(edition), 10)
    seats = rng.choice((2, 3, 4))
    people = [0] + ([1] if seats > 2 and rng.random() < 0.5 else [])
    bots = {s: rng.choice(("random", "random", "big_money")) for s in range(seats)
            if s not in people}
    game, token = await site.create(seats=seats, bots=bots, kingdom=kingdom,
                                    edition=edition)
    versions = (1, 2)  # every recipient speaks either protocol version
    players = [await Player.join(site, game, token, "random", random.Random(rng.random()),
                                 rng.choice(versions))]
    if 1 in people:
        _, second = await site.join(game, "Bob")
        players.append(await Player.join(site, game, second, "random",
                                         random.Random(rng.random()), rng.choice(versions)))
    players.append(await Player.watch(site, game, rng.choice(versions)))
    await asyncio.wait_for(asyncio.gather(*(p.play(timeout=10) for p in players)), 25)
    return site.room(game), players


async def test_no_leaks_on_the_wire(ws_server: ServerFactory) -> None:
    site = await ws_server()
    rng = random.Random(20240501)
    checked = games = 0
    kinds: set[str] = set()
    spoken: set[int] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while games < 40 and loop.time() < deadline:
        batch = await asyncio.gather(*(one_game(site, rng) for _ in range(4)))
        for room, players in batch:
            games += 1
            assert room.game is not None and room.game.over
            truth = room.events_so_far()
            kinds |= {str(e.kind) for e in truth if e.secrecy is not Secrecy.PUBLIC}
            for player in players:
                checked += check_frames(player.frames, player.seat, room)
                spoken.add(player.client.welcome.version)
                assert player.seq == len(truth) == room.game.event_count
    print(f"{games} games, {checked} frames checked")
    assert games >= 8
    assert checked > 5_000
    assert spoken == {1, 2}
    # the games exercised the hidden kinds of event
    assert {"drew", "shuffled", "discarded"} <= kinds, kinds


def test_the_checker_catches_leaks() -> None:
    """The checks above would see a leaked hand draw, shuffle or look."""
    for truth in (Event(EventKind.DREW, 1, ("gold", "copper"), Secrecy.OWNER),
                  Event(EventKind.SHUFFLED, 0, ("gold", "copper"), Secrecy.HIDDEN),
                  Event(EventKind.LOOKED_AT, 1, ("estate",), Secrecy.OWNER, "sentry", "deck")):
        leaked = jsonish(event_record(truth))
        leaked.pop("secrecy", None)
        for viewer in (None, 0, 2):
            if viewer == truth.player and truth.secrecy is not Secrecy.HIDDEN:
                continue
            with pytest.raises(AssertionError):
                check_event(leaked, truth, viewer)
        check_event(jsonish(visible_event(truth, None)), truth, None)
