"""The rating core (server/ratings, docs/RATINGS.md): pools, ranks from a finished game
(ties, resignations last), updates with bots as fixed points, the number shown."""

from __future__ import annotations

import pytest

from dominion.server.engine import Game, Result, Setup
from dominion.server.ratings import (
    INITIAL,
    Pool,
    Rating,
    RatingError,
    pool_for,
    ranks,
    update,
    win_probabilities,
)
from dominion.server.ratings.model import PROVISIONAL_SIGMA


def result(scores: tuple[int, ...], turns: tuple[int, ...],
           resigned: tuple[int, ...] = ()) -> Result:
    return Result(scores=scores, turns=turns, winners=(), decks=tuple({} for _ in scores),
                  resigned=resigned)


@pytest.mark.parametrize(("seats", "pool"), [(2, Pool.TWO_PLAYER), (3, Pool.MULTIPLAYER),
                                             (6, Pool.MULTIPLAYER)])
def test_two_player_games_are_rated_apart_from_three_to_six(seats: int, pool: Pool) -> None:
    assert pool_for(seats) is pool


@pytest.mark.parametrize("seats", [0, 1, 7])
def test_a_game_of_fewer_than_two_or_more_than_six_seats_is_refused(seats: int) -> None:
    with pytest.raises(RatingError, match="2 to 6 seats"):
        pool_for(seats)
    with pytest.raises(RatingError):
        update([INITIAL] * seats, [0] * seats)


def test_ranks_follow_points_then_fewer_turns_and_equal_both_tie() -> None:
    assert ranks(result((30, 41, 30, 30), (18, 18, 18, 17))) == [2, 0, 2, 1]
    assert ranks(result((30, 30), (18, 18))) == [0, 0]


def test_a_seat_that_resigned_or_was_taken_over_is_ranked_last_whatever_its_points() -> None:
    assert ranks(result((50, 10, 20), (10, 10, 10), resigned=(0,))) == [2, 1, 0]
    assert ranks(result((50, 10, 20, 5), (10, 10, 10, 9)), taken_over=(0, 2)) == [2, 0, 2, 1]


def test_the_ranks_of_a_real_game_put_its_winners_first() -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=3)
    game.resign(1)
    game.resign(2)
    assert game.result is not None
    assert ranks(game.result) == [0, 1, 1]  # two resignations: the last player wins


def test_a_win_moves_the_winner_up_and_the_loser_down_by_as_much() -> None:
    winner, loser = update([INITIAL, INITIAL], [0, 1])
    assert winner.mu - INITIAL.mu == pytest.approx(INITIAL.mu - loser.mu) and winner.mu > 1600
    assert winner.sigma < INITIAL.sigma and winner.games == loser.games == 1


def test_tied_players_move_together() -> None:
    first, second, third = update([INITIAL] * 3, [0, 0, 1])
    assert first == second and first.mu > INITIAL.mu > third.mu
    one, two = update([INITIAL, INITIAL], [0, 0])
    assert one.mu == pytest.approx(INITIAL.mu) == two.mu  # a tie between equals: no change


def test_a_bot_is_a_fixed_point_that_its_opponents_move_against() -> None:
    bot = Rating(mu=1700, sigma=60, games=900, fixed=True)
    beat, lost = update([INITIAL, bot], [0, 1])
    assert lost is bot  # unchanged: neither mu nor sigma nor its count of games
    assert beat.mu > INITIAL.mu
    against_weaker_bot = update([INITIAL, Rating(mu=1000, sigma=60, fixed=True)], [0, 1])[0]
    assert against_weaker_bot.mu < beat.mu  # beating a weaker fixed point counts for less


def test_the_shown_number_starts_at_1500_and_is_provisional_until_settled() -> None:
    # it was mu - 3 sigma: a new player showed 0, and -110 after one loss
    assert INITIAL.display == 1500 and INITIAL.provisional
    lost = update([INITIAL, Rating(mu=1500, sigma=50, fixed=True)], [1, 0])[0]
    assert 1000 < lost.display < 1500 and lost.provisional
    rating, bot = INITIAL, Rating(mu=1500, sigma=50, fixed=True)
    for game in range(40):
        rating = update([rating, bot], [game % 2, 1 - game % 2])[0]  # wins half
    assert not rating.provisional and rating.sigma <= PROVISIONAL_SIGMA
    assert rating.display == round(rating.mu)
    assert rating.conservative == rating.mu - 3 * rating.sigma < rating.mu


def test_the_better_rated_player_is_predicted_to_win_more_often() -> None:
    chances = win_probabilities([Rating(mu=1750, sigma=50), Rating(mu=1500, sigma=50),
                                 Rating(mu=1500, sigma=50)])
    assert sum(chances) == pytest.approx(1)
    assert chances[0] > chances[1] == pytest.approx(chances[2])


@pytest.mark.parametrize("wrong", [[0], [0, 1, 2], [0, -1], [0, 1.5], [True, 0]])
def test_ranks_that_do_not_fit_the_seats_are_refused(wrong: list[int]) -> None:
    before = [INITIAL, Rating(mu=1600)]
    with pytest.raises(RatingError):
        update(before, wrong)
    assert before == [INITIAL, Rating(mu=1600)]


def test_tau_widens_sigma_in_quadrature_before_each_game() -> None:
    """docs/RATINGS.md, "Parameters": sigma becomes sqrt(sigma^2 + tau^2), not sigma + tau."""
    from openskill.models import PlackettLuce

    from dominion.server.ratings.model import BETA, MU, SIGMA, TAU
    without_tau = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0)
    ann, bob = Rating(mu=1400, sigma=120, games=80), Rating(mu=1600, sigma=60, games=90)

    def widened(rating: Rating, sigma: float) -> Rating:
        return Rating(mu=rating.mu, sigma=sigma, games=rating.games)

    quadrature = [widened(r, (r.sigma**2 + TAU**2) ** 0.5) for r in (ann, bob)]
    added = [widened(r, r.sigma + TAU) for r in (ann, bob)]
    for ranks_ in ([0, 1], [1, 0]):
        rated = update([ann, bob], ranks_)
        expected = update(quadrature, ranks_, without_tau)
        assert [x for r in rated for x in (r.mu, r.sigma)] == pytest.approx(
            [x for r in expected for x in (r.mu, r.sigma)], rel=1e-12)
        assert rated[0].sigma != pytest.approx(update(added, ranks_, without_tau)[0].sigma,
                                               rel=1e-6)


@pytest.mark.parametrize(("mu", "sigma", "shown"), [
    (1500.5, 0, 1500), (1501.5, 0, 1502), (1500.49, 0, 1500), (1200, 100, 1200),
    (100, 100, 100), (-150, 120, 0),
])
def test_the_shown_number_is_rounded_to_the_nearest_whole_half_to_even(
        mu: float, sigma: float, shown: int) -> None:
    """docs/RATINGS.md, "The number shown": Python's round() of mu, never below 0."""
    assert Rating(mu=mu, sigma=sigma).display == shown
