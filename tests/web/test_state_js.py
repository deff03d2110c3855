"""The web page's game state (clients/web/js/state.js), kept from the events a viewer
receives, agrees with the engine's view after every change: every seat, a spectator, a
complete replay's reader (every card shown), and a page that joined mid-game from a
snapshot. Random games of every Kingdom card, both editions, run through Node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dominion.clients.bots import make_strategy
from dominion.clients.bots.wire import WireDecision
from dominion.server.engine import (
    Game,
    Setup,
    catalogue_dict,
    decision_view,
    event_record,
    view,
    visible_event,
)
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.bots import EngineTable

HERE = Path(__file__).parent
NODE = shutil.which("node")
COSTS = {card["id"]: card["cost"] for cards in catalogue_dict().values() for card in cards}
EVERYONE = "everyone"
"""The viewer of a complete replay, who sees every card."""


def everyone_view(game: Game) -> dict[str, Any]:
    seen = view(game, None)
    seen["players"] = [view(game, seat)["players"][seat] for seat in range(len(game.players))]
    return seen


def owned(game: Game) -> list[dict[str, int]]:
    return [dict(Counter(card for zone in p.zones() for card in zone)) for p in game.players]


def steps(edition: int, number: int, kingdom: list[str]) -> Iterator[dict[str, Any]]:
    """JSON lines for state_check.mjs: one game, every viewer, every change."""
    players = 2 + number % 5
    game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number)
    strategy = make_strategy("random", random.Random(number))
    viewers: list[int | str | None] = [*range(players), None, EVERYONE]
    name = f"edition {edition} game {number}"
    yield {"game_start": name}
    seen = 0
    late = 40 + number * 7  # a page that arrives mid-game starts from a snapshot here
    answers = 0
    while game.pending is not None and answers < 500:
        events = game.events[seen:]
        seen = len(game.events)
        for viewer in viewers:
            if viewer == EVERYONE:
                forms, expected = [event_record(e) for e in events], everyone_view(game)
            else:
                assert not isinstance(viewer, str)
                forms, expected = [visible_event(e, viewer) for e in events], view(game, viewer)
            yield {"game": name, "viewer": viewer, "costs": COSTS,
                   "everyone": viewer == EVERYONE, "seq": seen, "events": forms,
                   "decision": expected["decision"], "view": expected, "owned": owned(game)}
        if answers == late:
            yield {"game": name, "viewer": 0, "costs": COSTS, "snapshot": view(game, 0)}
        pending = game.pending
        decision = WireDecision.from_map(decision_view(pending, pending.player))
        game.answer(pending.player, pending.id,
                    strategy.choose(decision, EngineTable(game, decision.player)))
        answers += 1


@pytest.mark.skipif(NODE is None,
                    reason="Node.js is not installed (apt-get install nodejs; .ci/run does)")
def test_the_pages_state_follows_the_engine_from_events_alone() -> None:
    rng = random.Random(18)
    lines = []
    for edition in (1, 2):
        cards = list(kingdom_cards(edition))
        kingdoms = [cards[:10], cards[10:20], cards[-10:], rng.sample(cards, 10)]
        for number, kingdom in enumerate(kingdoms):
            lines.extend(json.dumps(step) for step in steps(edition, number, kingdom))
    assert NODE is not None
    done = subprocess.run([NODE, str(HERE / "state_check.mjs")], input="\n".join(lines),
                          capture_output=True, text=True, check=True, timeout=120)
    report = json.loads(done.stdout)
    assert report["problems"] == []
    assert report["checked"] > 5000, report
