"""Card effects: one small function per card, and which card runs which, per edition.

An effect runs after the card's "+" bonuses (`cards.py`, which is data only). It
returns None, or a generator (a flow) when it must stop for a player's decision. The
three cards whose texts changed between editions have one effect per edition.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from . import attacks, first_edition, second_edition, shared

if TYPE_CHECKING:
    from ..game import Flow, Game, PlayContext
    from ..state import PlayerState

Effect = Callable[["Game", "PlayerState", "PlayContext"], "Flow[None] | None"]

_BOTH: dict[str, Effect] = {
    "cellar": shared.cellar, "chapel": shared.chapel, "workshop": shared.workshop,
    "remodel": shared.remodel, "council_room": shared.council_room, "library": shared.library,
    "bureaucrat": attacks.bureaucrat, "militia": attacks.militia, "witch": attacks.witch,
}
EFFECTS: Mapping[int, Mapping[str, Effect]] = {
    1: _BOTH | {
        "moneylender": first_edition.moneylender, "mine": first_edition.mine,
        "throne_room": first_edition.throne_room, "chancellor": first_edition.chancellor,
        "feast": first_edition.feast, "adventurer": first_edition.adventurer,
        "spy": attacks.spy, "thief": attacks.thief,
    },
    2: _BOTH | {
        "moneylender": second_edition.moneylender, "mine": second_edition.mine,
        "throne_room": second_edition.throne_room, "harbinger": second_edition.harbinger,
        "merchant": second_edition.merchant, "vassal": second_edition.vassal,
        "poacher": second_edition.poacher, "sentry": second_edition.sentry,
        "artisan": second_edition.artisan, "bandit": attacks.bandit,
    },
}
"""Edition -> card id -> its effect; a card not here does only what its "+" bonuses say."""
