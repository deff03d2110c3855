"""Geronimoo's DominionSim base-set bots (github.com/Geronimoo/DominionSim), ported from
`src/main/java/be/aga/dominionSimulator/DomBots.xml` at commit
8e568543701e228e41f5252e55284f7debce7b77.

A DominionSim bot gains with a Workshop by its buy list, among the cards it can gain;
its play order puts villages before the terminals, draw before attacks.
"""

from __future__ import annotations

from .priority import Reference, Seen, rules


def _gold_for_council_rooms(seen: Seen) -> bool:
    return seen.owned("gold") < seen.owned("council_room") - 1 and seen.total_money < 16


WORKSHOP_GARDENS = Reference(
    "workshop_gardens", "DomBots.xml, player 'Workshop/Gardens' (Geronimoo)",
    ("workshop", "gardens"),
    rules(("gardens", lambda seen: seen.owned("workshop") > 8), "workshop", "estate",
          "silver", "copper"),
    actions=("workshop",))

COUNCIL_ROOM_MILITIA = Reference(
    "council_room_militia", "DomBots.xml, player 'Council Room/Militia' (Geronimoo)",
    ("council_room", "militia", "village"),
    rules(("province", lambda seen: seen.coins >= 13),
          ("province", lambda seen: seen.owned("province") >= 1),
          ("duchy", lambda seen: seen.supply("province") <= 4),
          ("estate", lambda seen: seen.supply("province") <= 2),
          ("gold", _gold_for_council_rooms),
          ("council_room", lambda seen: seen.owned("council_room") < 1),
          ("council_room",
           lambda seen: seen.owned("council_room") < seen.owned("village") - 1),
          ("militia", lambda seen: seen.owned("militia") == 0), "village"),
    actions=("village", "council_room", "militia"))
"""Council Room/Militia: `countAvailableMoney` is the turn's coins."""

DOMINIONSIM = (WORKSHOP_GARDENS, COUNCIL_ROOM_MILITIA)
