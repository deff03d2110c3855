"""The kinds of judgement a card's entry makes (cards.py): what an Action does to the
turn's actions, and when the bot trashes a card."""

from __future__ import annotations

from enum import Enum, IntEnum


class Role(IntEnum):
    """What an Action does to the turn's actions; the Action phase plays the roles in
    this order (more actions first: they cost none; the one that draws before the one
    that pays)."""

    MORE_ACTIONS = 1
    """Gives more actions than it uses (Village, Festival)."""
    THRONE = 2
    """Plays another Action (Throne Room)."""
    CANTRIP = 3
    """Gives back the action it used (Laboratory, Market...)."""
    TERMINAL = 4
    """Uses up the action (Smithy, Witch...): a second one in hand is worth little."""


class Thinning(Enum):
    """When the bot trashes a card, given a way to (Chapel, Remodel, Sentry)."""

    NEVER = "never"
    ALWAYS = "always"
    """A card that only hurts (Curse)."""
    EARLY = "early"
    """While the end is far (Estate: its point counts only at the end)."""
    SPARE = "spare"
    """When the deck's money can spare it (Copper); Remodel does not take it."""
    LATE = "late"
    """Remodelled into a Province near the end (Gold), never trashed otherwise."""
