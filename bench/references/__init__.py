"""The public simulators' reference strategies, ported as strategies over the project's
bot interface (bots/strategies.py), for bench/strength.py to play the strong bot against.

Each reference is a priority list, as its simulator writes it: the first card of its
gain list whose condition holds and that is offered is bought (or gained, for a Workshop),
the first Action of its play list that is in hand is played, and Chapel trashes by its
trash list. The rest of the game's questions (a Militia's discard, Library's set-aside)
get the project's sensible answers, as the simulators' defaults do. Every port names its
source file and commit (dominiate.py, dominionsim.py).
"""

from __future__ import annotations

from .dominiate import DOMINIATE
from .dominionsim import DOMINIONSIM
from .priority import Reference

REFERENCES: dict[str, Reference] = {ref.name: ref for ref in (*DOMINIATE, *DOMINIONSIM)}
"""Every ported reference by name."""

__all__ = ["REFERENCES", "Reference"]
