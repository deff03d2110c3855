"""The strong bot's card table (bots/strong/cards.py): an entry for every card the server
publishes, consistent with the catalogue, and rankings without ties."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from dominion.bots.strong.cards import CARDS, BotCard
from dominion.bots.strong.plans import RANKING, SUPPORTS
from dominion.bots.strong.roles import Role
from dominion.server.engine.cards import catalogue_dict

PUBLISHED = {entry["id"]: entry for cards in catalogue_dict().values() for entry in cards}
"""Every card of the catalogue (`GET /api/v1/cards`), both editions."""


@pytest.mark.parametrize("edition", sorted(catalogue_dict()))
def test_every_card_of_the_catalogue_has_an_entry(edition: str) -> None:
    assert {entry["id"] for entry in catalogue_dict()[edition]} <= set(CARDS)


def test_every_entry_is_a_card_of_the_catalogue() -> None:
    assert set(CARDS) <= set(PUBLISHED)
    assert all(card.id == key for key, card in CARDS.items())


def test_the_bot_plays_exactly_the_catalogues_actions() -> None:
    for card in CARDS.values():
        assert (card.role is not None) == ("action" in PUBLISHED[card.id]["types"]), card.id


def test_a_plan_is_built_around_its_own_card_and_ranked() -> None:
    for card in CARDS.values():
        assert card.plan is None or card.plan.card == card.id, card.id
        ranked = card.rank_two_players is not None or card.rank_four_players is not None
        assert ranked == (card.plan is not None), card.id
        assert card.support_rank is None or not card.terminal, card.id


@pytest.mark.parametrize("place", [
    lambda card: (card.role, card.play_rank) if card.role is not None else None,
    lambda card: card.repeat_rank,
    lambda card: card.rank_two_players,
    lambda card: card.rank_four_players,
    lambda card: card.support_rank,
], ids=["play", "repeat", "two_players", "four_players", "support"])
def test_no_two_cards_share_a_place(place: Callable[[BotCard], object]) -> None:
    """A tie would leave the order to the table's layout."""
    places = Counter(place(card) for card in CARDS.values())
    del places[None]
    assert [found for found, count in places.items() if count > 1] == []


def test_the_rankings_read_from_the_table() -> None:
    assert RANKING[2][:3] == ("witch", "smithy", "militia")
    assert "mine" in RANKING[2] and "mine" not in RANKING[4]
    assert SUPPORTS == ("laboratory", "market")
    assert [card for card in CARDS if CARDS[card].role is Role.MORE_ACTIONS] == [
        "village", "festival"]
