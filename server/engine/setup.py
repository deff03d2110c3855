"""Validated game set-up: players, edition, Kingdom, and the Supply it makes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from dominion.protocol.errors import ErrorCode

from .cards import EDITIONS, catalogue, kingdom_cards
from .frozen import reduce_frozen

MIN_PLAYERS, MAX_PLAYERS = 2, 6
KINGDOM_SIZE = 10

RECOMMENDED_KINGDOMS: dict[int, dict[str, tuple[str, ...]]] = {
    2: {
        "First Game": ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel",
                       "smithy", "village", "workshop"),
        "Size Distortion": ("artisan", "bandit", "bureaucrat", "chapel", "festival", "gardens",
                            "sentry", "throne_room", "witch", "workshop"),
        "Deck Top": ("artisan", "bureaucrat", "council_room", "festival", "harbinger",
                     "laboratory", "moneylender", "sentry", "vassal", "village"),
        "Sleight of Hand": ("cellar", "council_room", "festival", "gardens", "library",
                            "harbinger", "militia", "poacher", "smithy", "throne_room"),
        "Improvements": ("artisan", "cellar", "market", "merchant", "mine", "moat",
                         "moneylender", "poacher", "remodel", "witch"),
        "Silver & Gold": ("bandit", "bureaucrat", "chapel", "harbinger", "laboratory",
                          "merchant", "mine", "moneylender", "throne_room", "vassal"),
    },
    1: {
        "First Game": ("cellar", "market", "militia", "mine", "moat", "remodel", "smithy",
                       "village", "woodcutter", "workshop"),
        "Big Money": ("adventurer", "bureaucrat", "chancellor", "chapel", "feast",
                      "laboratory", "market", "mine", "moneylender", "throne_room"),
        "Interaction": ("bureaucrat", "chancellor", "council_room", "festival", "library",
                        "militia", "moat", "spy", "thief", "village"),
        "Size Distortion": ("cellar", "chapel", "feast", "gardens", "laboratory", "thief",
                            "village", "witch", "woodcutter", "workshop"),
        "Village Square": ("bureaucrat", "cellar", "festival", "library", "market", "remodel",
                           "smithy", "throne_room", "village", "woodcutter"),
    },
}


FLAG_CODES = {"secret_questions": ErrorCode.BAD_SECRET_QUESTIONS,
              "discard_tops": ErrorCode.BAD_DISCARD_TOPS}
"""A set-up's rule flags (older games lack them) and the code refusing a bad value."""


