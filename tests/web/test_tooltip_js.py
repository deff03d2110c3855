"""Where a card's text goes (clients/web/js/tooltip.js, `tipPlace`), under Node: above
its card and centred on it, kept inside the window at its edges, and below the card when
there is no room above."""

from __future__ import annotations

import pytest

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

SCRIPT = """
import { tipPlace } from "%(tooltip)s";

const card = (left, top) => ({ left, top, width: 90, height: 70, right: left + 90,
  bottom: top + 70 });
const tip = { width: 140, height: 60 };
console.log(JSON.stringify([
  tipPlace(card(500, 400), tip, 1280, 800), // room everywhere: above, centred
  tipPlace(card(4, 400), tip, 390, 844), // the window's left edge
  tipPlace(card(340, 400), tip, 390, 844), // its right edge
  tipPlace(card(500, 20), tip, 1280, 800), // no room above: below
  tipPlace(card(500, 30), { width: 140, height: 500 }, 1280, 560), // neither: more room
]));
"""


@needs_node
def test_a_cards_text_goes_beside_it_inside_the_window() -> None:
    centred, left_edge, right_edge, below, roomier = run_module(SCRIPT, modules=("tooltip",))
    assert centred == {"left": 475, "top": 336}  # 400 - 4 - 60; 545 - 70
    assert left_edge == {"left": 8, "top": 336}
    assert right_edge == {"left": 390 - 8 - 140, "top": 336}
    assert below == {"left": 475, "top": 20 + 70 + 4}
    assert roomier == {"left": 475, "top": 30 + 70 + 4}  # 30 px above, 460 below
