"""Scores at the end: every card a player owns counts, wherever it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .frozen import reduce_frozen

if TYPE_CHECKING:
    from .cards import Card
    from .game import Game
    from .state import PlayerState


@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[int, ...]
    turns: tuple[int, ...]
    winners: tuple[int, ...]
    """Seats that share the win: most VP, then fewest turns among those tied
    (players who resigned cannot win)."""
    decks: tuple[dict[str, int], ...]
    """What each player owned at the end (the game's end reveals it)."""
    resigned: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_frozen(self)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "turns": list(self.turns),
                "winners": list(self.winners), "decks": [dict(d) for d in self.decks],
                "resigned": list(self.resigned)}


def player_score(p: PlayerState, cards: dict[str, Card]) -> int:
    return owned_points(_counts(p.owned()), cards)


def owned_points(owned: Mapping[str, int], cards: dict[str, Card]) -> int:
    """The VP of the cards a player owns (card -> count): Gardens by the cards' number."""
    gardens_worth = sum(owned.values()) // 10
    total = 0
    for card, count in owned.items():
        total += count * cards[card].vp
        if card == "gardens":
            total += count * gardens_worth
    return total


def _counts(cards: list[str]) -> dict[str, int]:
    """How many of each card, by card id in order (a loop: compiled, cheaper than the
    Python-level `Counter`)."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return dict(sorted(counts.items()))


def score_game(game: Game) -> Result:
    players = game.players
    scores = tuple(player_score(p, game.cards) for p in players)
    turns = tuple(p.turns for p in players)
    in_game = [p.seat for p in players if p.seat not in game.resigned]
    best = max(scores[seat] for seat in in_game)
    tied = [seat for seat in in_game if scores[seat] == best]
    fewest = min(turns[seat] for seat in tied)
    winners = tuple(seat for seat in tied if turns[seat] == fewest)
    decks = tuple(_counts(p.owned()) for p in players)
    return Result(scores, turns, winners, decks, tuple(game.resigned))
