"""Vendor the web client's card pictograms: from the npm package `@iconify-json/game-icons`
(game-icons.net's icons, CC BY 3.0), the SVG path of each icon a card is drawn with, and
nothing else, into clients/web/js/pictograms.js.

    python tools/pictograms.py                      # fetches the package with `npm pack`
    python tools/pictograms.py path/to/icons.json   # or reads an unpacked one

A developer's step after choosing another icon for a card (`CARD_ICONS` below); the module
it writes is committed. Every card of both editions needs an entry (the engine's catalogue
is the list), and the credits (docs/CREDITS.md, the guide) name the set and its licence.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "clients" / "web" / "js" / "pictograms.js"
PACKAGE = "@iconify-json/game-icons"

CARD_ICONS: dict[str, str] = {
    # Treasures: coins and gold
    "copper": "two-coins", "silver": "coins", "gold": "gold-bar",
    # Victory cards: buildings, larger as they are worth more; Curse a cursed star
    "estate": "house", "duchy": "tower-flag", "province": "castle", "gardens": "flowers",
    "curse": "cursed-star",
    # Kingdom cards: what each card's name shows
    "adventurer": "treasure-map", "artisan": "hammer-nails", "bandit": "robber",
    "bureaucrat": "stamper", "cellar": "barrel", "chancellor": "quill-ink",
    "chapel": "church", "council_room": "round-table", "feast": "roast-chicken",
    "festival": "party-flags", "harbinger": "crow-dive", "laboratory": "fizzing-flask",
    "library": "bookshelf", "market": "shop", "merchant": "swap-bag", "militia": "spears",
    "mine": "gold-mine", "moat": "drawbridge", "moneylender": "money-stack",
    "poacher": "bow-arrow", "remodel": "hand-saw", "sentry": "guards", "smithy": "anvil",
    "spy": "spyglass", "thief": "robber-hand", "throne_room": "throne-king",
    "vassal": "knight-banner", "village": "village", "witch": "pointy-hat",
    "woodcutter": "wood-axe", "workshop": "toolbox",
}
"""The game-icons.net icon each card shows (its name in the icon set)."""

PATH = re.compile(r'<path fill="currentColor" d="([^"]+)"/>')


def fetch_icons(folder: Path) -> Path:
    """The package's icons.json, fetched with npm into `folder`."""
    subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=folder, check=True,
                   capture_output=True)
    with tarfile.open(next(folder.glob("*.tgz"))) as archive:
        archive.extract("package/icons.json", folder, filter="data")
    return folder / "package" / "icons.json"


def icon_paths(icons_json: Path) -> dict[str, str]:
    """The SVG path of each icon `CARD_ICONS` names (each a single path on 512×512)."""
    icon_set = json.loads(icons_json.read_text())
    assert (icon_set["width"], icon_set["height"]) == (512, 512), "another view box"
    paths = {}
    for icon in sorted(set(CARD_ICONS.values())):
        found = PATH.fullmatch(icon_set["icons"][icon]["body"])
        if found is None:
            raise SystemExit(f"{icon}: not a single path; choose another icon")
        paths[icon] = found.group(1)
    return paths


def module_text(paths: dict[str, str]) -> str:
    cards = ",\n".join(f'  {card}: "{icon}"' for card, icon in sorted(CARD_ICONS.items()))
    icons = ",\n".join(f'  "{icon}": "{d}"' for icon, d in paths.items())
    return (
        "// Written by tools/pictograms.py: do not edit. Each card's pictogram, from\n"
        "// game-icons.net (https://game-icons.net, by Lorc, Delapouite and contributors),\n"
        "// licensed under CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/), as\n"
        f"// packaged in the npm package {PACKAGE}: only the icons the cards use.\n\n"
        "/** The view box every path is drawn in. */\n"
        'export const VIEW_BOX = "0 0 512 512";\n\n'
        "/** The icon (its game-icons.net name) each card is drawn with. */\n"
        f"export const CARD_ICONS = {{\n{cards},\n}};\n\n"
        "/** Each icon's SVG path. */\n"
        f"export const ICON_PATHS = {{\n{icons},\n}};\n"
    )


def main(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        icons_json = Path(argv[0]) if argv else fetch_icons(Path(folder))
        TARGET.write_text(module_text(icon_paths(icons_json)))
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
