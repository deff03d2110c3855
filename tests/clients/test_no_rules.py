"""The clients keep no rules: the server sends the state it computes (the update's and
the snapshot's `view`), so no client module names a card's effect or cost. Checked over
every Python module of clients/ and every script of the web page: no literal that maps
card ids to numbers, and no card id at all outside a short list of files that name cards
for another reason than their rules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from dominion.server.engine.cards import catalogue

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
CARD_IDS = frozenset(catalogue(1)) | frozenset(catalogue(2))
ORDINARY_WORDS = frozenset({"curse", "mine"})
"""Card ids that are also words the clients use otherwise: the card type Curse, a style
for "your own" (`mine`)."""
NAMING_CARDS = {
    "examples/minimal_bot.py": "its wish list: Province, Gold or Silver when offered",
    "words.py": "the words of a question (a translation of the prompt)",
    "web/js/pictograms.js": "each card's picture: how a card looks (tools/pictograms.py)",
}
"""Files that may name cards, and why: none of them says what a card does or costs. (The
bots' strategies, `bots/`, name cards and value them: a strategy's own preferences, not
the rules; the server plays them too.)"""


def python_modules() -> list[Path]:
    return sorted(CLIENTS.rglob("*.py"))


def scripts() -> list[Path]:
    return sorted((CLIENTS / "web" / "js").glob("*.js"))


def named(path: Path) -> str:
    return path.relative_to(CLIENTS).as_posix()


def card_strings(tree: ast.AST) -> list[str]:
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and node.value in CARD_IDS - ORDINARY_WORDS]


def maps_cards_to_numbers(tree: ast.AST) -> bool:
    """A dict literal (or `dict(...)` call) with a card id key and a number (or numbers)
    as its value."""
    def number(value: ast.expr) -> bool:
        if isinstance(value, ast.Tuple | ast.List):
            return bool(value.elts) and all(number(item) for item in value.elts)
        return isinstance(value, ast.Constant) and type(value.value) in (int, float)

    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            pairs = zip(node.keys, node.values, strict=True)
            if any(isinstance(key, ast.Constant) and key.value in CARD_IDS and number(value)
                   for key, value in pairs):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "dict" and any(
                    keyword.arg in CARD_IDS and number(keyword.value)
                    for keyword in node.keywords):
            return True
    return False


JS_STRING = re.compile(r"""["'`]([a-z_]+)["'`]""")
JS_CARD_KEY = re.compile(r"""(?:^|[{,\s])["']?([a-z_]+)["']?\s*:\s*\[?\s*-?\d""")
"""`copper: 1`, `"silver": 2`, `market: [1, 1]` in an object literal."""


def test_no_python_module_of_the_clients_names_a_cards_effect_or_cost() -> None:
    named_cards, maps = {}, []
    for path in python_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if named(path) not in NAMING_CARDS and card_strings(tree):
            named_cards[named(path)] = sorted(set(card_strings(tree)))
        if maps_cards_to_numbers(tree):
            maps.append(named(path))
    assert named_cards == {}, "card ids outside the allowed files"
    assert maps == [], "card ids mapped to numbers (costs, coins, +Actions)"


def test_no_script_of_the_web_page_names_a_cards_effect_or_cost() -> None:
    named_cards, maps = {}, {}
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        cards = set(JS_STRING.findall(text)) & (CARD_IDS - ORDINARY_WORDS)
        if cards and named(path) not in NAMING_CARDS:
            named_cards[named(path)] = sorted(cards)
        keyed = {word for word in JS_CARD_KEY.findall(text) if word in CARD_IDS}
        if keyed:
            maps[named(path)] = sorted(keyed)
    assert named_cards == {}, "card ids in the page's scripts"
    assert maps == {}, "card ids mapped to numbers in the page's scripts"


def test_the_checks_find_what_the_clients_used_to_hold() -> None:
    """The checks are not blind: the tables and special cases the clients held before
    the views (clients/state.py, clients/web/js/state.js) would fail them."""
    old_python = ast.parse('TREASURE_COINS = {"copper": 1, "silver": 2, "gold": 3}\n'
                           'ACTION_EXTRAS = {"market": (1, 1)}\n'
                           'COSTS = dict(smithy=4)\n'
                           'if card == "merchant": pass\n')
    assert maps_cards_to_numbers(old_python)
    assert {"silver", "merchant"} <= set(card_strings(old_python))
    old_js = ('export const ACTION_EXTRAS = {\n  cellar: [1, 0], village: [2, 0],\n};\n'
              'if (event.source === "moneylender") coins += 3;\n')
    assert set(JS_CARD_KEY.findall(old_js)) >= {"cellar", "village"}
    assert "moneylender" in JS_STRING.findall(old_js)
