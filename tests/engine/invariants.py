"""Checks that must hold at every point of every game: used by the randomised tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from dominion.server.engine import Decision, Game, Secrecy, view, visible_event
from dominion.server.engine.scoring import player_score

PUBLIC_PLAYER_KEYS = {"seat", "name", "hand_size", "discard_top", "in_play", "set_aside", "turns",
                      "owned", "points", "resigned"}
OWN_PLAYER_KEYS = PUBLIC_PLAYER_KEYS | {"hand", "deck_size", "looking"}
PUBLIC_DECISION_KEYS = {"id", "player", "kind", "prompt", "source"}


def check_view_shapes(game: Game, viewers: Sequence[int | None]) -> None:
    """Each viewer's view carries exactly the fields that viewer may have, with the true
    public values (worked out once, as they are the same for every viewer)."""
    public = [(len(p.hand), p.discard_top, p.in_play,
               # what each owns is public (every gain and trash is told): all of it, counted
               dict(Counter(p.owned())), player_score(p, game.cards), p.seat in game.resigned)
              for p in game.players]
    for viewer in viewers:
        seen = view(game, viewer)
        for p, truth, shown in zip(game.players, public, seen["players"], strict=True):
            expected_keys = OWN_PLAYER_KEYS if viewer == p.seat else PUBLIC_PLAYER_KEYS
            assert set(shown) == expected_keys, (viewer, p.seat, set(shown))
            assert (shown["hand_size"], shown["discard_top"], shown["in_play"],
                    shown["owned"], shown["points"], shown["resigned"]) == truth, (viewer, p.seat)
            if viewer == p.seat:
                assert shown["hand"] == p.hand
                assert shown["deck_size"] == len(p.deck)
        decision = seen["decision"]
        if decision is not None and decision["player"] != viewer:
            assert set(decision) == PUBLIC_DECISION_KEYS


def check_decision_shape(decision: Decision) -> None:
    """A forced decision has one answer, every option; any other at least two answers that
    differ in effect (so a client never shows a person a question with one answer)."""
    if decision.forced:
        assert decision.min == decision.max == len(decision.options), decision
    else:
        assert decision.min < decision.max or len(set(decision.options)) > 1, decision


def check_view_ignores_hidden(game: Game, viewer: int | None, rng: random.Random) -> None:
    """Scramble everything `viewer` may not know; their view must not change.

    Other players' hands are swapped with their deck cards, every deck is reordered,
    and every discard pile is reordered below its top card.
    """
    before = view(game, viewer)
    saved = [(p.hand, p.deck, p.discard, p.looking) for p in game.players]
    try:
        for p in game.players:
            if p.seat != viewer:
                pool = p.hand + p.deck + p.looking
                rng.shuffle(pool)
                p.hand = pool[: len(p.hand)]
                p.looking = pool[len(p.hand) : len(p.hand) + len(p.looking)]
                p.deck = pool[len(p.hand) + len(p.looking) :]
            else:
                p.deck = rng.sample(p.deck, len(p.deck))
            if len(p.discard) > 1:
                below = p.discard[:-1]
                rng.shuffle(below)
                p.discard = [*below, p.discard[-1]]
        assert view(game, viewer) == before, f"viewer {viewer} sees hidden information"
    finally:
        for p, (hand, deck, discard, looking) in zip(game.players, saved, strict=True):
            p.hand, p.deck, p.discard, p.looking = hand, deck, discard, looking


def check_event_redaction(game: Game, viewers: Sequence[int | None]) -> None:
    """Events never show any of `viewers` cards docs/RULES.md hides from them, and always
    show that they happened (each event read once, for every viewer in turn)."""
    hidden, public, owner_top = Secrecy.HIDDEN, Secrecy.PUBLIC, Secrecy.OWNER_TOP
    for event in game.events:
        kind, secrecy, player, cards = event.kind, event.secrecy, event.player, event.cards
        for viewer in viewers:
            seen = visible_event(event, viewer)
            assert seen["kind"] == kind  # a StrEnum: equal to its value, and only to it
            owner = viewer is not None and viewer == player
            if secrecy is hidden:
                assert "cards" not in seen
                assert ("count" in seen) == owner
            elif secrecy is public or owner:
                assert seen.get("cards", []) == list(cards)
            else:
                assert "cards" not in seen
                assert seen["count"] == len(cards)
                if secrecy is owner_top:
                    assert seen["top"] == cards[-1]
                else:
                    assert "top" not in seen
