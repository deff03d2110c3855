"""Decisions as data: the one question the engine is waiting on, and its answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, Final, NamedTuple, cast

from dominion.protocol.buy_menu import BuyMenu
from dominion.protocol.errors import ErrorCode

from .frozen import reduce_frozen


class DecisionKind(StrEnum):
    PLAY_ACTION = "play_action"
    """Action phase: play an Action card from hand, or end the phase."""
    BUY = "buy"
    """Buy phase: play Treasures (before the first buy), buy a card, or end the turn."""
    DISCARD = "discard"
    TRASH = "trash"
    GAIN = "gain"
    TOPDECK = "topdeck"
    """Put a card onto your deck."""
    PLAY = "play"
    """Pick a card to play (Throne Room) or whether to play it (Vassal)."""
    REACT = "react"
    """Reveal a Reaction (Moat) to an Attack."""
    YES_NO = "yes_no"
    SET_ASIDE = "set_aside"
    CHOOSE_FATE = "choose_fate"
    """Say what happens to one card: trash, discard, or put back (Sentry, Spy)."""
    ORDER = "order"
    """Put cards back onto the deck in an order: the first option chosen ends on top."""


class OptionKind(StrEnum):
    CARD = "card"
    """Choose this card (from the zone the decision is about)."""
    PLAY = "play"
    PLAY_ALL_TREASURES = "play_all_treasures"
    BUY = "buy"
    END_PHASE = "end_phase"
    YES = "yes"
    NO = "no"
    TRASH = "trash"
    DISCARD = "discard"
    KEEP = "keep"


@dataclass(frozen=True, slots=True)
class Option:
    kind: OptionKind
    card: str | None = None

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_frozen(self)


class Decision:
    """One pending question. Options are answered by their index (the option id).

    `min`/`max` bound how many distinct options the answer names. When `ordered`
    is true the order of the answer matters (see `DecisionKind.ORDER`).

    A `forced` decision has one possible answer: every option, in order (`min` and
    `max` are the number of options, which may be 0). It is asked only because
    skipping it would tell the other players something about hidden cards; only the
    decider learns that it is forced (docs/ENGINE.md, "Questions that tell nothing").

    A plain class, as `Event` is (compiled, a native call builds it); treat it as
    immutable. Two decisions are equal when all their fields are (`menu` aside: the
    options say all it does).
    """

    __slots__ = ("forced", "id", "kind", "max", "menu", "min", "options", "ordered", "player",
                 "prompt", "source")

    def __init__(self, id: int, player: int, kind: DecisionKind, prompt: str,
                 source: str | None, options: tuple[Option, ...], min: int = 1,
                 max: int = 1, ordered: bool = False, forced: bool = False,
                 menu: BuyMenu | None = None) -> None:
        self.id = id
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.source = source
        self.options = options
        self.min = min
        self.max = max
        self.ordered = ordered
        self.forced = forced
        self.menu = menu
        """A Buy decision's options as a menu (the engine's, ready-made); None for others."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.id == other.id and self.player == other.player
                and self.kind == other.kind and self.prompt == other.prompt
                and self.source == other.source and self.options == other.options
                and self.min == other.min and self.max == other.max
                and self.ordered == other.ordered and self.forced == other.forced)

    def __hash__(self) -> int:
        return hash((self.id, self.player, self.kind, self.prompt, self.source, self.options,
                     self.min, self.max, self.ordered, self.forced))

    def __repr__(self) -> str:
        return (f"Decision(id={self.id!r}, player={self.player!r}, kind={self.kind!r}, "
                f"prompt={self.prompt!r}, source={self.source!r}, options={self.options!r}, "
                f"min={self.min!r}, max={self.max!r}, ordered={self.ordered!r}, "
                f"forced={self.forced!r})")

    def check(self, choices: object) -> tuple[int, ...]:
        """The answer as a tuple of option ids, or `IllegalAnswer` saying what is wrong."""
        return check_choices(self, choices)


def check_choices(decision: Decision, choices: object) -> tuple[int, ...]:
    """`decision.check(choices)`: a function, so that compiled code calls it directly (a
    NamedTuple's methods are called through Python)."""
    # The common case, checked in full. A tuple is what a first check returned: the
    # server checks an answer before storing it, and the engine checks it again.
    if ((type(choices) is list or type(choices) is tuple) and len(choices) == 1
            and type(choices[0]) is int and 0 <= choices[0] < len(decision.options)
            and decision.min <= 1 <= decision.max):
        return (choices[0],)
    if not isinstance(choices, list | tuple):
        raise IllegalAnswer(ErrorCode.BAD_ANSWER, "an answer is a list of option ids")
    count = len(decision.options)
    for choice in choices:
        if type(choice) is not int:
            raise IllegalAnswer(ErrorCode.BAD_OPTION,
                                f"option ids are integers, not {choice!r}")
        if not 0 <= choice < count:
            raise IllegalAnswer(ErrorCode.BAD_OPTION,
                                f"no option {choice}: ids run 0 to {count - 1}")
    picked = tuple(choices)
    if len(set(picked)) != len(picked):
        raise IllegalAnswer(ErrorCode.DUPLICATE_OPTION, "an option may be chosen once")
    if len(picked) < decision.min:
        raise IllegalAnswer(ErrorCode.TOO_FEW_OPTIONS, f"choose at least {decision.min}")
    if len(picked) > decision.max:
        raise IllegalAnswer(ErrorCode.TOO_MANY_OPTIONS, f"choose at most {decision.max}")
    return picked


class Answer(NamedTuple):
    """An accepted answer, as the game log records it."""

    player: int
    decision: int
    choices: tuple[int, ...]


new_answer: Final = cast(Callable[[tuple[int, int, tuple[int, ...]]], Answer],
                  partial(tuple.__new__, Answer))
"""An Answer from its three fields as one tuple: `Answer(*fields)` without its Python-level
constructor, which runs as bytecode even in the compiled engine (one per answer)."""


class ResignReason(StrEnum):
    """Why a player resigned, when it was not their own choice (the log records it, so
    that a replay tells the same events)."""

    TIMED_OUT = "timed_out"
    """Their clock ran out: the server resigned for them."""


class Resignation(NamedTuple):
    """A player gave up, as the game log records it; `reason` None: by their own choice
    (every resignation of a log from before clocks)."""

    player: int
    reason: ResignReason | None = None


class IllegalAnswer(Exception):
    """An answer that is not legal for the pending decision; the game is unchanged.

    `code` is stable (clients may switch on it); `message` is for people.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
