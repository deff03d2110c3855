"""The engine's view maps fit the protocol's payload checks (the server will send them)."""

from __future__ import annotations

import random

from dominion.protocol import (
    Ack,
    GameEvent,
    GameOver,
    PendingDecision,
    Snapshot,
    decode_server,
    encode_server,
)
from dominion.server.engine import (
    Game,
    Setup,
    catalogue_dict,
    decision_view,
    view,
    visible_event,
)


def test_a_whole_game_encodes_for_every_viewer() -> None:
    rng = random.Random(7)
    game = Game(Setup.create(["ann", "bob", "cy"], kingdom="First Game"), seed=11)
    viewers = (0, 1, 2, None)
    sent = 0
    for _ in range(400):
        pending = game.pending
        if pending is None:
            break
        for viewer in viewers:
            frame = encode_server(PendingDecision("g", decision_view(pending, viewer)))
            decode_server(frame)
        picked = rng.sample(range(len(pending.options)), rng.randint(pending.min, pending.max))
        start = len(game.events)
        for seq, event in enumerate(game.answer(pending.player, pending.id, picked), start + 1):
            for viewer in viewers:
                decode_server(encode_server(GameEvent("g", seq, visible_event(event, viewer))))
                sent += 1
    for viewer in viewers:
        decode_server(encode_server(Snapshot("g", len(game.events), view(game, viewer))))
    if game.result is not None:
        decode_server(encode_server(GameOver("g", game.result.to_dict())))
    assert sent


def test_the_catalogue_fits_one_ack() -> None:
    entries: list[dict[str, object]] = []
    for cards in catalogue_dict().values():
        entries.extend(card for card in cards if card not in entries)
    frame = encode_server(Ack(1, cards=tuple(entries)))
    assert decode_server(frame) == Ack(1, cards=tuple(entries))
