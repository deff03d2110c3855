"""The ledger's records: a finished rated game as its node hands it on (`RatedGame`), and
what applying it did to each seat (`LedgerSeat`); the in-server bots' fixed ratings; and
`apply` / `replay`, which the account stores call inside their transactions.

Pure, like the model: the stores keep the ledger (server/accounts), the node's outbox
keeps the games until they are applied (server/storage), docs/RATINGS.md says how.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from .model import INITIAL, Pool, Rating, RatingError, pool_for, update

BOT_MU: Final[Mapping[str, Mapping[Pool, float]]] = {
    # docs/RATINGS.md, "Bots are fixed points". 2 players: the bots' games against each
    # other (bench/levels.py), big_money held; random, and 3-6 players: bench/ratings.py's
    # population, each strategy's mean mu over seeds 1 and 2
    "random": {Pool.TWO_PLAYER: -150.0, Pool.MULTIPLAYER: -1220.0},
    "big_money": {Pool.TWO_PLAYER: 1480.0, Pool.MULTIPLAYER: 1710.0},
    "smithy_big_money": {Pool.TWO_PLAYER: 1580.0, Pool.MULTIPLAYER: 2250.0},
    "strong": {Pool.TWO_PLAYER: 1840.0, Pool.MULTIPLAYER: 3140.0},
}
BOT_SIGMA: Final = 120.0
"""A settled rating's uncertainty on that population (tau keeps it near 115-145)."""


def bot_rating(strategy: str, pool: Pool) -> Rating:
    """An in-server bot's rating: fixed, so that the scale has fixed points."""
    try:
        mu = BOT_MU[strategy][pool]
    except KeyError:
        raise RatingError(f"no fixed rating for the bot {strategy!r}") from None
    return Rating(mu=mu, sigma=BOT_SIGMA, fixed=True)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a rated game: an account or an in-server bot, and where it finished."""

    seat: int
    rank: int
    account_id: int | None = None
    bot: str | None = None
    """The in-server bot's strategy (a bot account is an account)."""

    def __post_init__(self) -> None:
        if (self.account_id is None) == (self.bot is None):
            raise RatingError(f"seat {self.seat} is an account or an in-server bot")

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "rank": self.rank, "account_id": self.account_id,
                "bot": self.bot}


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished rated game, as its node's outbox keeps it until the ledger has it."""

    game_id: str
    finished_at: str
    """ISO 8601 UTC, as the game's record has it."""
    seats: tuple[RatedSeat, ...]
    aborted: bool = False
    """A seat resigned before `rated_min_turns` turns of its own: kept, changing no rating
    (moderators count a pair's early resignations)."""

    def __post_init__(self) -> None:
        accounts = [seat.account_id for seat in self.seats if seat.account_id is not None]
        if len(accounts) != len(set(accounts)):  # it would rate an account against itself
            raise RatingError(f"game {self.game_id} seats an account twice")

    @property
    def pool(self) -> Pool:
        return pool_for(len(self.seats))

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "finished_at": self.finished_at,
                "seats": [seat.to_dict() for seat in self.seats]} | (
                    {"aborted": True} if self.aborted else {})

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RatedGame:
        return cls(raw["game_id"], raw["finished_at"],
                   tuple(RatedSeat(**seat) for seat in raw["seats"]),
                   bool(raw.get("aborted", False)))


@dataclass(frozen=True, slots=True)
class LedgerSeat:
    """A seat as the ledger keeps it: its rating before the game and after."""

    seated: RatedSeat
    before: Rating
    after: Rating


def apply(game: RatedGame, current: Mapping[int, Rating], counted: bool = True
          ) -> list[LedgerSeat]:
    """Each seat's rating before and after `game`; `current` holds the accounts' ratings
    in the game's pool (an account without one starts at INITIAL). A game not `counted`
    (over the per-day pair limit) leaves every rating as it was."""
    before = [current.get(seat.account_id, INITIAL) if seat.account_id is not None
              else bot_rating(seat.bot or "", game.pool) for seat in game.seats]
    after = update(before, [seat.rank for seat in game.seats]) if counted else before
    return [LedgerSeat(seat, old, new)
            for seat, old, new in zip(game.seats, before, after, strict=True)]


def replay(games: Iterable[RatedGame], uncounted: Collection[str] = frozenset()
           ) -> tuple[list[list[LedgerSeat]], dict[Pool, dict[int, Rating]]]:
    """The ledger applied again in its order with today's parameters (a recompute): each
    game's seats, and every account's rating in each pool at the end. The games named in
    `uncounted` were over the per-day pair limit when applied: they stay uncounted."""
    current: dict[Pool, dict[int, Rating]] = {pool: {} for pool in Pool}
    applied: list[list[LedgerSeat]] = []
    for game in games:
        in_pool = current[game.pool]
        seats = apply(game, in_pool, counted=game.game_id not in uncounted)
        in_pool.update((seat.seated.account_id, seat.after) for seat in seats
                       if seat.seated.account_id is not None)
        applied.append(seats)
    return applied, current


