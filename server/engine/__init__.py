"""The Dominion rules engine: pure, deterministic and driven by decisions.

A game is its set-up, its seed and the ordered list of answers. The engine never
calls a player: it stops at one pending `Decision` and waits for `Game.answer`.
Everything that leaves the engine goes through `view` and `visible_event`.
"""

from __future__ import annotations

from dominion.protocol.loader import choose, is_compiled

ENGINE = choose()
"""Which engine runs: compiled by mypyc, or the pure-Python sources (and why)."""

from . import game as _game
from .cards import Card, CardType, catalogue, catalogue_dict
from .decisions import (
    Answer,
    Decision,
    DecisionKind,
    IllegalAnswer,
    Option,
    OptionKind,
    Resignation,
    ResignReason,
)
from .events import Event, EventKind, Secrecy
from .game import Game, Phase
from .replay import replay
from .scoring import Result
from .setup import RECOMMENDED_KINGDOMS, InvalidSetup, Setup
from .view import decision_view, event_record, fan_out, view, visible_event

COMPILED = is_compiled(_game)
"""True when the engine's modules run compiled."""

__all__ = [
    "COMPILED",
    "ENGINE",
    "RECOMMENDED_KINGDOMS",
    "Answer",
    "Card",
    "CardType",
    "Decision",
    "DecisionKind",
    "Event",
    "EventKind",
    "Game",
    "IllegalAnswer",
    "InvalidSetup",
    "Option",
    "OptionKind",
    "Phase",
    "ResignReason",
    "Resignation",
    "Result",
    "Secrecy",
    "Setup",
    "catalogue",
    "catalogue_dict",
    "decision_view",
    "event_record",
    "fan_out",
    "replay",
    "view",
    "visible_event",
]
