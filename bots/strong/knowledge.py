"""What the strong bot knows of the cards: the costs, coins, points and types of the card
catalogue the server publishes (`GET /api/v1/cards`, the `catalogue` request), which every
client gets, beside its own judgement of each card (cards.py); the bot keeps no rules of
its own (docs/ARCHITECTURE.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import cards
from .cards import BotCard


class CardFacts:
    """The catalogue's facts, card by card (a card the catalogue lacks costs nothing and
    does nothing), and the bot's entry for each (`bot_card`)."""

    __slots__ = ("_actions", "_attacks", "_coins", "_cost", "_hand_values", "_junk",
                 "_per_cards", "_points")

    def __init__(self, catalogue: Iterable[Mapping[str, Any]]) -> None:
        self._cost: dict[str, int] = {}
        self._coins: dict[str, int] = {}
        self._points: dict[str, int] = {}
        self._per_cards: dict[str, int] = {}
        self._actions: set[str] = set()
        self._attacks: set[str] = set()
        self._junk: set[str] = set()
        for entry in catalogue:
            card, types = entry["id"], set(entry["types"])
            self._cost[card] = entry["cost"]
            if "coins" in entry:
                self._coins[card] = entry["coins"]
            if "vp" in entry:
                self._points[card] = entry["vp"]
            if "vp_per_cards" in entry:
                self._per_cards[card] = entry["vp_per_cards"]
            if "attack" in types:
                self._attacks.add(card)
            if "action" in types:
                self._actions.add(card)
            elif "treasure" not in types:
                self._junk.add(card)  # Victory cards and Curses do nothing in hand
        self._hand_values = {card: self._hand_value(card) for card in self._cost}

    def bot_card(self, card: str | None) -> BotCard:
        """The bot's judgement of `card`: its entry in cards.py."""
        return cards.bot_card(card)

    def cost(self, card: str | None) -> int:
        return self._cost.get(card or "", 0)

    def coins(self, card: str | None) -> int:
        """What a Treasure makes when played (0: not a Treasure that makes a fixed sum)."""
        return self._coins.get(card or "", 0)

    def is_treasure(self, card: str | None) -> bool:
        return (card or "") in self._coins

    def is_action(self, card: str | None) -> bool:
        return (card or "") in self._actions

    def is_attack(self, card: str | None) -> bool:
        return (card or "") in self._attacks

    def is_junk(self, card: str | None) -> bool:
        """A card that does nothing in hand: a Victory card or a Curse."""
        return (card or "") in self._junk

    def value(self, card: str | None) -> int:
        """The points one copy scores (per-card points such as Gardens' count apart)."""
        return self._points.get(card or "", 0)

    def points(self, holdings: Mapping[str, int]) -> int:
        """The victory points of what a player owns."""
        owned = sum(holdings.values())
        return sum((self._points.get(card, 0) + self._per_card_points(card, owned)) * count
                   for card, count in holdings.items())

    def _per_card_points(self, card: str, owned: int) -> int:
        per = self._per_cards.get(card)
        return owned // per if per else 0

    def money(self, holdings: Mapping[str, int]) -> int:
        """The coins a player's Treasures make in all."""
        return sum(self._coins.get(card, 0) * count for card, count in holdings.items())

    def is_terminal(self, card: str | None) -> bool:
        """An Action that uses up the turn's action (the bot's entry says: the catalogue
        does not publish an Action's "+" bonuses)."""
        return self.bot_card(card).terminal

    def hand_value(self, card: str | None) -> float:
        """What `card` in hand is worth to the turn, roughly in coins."""
        if card is None:
            return 0.0
        value = self._hand_values.get(card)
        return value if value is not None else self.bot_card(card).hand_value

    def _hand_value(self, card: str) -> float:
        """A Victory card or Curse: its points say (-1 for a Curse); another: its entry."""
        if card in self._junk:
            return -1.0 if self._points.get(card, 0) < 0 else 0.0
        return self.bot_card(card).hand_value
