"""Set-up: pile sizes per player count, starting decks, Kingdoms, and refused set-ups."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dominion.server.engine import RECOMMENDED_KINGDOMS, Game, InvalidSetup, Setup
from dominion.server.engine.cards import catalogue, kingdom_cards

# players: copper, silver, gold, estate, duchy, province, curse, kingdom pile, gardens
PILES = {
    2: (46, 40, 30, 8, 8, 8, 10, 10, 8),
    3: (39, 40, 30, 12, 12, 12, 20, 10, 12),
    4: (32, 40, 30, 12, 12, 12, 30, 10, 12),
    5: (85, 80, 60, 12, 12, 15, 40, 10, 12),
    6: (78, 80, 60, 12, 12, 18, 50, 10, 12),
}


@pytest.mark.parametrize("players", sorted(PILES))
def test_pile_sizes_per_player_count(players: int) -> None:
    setup = Setup.create(players, kingdom="Size Distortion")  # has Gardens
    supply = Game(setup, seed=1).supply
    base = ("copper", "silver", "gold", "estate", "duchy", "province", "curse")
    assert tuple(supply[c] for c in base) == PILES[players][:7]
    assert supply["witch"] == PILES[players][7]
    assert supply["gardens"] == PILES[players][8]


def test_with_kingdom_keeps_every_other_field() -> None:
    setup = replace(Setup.create(3, kingdom="First Game", first_player=2),
                    secret_questions=False, discard_tops=False)
    kingdom = RECOMMENDED_KINGDOMS[2]["Deck Top"]
    assert setup.with_kingdom(kingdom) == replace(setup, kingdom=kingdom)


@pytest.mark.parametrize("players", range(2, 7))
def test_starting_decks_and_hands(players: int) -> None:
    game = Game(Setup.create(players, kingdom="First Game"), seed=players)
    for p in game.players:
        assert sorted(p.owned()) == ["copper"] * 7 + ["estate"] * 3
        assert len(p.hand) == 5 and len(p.deck) == 5
        assert not p.discard
    assert game.turn.player == game.first_player
    assert game.pending is not None and game.pending.player == game.first_player


def test_starting_player_is_random_but_seeded() -> None:
    setup = Setup.create(4, kingdom="First Game")
    firsts = {Game(setup, seed=seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert Game(setup, seed=7).first_player == Game(setup, seed=7).first_player


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_chosen_first_player_starts_and_the_shuffles_stay_the_seeds(seat: int) -> None:
    drawn = Game(Setup.create(3, kingdom="First Game"), seed=11)
    setup = Setup.create(3, kingdom="First Game", first_player=seat)
    game = Game(setup, seed=11)
    assert game.first_player == game.turn.player == seat
    assert [p.hand for p in game.players] == [p.hand for p in drawn.players]
    assert setup.to_dict()["first_player"] == seat and Setup.from_dict(setup.to_dict()) == setup
    assert "first_player" not in drawn.setup.to_dict()


@pytest.mark.parametrize("seat", [3, -1, True, "0"])
def test_a_first_player_who_is_not_a_seat_is_refused(seat: object) -> None:
    with pytest.raises(InvalidSetup) as refused:
        Setup.create(3, first_player=seat)
    assert refused.value.code == "bad_player"


def test_every_recommended_set_is_valid_for_its_edition() -> None:
    assert sum(len(sets) for sets in RECOMMENDED_KINGDOMS.values()) == 11
    for edition, sets in RECOMMENDED_KINGDOMS.items():
        for name, cards in sets.items():
            setup = Setup.create(2, edition=edition, kingdom=name)
            assert setup.kingdom == cards and len(set(cards)) == 10


def test_editions_offer_their_kingdom_cards() -> None:
    second, first = set(kingdom_cards(2)), set(kingdom_cards(1))
    assert len(second) == 26 and len(first) == 25 and len(second & first) == 19
    assert first - second == {"adventurer", "chancellor", "feast", "spy", "thief", "woodcutter"}
    assert second - first == {"merchant", "vassal", "harbinger", "poacher", "bandit", "sentry",
                              "artisan"}
    assert len(catalogue(1)) == len(catalogue(2)) - 1 == 32
    for card in ("moneylender", "mine", "throne_room"):
        assert catalogue(1)[card].text != catalogue(2)[card].text


def test_random_kingdom_comes_from_the_edition_and_the_given_rng() -> None:
    for edition in (1, 2):
        setup = Setup.create(3, edition=edition, rng=random.Random(5))
        assert len(set(setup.kingdom)) == 10
        assert set(setup.kingdom) <= set(kingdom_cards(edition))
        assert setup == Setup.create(3, edition=edition, rng=random.Random(5))


@pytest.mark.parametrize(
    ("players", "edition", "kingdom", "code"),
    [
        (1, 2, "First Game", "bad_player_count"),
        (7, 2, "First Game", "bad_player_count"),
        (["Ann", ""], 2, "First Game", "bad_players"),
        (["Ann", 5], 2, "First Game", "bad_players"),
        (True, 2, "First Game", "bad_players"),
        ("two", 2, "First Game", "bad_players"),
        (2, 3, "First Game", "bad_edition"),
        (2, 2, "Big Money", "unknown_kingdom_set"),
        (2, 2, ["cellar"] * 9, "bad_kingdom_size"),
        (2, 2, [*RECOMMENDED_KINGDOMS[2]["First Game"][:9], "cellar"], "duplicate_card"),
        (2, 2, [*RECOMMENDED_KINGDOMS[2]["First Game"][:9], "dragon"], "unknown_card"),
        (2, 2, [*RECOMMENDED_KINGDOMS[2]["First Game"][:9], "copper"], "unknown_card"),
        (2, 2, [*RECOMMENDED_KINGDOMS[2]["First Game"][:9], 5], "unknown_card"),
        (2, 2, [*RECOMMENDED_KINGDOMS[2]["First Game"][:9], "feast"], "card_not_in_edition"),
        (2, 1, [*RECOMMENDED_KINGDOMS[1]["First Game"][:9], "sentry"], "card_not_in_edition"),
    ],
)
def test_invalid_setups_are_refused(players: object, edition: int, kingdom: object,
                                    code: str) -> None:
    with pytest.raises(InvalidSetup) as refused:
        Setup.create(players, edition=edition, kingdom=kingdom)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert refused.value.message