PAIR_WINDOW: Final = timedelta(days=1)
"""How far back the per-day pair limit counts a pair's games (`rated_games_per_pair_per_day`)."""


SUSPICION_WINDOW: Final = timedelta(days=7)
"""How far back moderators' list of pairs of accounts looks (`PairRecord`)."""


def ledger_time(moment: datetime) -> str:
    """A moment spelt as the ledger keeps finish times ('2026-11-30T01:14:20Z'), so that
    the two compare as text."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def pair_window_start(finished_at: str) -> str:
    """The start of the pair limit's window before a game that finished at `finished_at`."""
    return ledger_time(datetime.fromisoformat(finished_at) - PAIR_WINDOW)


def pairs_of(accounts: Sequence[int]) -> list[tuple[int, int]]:
    """Every two of the accounts, the lower id first."""
    ordered = sorted(set(accounts))
    return [(low, high) for index, low in enumerate(ordered) for high in ordered[index + 1:]]


def accounts_of(seats: Sequence[RatedSeat]) -> list[int]:
    """The accounts among the seats, in id order (the order their ratings are locked in)."""
    return sorted({seat.account_id for seat in seats if seat.account_id is not None})


def bot_ratings(pool: Pool) -> dict[str, Rating]:
    """Every in-server bot's fixed rating in the pool, strongest first."""
    rated = {strategy: bot_rating(strategy, pool) for strategy in BOT_MU}
    return dict(sorted(rated.items(), key=lambda item: -item[1].mu))


# -- what the stores give back to read the ledger ---------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    name: str
    """The account's name, or an in-server bot's strategy."""
    rating: Rating
    bot: bool
    """A bot account or an in-server bot: marked wherever a name is shown."""
    in_server: bool = False


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """An account's rating after one of its rated games."""

    game_id: str
    finished_at: str
    rating: Rating
    record_lost: bool = False
    """The game's record is gone from its node (restored from an older copy): its id
    answers 404, its result stays counted (docs/RATINGS.md, "After a restore")."""


@dataclass(frozen=True, slots=True)
class GameRatings:
    """What the ledger did to one game's players' ratings, as its players are told."""

    game_id: str
    counted: bool
    """False: over the per-day pair limit, or given up too early; nobody's rating changed."""
    seats: tuple[LedgerSeat, ...]
    aborted: bool = False
    """Given up before `rated_min_turns` (`RatedGame.aborted`)."""

    def of_account(self, account_id: int) -> LedgerSeat | None:
        return next((seat for seat in self.seats if seat.seated.account_id == account_id),
                    None)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A game the ledger has: what a reconcile compares with the nodes' games."""

    game_id: str
    finished_at: str
    record_lost: bool = False


@dataclass(frozen=True, slots=True)
class BotRecord:
    """An account's results against one in-server bot: a game counts once per seat the bot
    held, won when the account finished above it."""

    bot: str
    wins: int
    losses: int
    ties: int


@dataclass(frozen=True, slots=True)
class PairRecord:
    """Two accounts' rated games together over a recent window, as moderators see them."""

    name: str
    other: str
    games: int
    """Rated games the two played together, counted or not."""
    wins: int
    """Games `name` finished above `other`."""
    losses: int
    """Games `other` finished above `name`."""
    counted: int
    """Games under the per-day pair limit, which changed ratings."""
    early: int = 0
    """Games one of them gave up before `rated_min_turns` turns of their own (counted in
    `games`, never in `counted`)."""

    @property
    def score(self) -> int:
        """The suspicion score: the net results one gave the other (|wins - losses|).
        Friends who play often trade wins and score low; a pair farming a rating sends
        every result one way, and scores what it farmed."""
        return abs(self.wins - self.losses)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a recompute did to one account's rating in one pool."""

    account_id: int
    name: str
    pool: Pool
    before: Rating | None
    after: Rating | None


def changes(before: Mapping[tuple[int, Pool], Rating], after: Mapping[Pool, Mapping[int, Rating]],
            names: Mapping[int, str]) -> list[RatingChange]:
    """The ratings a recompute changed, by name then pool."""
    now = {(account, pool): rating for pool, rated in after.items()
           for account, rating in rated.items()}
    changed = [RatingChange(account, names.get(account, f"#{account}"), pool,
                            before.get((account, pool)), now.get((account, pool)))
               for account, pool in sorted(before.keys() | now.keys())
               if before.get((account, pool)) != now.get((account, pool))]
    return sorted(changed, key=lambda change: (change.name, change.pool))
