"""The rating model: Plackett-Luce (Weng-Lin, `openskill`) on a 1500-centred scale.

A rating is a belief about a player's skill: mean `mu`, uncertainty `sigma`. The number
shown is `mu` (a new player 1500, never below 0), provisional while `sigma` is large;
leaderboards order settled players by the conservative `mu - 3 sigma` (the skill the
player has with ~99.9 % certainty). Bots are fixed points: they take part in every update, so their
opponents move against them, but their own rating never changes. docs/RATINGS.md says
why this model and these parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

SCALE: Final = 60.0
"""openskill's defaults (mu 25, sigma 25/3) times this: a new player is 1500 ± 500."""
MU: Final = 25.0 * SCALE
SIGMA: Final = 25.0 / 3.0 * SCALE
BETA: Final = 25.0 / 6.0 * SCALE
"""The spread of one game's performance around the skill: 250 points between two
players gives the better one ~76 % to win (docs/RATINGS.md)."""
TAU: Final = 25.0 / 300.0 * SCALE
"""Added to sigma before each game, so that a rating keeps following a player who
improves instead of freezing."""
DISPLAY_Z: Final = 3.0
"""How many sigmas below mu the conservative estimate lies (leaderboards order by it)."""
PROVISIONAL_SIGMA: Final = 250.0
"""Above this uncertainty (half a new player's) the rating is marked provisional: about 16
two-player games against settled opponents (docs/RATINGS.md)."""

Model = PlackettLuce | ThurstoneMostellerFull | BradleyTerryFull
"""openskill's models that rate a whole ranking at once (bench/ratings.py compares them)."""


def make_model(kind: type[Model]) -> Model:
    """One of openskill's models, with the parameters above."""
    return kind(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


MODEL: Final = make_model(PlackettLuce)


class RatingError(ValueError):
    """A game that cannot be rated as given (seat count, ranks); nothing was changed."""


class Pool(StrEnum):
    """Which rating a game counts for: 2-player Dominion plays differently from 3-6."""

    TWO_PLAYER = "2p"
    MULTIPLAYER = "3-6p"


def pool_for(seats: int) -> Pool:
    if seats == 2:
        return Pool.TWO_PLAYER
    if 3 <= seats <= 6:
        return Pool.MULTIPLAYER
    raise RatingError(f"a rated game has 2 to 6 seats, not {seats}")


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one pool."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    fixed: bool = False
    """A bot's: never changed by a game (a fixed point of the scale)."""

    @property
    def display(self) -> int:
        """The number shown, on the scale players know from chess sites: the skill's best
        estimate (a new player 1500), never below 0; marked provisional ("?") until it
        settles. It starts at 1500, not at 0, and one loss does not make it negative."""
        return max(0, round(self.mu))

    @property
    def conservative(self) -> float:
        """`mu - 3 sigma`, the skill held with about 99.9 % certainty: what leaderboards
        order settled players by, so that a lucky start does not top them."""
        return self.mu - DISPLAY_Z * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


INITIAL: Final = Rating()


def _teams(ratings: Sequence[Rating], model: Model) -> list[list[Any]]:
    """One team of one per seat, as openskill rates them (each model its own class)."""
    pool_for(len(ratings))
    return [[model.create_rating([rating.mu, rating.sigma])] for rating in ratings]


def win_probabilities(ratings: Sequence[Rating], model: Model = MODEL) -> list[float]:
    """Each seat's chance to win, before the game (they sum to 1)."""
    return model.predict_win(_teams(ratings, model))


def update(ratings: Sequence[Rating], ranks: Sequence[int],
           model: Model = MODEL) -> list[Rating]:
    """The seats' ratings after one game in which seat i finished at `ranks[i]` (0 is
    first; equal ranks are a tie). Fixed ratings come back unchanged."""
    if len(ranks) != len(ratings):
        raise RatingError(f"{len(ranks)} ranks for {len(ratings)} seats")
    if any(type(rank) is not int or rank < 0 for rank in ranks):
        raise RatingError(f"ranks are whole numbers from 0, not {list(ranks)}")
    rated: list[list[Any]] = model.rate(_teams(ratings, model),
                                        ranks=[float(rank) for rank in ranks])
    return [old if old.fixed else replace(old, mu=new.mu, sigma=new.sigma, games=old.games + 1)
            for old, (new,) in zip(ratings, rated, strict=True)]
