"""Scores at the end: every card a player owns counts, wherever it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .frozen import reduce_frozen

if TYPE_CHECKING:
    from .cards import Card
    from .game import Game
    from .state import PlayerState


class EndReason(StrEnum):
    """Why a game ended."""

    PROVINCES = "provinces"
    """The Province pile is empty."""
    PILES = "piles"
    """Three Supply piles are empty (four with five or more players)."""
    RESIGNATIONS = "resignations"
    """Fewer than two players are left in it."""


class Tie(StrEnum):
    """How a tie for the most points was settled (docs/RULES.md)."""

    FEWER_TURNS = "fewer_turns"
    """The tied player(s) with the fewest turns win."""
    SHARED = "shared"
    """The tied players had as many turns: they share the win."""


class CardPoints:
    """What one card a player owns scored at the end: `count` copies, `points` in all.

    A plain class, as `Event` is: compiled, a frozen dataclass's generated `__init__`
    runs interpreted (about 6,000 instructions; a game's end builds eight or so). Treat it
    as immutable; two are equal when all their fields are."""

    __slots__ = ("card", "cards_owned", "count", "points")

    def __init__(self, card: str, count: int, points: int, cards_owned: int = 0) -> None:
        self.card = card
        self.count = count
        self.points = points
        self.cards_owned = cards_owned
        """For a card worth points by the owner's number of cards (Gardens): that number."""

    def _fields(self) -> tuple[str, int, int, int]:
        return self.card, self.count, self.points, self.cards_owned

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardPoints):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[CardPoints], tuple[str, int, int, int]]:
        # compiled, the default recipe calls `__init__` without arguments
        return CardPoints, self._fields()

    def __repr__(self) -> str:
        return (f"CardPoints(card={self.card!r}, count={self.count!r}, "
                f"points={self.points!r}, cards_owned={self.cards_owned!r})")

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"card": self.card, "count": self.count, "points": self.points}
        if self.cards_owned:
            entry["cards_owned"] = self.cards_owned
        return entry


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
    ended_by: EndReason | None = None
    """None for a game that has not ended by the rules (abandoned by the server)."""
    empty_piles: tuple[str, ...] = ()
    """The Supply piles empty at the end, in the Supply's order."""
    points_by_card: tuple[tuple[CardPoints, ...], ...] = ()
    """Per seat, the cards that scored, most points first."""
    tie: Tie | None = None
    timed_out: tuple[int, ...] = ()
    """Seats the server resigned because their clocks ran out (of `resigned`)."""

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_frozen(self)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "turns": list(self.turns),
                "winners": list(self.winners), "decks": [dict(d) for d in self.decks],
                "resigned": list(self.resigned)} | (
                    # only when some clock ran out: older results stay as they were
                    {"timed_out": list(self.timed_out)} if self.timed_out else {})

    def end_dict(self) -> dict[str, Any]:
        """`to_dict` and `ending`: what a view and `game_over` carry."""
        return self.to_dict() | self.ending()

    def ending(self) -> dict[str, Any]:
        """What the end shows beyond `to_dict`: why, and the points card by card. Not in
        the `game_ended` event nor the stored result (`to_dict`), so that games played
        before these keys replay and verify as they were."""
        return {"ended_by": None if self.ended_by is None else self.ended_by.value,
                "empty_piles": list(self.empty_piles),
                "points_by_card": [[entry.to_dict() for entry in seat]
                                   for seat in self.points_by_card],
                "tie": None if self.tie is None else self.tie.value}


def empty_piles_to_end(player_count: int) -> int:
    """How many empty Supply piles end the game: three, four with five or more players."""
    return 4 if player_count >= 5 else 3


def end_reason(supply: Mapping[str, int], piles_to_end: int) -> EndReason | None:
    """Whether the Supply ends the game, and why: the Provinces first."""
    if supply["province"] == 0:
        return EndReason.PROVINCES
    empty = 0
    for count in supply.values():
        if count == 0:
            empty += 1
    return EndReason.PILES if empty >= piles_to_end else None


def player_score(p: PlayerState, cards: dict[str, Card]) -> int:
    """`p`'s points from the cards in their zones, counted (not from `holdings`)."""
    return owned_points(count_cards(p.owned()), cards)


def holding_points(p: PlayerState, by_total: tuple[tuple[str, int], ...]) -> int:
    """`p`'s points from their kept `holdings`, as `owned_points` counts them: their
    `fixed_points` and what the cards of `by_total` (card, `vp_per_cards`: Gardens) earn
    by the player's number of cards."""
    points = p.fixed_points
    holdings = p.holdings
    total = -1
    for card, per_cards in by_total:
        held = holdings.get(card, 0)
        if held:
            if total < 0:
                total = sum(holdings.values())
            points += held * (total // per_cards)
    return points


def owned_points(owned: Mapping[str, int], cards: dict[str, Card]) -> int:
    """The VP of the cards a player owns (card -> count): Gardens by the cards' number."""
    owned_total = sum(owned.values())
    total = 0
    for card, count in owned.items():
        total += card_points(cards[card], count, owned_total)
    return total


def card_points(card: Card, count: int, owned_total: int) -> int:
    """What `count` copies of `card` score for a player who owns `owned_total` cards."""
    points = count * card.vp
    if card.vp_per_cards:
        points += count * (owned_total // card.vp_per_cards)
    return points


def points_by_card(owned: Mapping[str, int], cards: dict[str, Card]) -> tuple[CardPoints, ...]:
    """The cards that score (Victory cards, Curses, any worth points), most points first,
    then by id."""
    owned_total = sum(owned.values())
    scored = [CardPoints(card, count, card_points(cards[card], count, owned_total),
                         owned_total if cards[card].vp_per_cards else 0)
              for card, count in owned.items() if cards[card].scores]
    return tuple(sorted(scored, key=lambda entry: (-entry.points, entry.card)))


def count_cards(cards: list[str]) -> dict[str, int]:
    """How many of each card, by card id in order (a loop: compiled, cheaper than the
    Python-level `Counter`)."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return dict(sorted(counts.items()))


def score_game(game: Game) -> Result:
    players = game.players
    decks = tuple(p.holdings for p in players)
    scores = tuple(game.points(p) for p in players)
    turns = tuple(p.turns for p in players)
    in_game = [p.seat for p in players if p.seat not in game.resigned]
    best = max(scores[seat] for seat in in_game)
    tied = [seat for seat in in_game if scores[seat] == best]
    fewest = min(turns[seat] for seat in tied)
    winners = tuple(seat for seat in tied if turns[seat] == fewest)
    tie = None if len(tied) == 1 else Tie.SHARED if len(winners) == len(tied) else Tie.FEWER_TURNS
    ended_by = end_reason(game.supply, empty_piles_to_end(len(players)))
    if ended_by is None and len(in_game) < 2:
        ended_by = EndReason.RESIGNATIONS
    empty = tuple(card for card in game.supply_order if game.supply[card] == 0)
    return Result(scores, turns, winners, decks, tuple(game.resigned), ended_by, empty,
                  tuple(points_by_card(deck, game.cards) for deck in decks), tie,
                  tuple(game.timed_out))