class InvalidSetup(ValueError):
    """A set-up the rules do not allow; `code` is stable, the message is for people."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def random_kingdom(edition: int, rng: random.Random) -> tuple[str, ...]:
    """Ten Kingdom cards of the edition, drawn with `rng`, in id order."""
    return tuple(sorted(rng.sample(kingdom_cards(edition), KINGDOM_SIZE)))


def set_name(name: str, edition: int) -> str:
    """The recommended set called `name` in any case ("first game" is "First Game").

    :raises InvalidSetup: `unknown_kingdom_set` when the edition has no such set.
    """
    sets = RECOMMENDED_KINGDOMS[edition]
    wanted = " ".join(name.split()).casefold()
    for known in sets:
        if known.casefold() == wanted:
            return known
    raise InvalidSetup(ErrorCode.UNKNOWN_KINGDOM_SET, f"no recommended set {name!r} in edition "
                                              f"{edition}; known: {', '.join(sets)}")


@dataclass(frozen=True, slots=True)
class Setup:
    """A validated set-up. Build one with `Setup.create`."""

    players: tuple[str, ...]
    edition: int
    kingdom: tuple[str, ...]
    secret_questions: bool = True
    """Questions are asked whenever skipping them would tell others about hidden cards
    (docs/ENGINE.md, "Questions that tell nothing"). False only for games stored before
    that rule, which skipped every question whose answer was forced: they replay as
    they were played."""
    discard_tops: bool = True
    """An event that takes a card out of a discard pile says the pile's new top, and
    Harbinger's its position (docs/ENGINE.md, "Events and who sees them"). False only for
    games stored before that, whose events stay as they were (and whose Harbinger took
    the lowest copy of the card picked)."""
    first_player: int | None = None
    """The seat that takes the first turn (a rematch's: the one after the last game's
    first player), or None: drawn with the game's seed."""

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_frozen(self)

    @classmethod
    def create(
        cls,
        players: int | Sequence[str],
        *,
        edition: int = 2,
        kingdom: Sequence[str] | str | None = None,
        rng: random.Random | None = None,
        first_player: object = None,
    ) -> Setup:
        """Validate and build a set-up.

        `players` is a count or the players' names in seat order. `kingdom` is 10 card
        ids, the name of a recommended set of the edition, or None for a random Kingdom
        drawn with `rng` (the caller's generator, so that the draw can be reproduced).
        `first_player` is the seat that starts, or None for one drawn with the seed.
        """
        names = _player_names(players)
        if first_player is not None and (type(first_player) is not int
                                         or not 0 <= first_player < len(names)):
            raise InvalidSetup(ErrorCode.BAD_PLAYER, f"first_player is a seat from 0 to "
                                                     f"{len(names) - 1}, not {first_player!r}")
        if edition not in EDITIONS:
            raise InvalidSetup(ErrorCode.BAD_EDITION, f"edition must be 1 or 2, not {edition!r}")
        if kingdom is None:
            chosen = random_kingdom(edition, rng if rng is not None else random.Random())
        elif isinstance(kingdom, str):
            chosen = RECOMMENDED_KINGDOMS[edition][set_name(kingdom, edition)]
        else:
            chosen = _check_kingdom(list(kingdom), edition)
        return cls(players=names, edition=edition, kingdom=chosen,
                   first_player=first_player if isinstance(first_player, int) else None)

    def with_kingdom(self, kingdom: tuple[str, ...]) -> Setup:
        """This set-up with another valid Kingdom: `replace(self, kingdom=kingdom)`
        without its Python-level cost (`dominion-sim` makes one per game)."""
        return Setup(self.players, self.edition, kingdom, self.secret_questions,
                     self.discard_tops, self.first_player)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": list(self.players), "edition": self.edition,
                                "kingdom": list(self.kingdom)}
        if self.secret_questions:  # older games lack the key: their events stay as they were
            data["secret_questions"] = True
        if self.discard_tops:
            data["discard_tops"] = True
        if self.first_player is not None:  # chosen: drawn with the seed otherwise
            data["first_player"] = self.first_player
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        setup = cls.create(data["players"], edition=data["edition"], kingdom=data["kingdom"],
                           first_player=data.get("first_player"))
        # Older games lack these keys: they replay with the rules they were played by.
        flags = {name: data.get(name, False) for name in FLAG_CODES}
        for name, value in flags.items():
            if type(value) is not bool:
                raise InvalidSetup(FLAG_CODES[name], f"{name} is true or false, not {value!r}")
        return replace(setup, **flags)

    def supply(self) -> dict[str, int]:
        """The starting Supply counts, before the starting decks take their Coppers."""
        n = len(self.players)
        big = n >= 5
        victory = 8 if n == 2 else 12
        piles = {
            "copper": (120 if big else 60) - 7 * n,
            "silver": 80 if big else 40,
            "gold": 60 if big else 30,
            "estate": victory,
            "duchy": victory,
            "province": {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}[n],
            "curse": 10 * (n - 1),
        }
        cards = catalogue(self.edition)
        for card in self.kingdom:
            piles[card] = victory if cards[card].is_victory else 10
        return piles


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int | list | tuple):
        raise InvalidSetup(ErrorCode.BAD_PLAYERS, "players is a count or a list of names")
    if isinstance(players, int):
        names = tuple(f"Player {i + 1}" for i in range(max(players, 0)))
    else:
        if not all(isinstance(name, str) and name for name in players):
            raise InvalidSetup(ErrorCode.BAD_PLAYERS, "player names are non-empty strings")
        names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidSetup(
            ErrorCode.BAD_PLAYER_COUNT, f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}"
        )
    return names


def _check_kingdom(kingdom: Sequence[object], edition: int) -> tuple[str, ...]:
    # `object`, not `str`: compiled by mypyc, a `str` element that is not one raises
    # TypeError before the check below can refuse it
    if len(kingdom) != KINGDOM_SIZE:
        raise InvalidSetup(
            ErrorCode.BAD_KINGDOM_SIZE, f"a Kingdom has {KINGDOM_SIZE} cards, not {len(kingdom)}"
        )
    allowed = set(kingdom_cards(edition))
    every_edition = set(kingdom_cards(1)) | set(kingdom_cards(2))
    seen: list[str] = []
    for card in kingdom:
        if not isinstance(card, str) or card not in every_edition:
            raise InvalidSetup(ErrorCode.UNKNOWN_CARD, f"no Kingdom card {card!r}")
        if card not in allowed:
            raise InvalidSetup(
                ErrorCode.CARD_NOT_IN_EDITION,
                f"{card!r} is not a Kingdom card of edition {edition}"
            )
        if card in seen:
            raise InvalidSetup(ErrorCode.DUPLICATE_CARD, f"{card!r} is in the Kingdom twice")
        seen.append(card)
    return tuple(seen)
