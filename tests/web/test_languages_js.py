"""The web page's four languages under Node (clients/web/js/i18n.js and every module with
words): no word, counted noun, prompt, log phrase, report word or card name missing in any
language; counted nouns with exactly their language's CLDR plural categories (none missing,
none given that is never used); Slovak and Lithuanian counts; the browser's language chosen
first."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

WEB_JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "js"
WORD_MODULES = tuple(sorted(
    path.stem for path in WEB_JS.glob("*.js")
    if re.search(r"^export const [A-Z_]+_(WORDS|COUNTED) =", path.read_text(), re.M)))
"""The modules that add words (`addWords`) besides i18n.js itself: every one exporting a
table of them, so that a new module's words are checked in every language too."""

SCRIPT = """
import { I18n, LANGUAGES, LANGUAGE_NAMES, addWords, allWords, miscounted, untranslated }
  from "%(i18n)s";
import { PHRASES, VERBS, describe } from "%(describe)s";
import { WORDS as REPORT_WORDS } from "%(report)s";
""" + "".join(f'import * as {name} from "%({name})s";\n' for name in WORD_MODULES) + """
const modules = [""" + ", ".join(WORD_MODULES) + """];
for (const module of modules) {  // the page's main.js adds some modules' words itself
  const words = Object.entries(module).filter(([name]) => name.endsWith("_WORDS"));
  const counted = Object.entries(module).filter(([name]) => name.endsWith("_COUNTED"));
  for (const [, table] of words) addWords(table);
  for (const [, table] of counted) addWords({}, table);
}
const catalogue = JSON.parse(process.argv[1]);
const all = allWords();
const keysOf = (perLanguage) => LANGUAGES.map((lang) => perLanguage[lang]
  ? Object.keys(perLanguage[lang]).sort().join() : null);
const out = {
  languages: LANGUAGES,
  names: LANGUAGES.map((lang) => LANGUAGE_NAMES[lang]),
  untranslated: untranslated(),
  miscounted: miscounted(),
  kingdoms: Object.entries(all.kingdoms).filter(([, names]) => names.length !== 3)
    .map(([key]) => key),
  prompts: ["pl", "sk", "lt"].map((lang) => Object.keys(all.prompts[lang] ?? {}).sort().join()),
  verbs: keysOf(VERBS),
  phrases: keysOf(PHRASES),
  report: keysOf(REPORT_WORDS),
  chosen: [["sk-SK", "en"], ["lt"], ["de-DE", "lt-LT"], ["pl"], ["fr"]]
    .map((wanted) => new I18n(null, wanted).lang),
};
for (const lang of LANGUAGES) {
  const i18n = new I18n(null, [lang]);
  i18n.setCatalogue({ editions: catalogue }, 2);
  const first = new I18n(null, [lang]);
  first.setCatalogue({ editions: catalogue }, 1);
  out[lang] = {
    cards: [0, 1, 2, 4, 5, 10, 11, 21, 22, 1.5].map((n) => i18n.count(n, "cards")),
    taken: [1, 2, 5].map((n) => i18n.count(n, "cards_taken")),
    names: ["copper", "silver", "gold", "estate", "duchy", "province", "curse"]
      .map((id) => i18n.card(id)),
    // every card's name and text in this language, not English's
    untranslatedCards: [i18n, first].flatMap((each) => [...each.cards.values()]
      .filter((card) => lang !== "en" && (each.card(card.id) === card.name
        || each.cardText(card.id) === card.text))
      .map((card) => card.id)),
    militia: i18n.prompt({ kind: "discard", source: "militia", prompt: "Discard down to 3.",
      min: 2, max: 2,
      options: [0, 1, 2, 3, 4].map((id) => ({ id, kind: "card", card: "copper" })) }),
    discarded: [1, 5].map((count) => describe({ kind: "discarded", player: 0, count },
      ["Ann"], i18n).text),
    kingdom: i18n.kingdomName("First Game"),
    seat: i18n.seatName("Bot 2 (strong:2)"),
  };
}
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(
        SCRIPT, json.dumps(catalogue_dict()),
        modules=("i18n", "describe", "report", *WORD_MODULES))
    return result


@needs_node
def test_every_word_is_in_every_language() -> None:
    words = run()
    assert words["languages"] == ["en", "pl", "sk", "lt"]
    assert words["names"] == ["English", "Polski", "Slovenčina", "Lietuvių"]
    assert words["untranslated"] == []
    assert words["kingdoms"] == []  # the bots' words are the page's (bot_words.js)
    assert len(set(words["prompts"])) == 1 and words["prompts"][0]
    for table in ("verbs", "phrases", "report"):
        assert None not in words[table] and len(set(words[table])) == 1, table


@needs_node
def test_counted_nouns_have_exactly_their_languages_plural_categories() -> None:
    assert run()["miscounted"] == []


@needs_node
def test_slovak_and_lithuanian_counts_take_their_forms() -> None:
    words = run()
    assert words["sk"]["cards"] == ["0 kariet", "1 karta", "2 karty", "4 karty", "5 kariet",
                                    "10 kariet", "11 kariet", "21 kariet", "22 kariet",
                                    "1.5 karty"]
    assert words["lt"]["cards"] == ["0 kortų", "1 korta", "2 kortos", "4 kortos", "5 kortos",
                                    "10 kortų", "11 kortų", "21 korta", "22 kortos",
                                    "1.5 kortos"]
    assert words["sk"]["taken"] == ["1 kartu", "2 karty", "5 kariet"]
    assert words["lt"]["taken"] == ["1 kortą", "2 kortas", "5 kortas"]
    # a count the verb takes as its object is in the accusative
    assert words["sk"]["discarded"] == ["Ann odhadzuje 1 kartu.", "Ann odhadzuje 5 kariet."]
    assert words["lt"]["discarded"] == ["Ann išmeta 1 kortą.", "Ann išmeta 5 kortas."]
    assert words["pl"]["discarded"] == ["Ann odrzuca 1 kartę.", "Ann odrzuca 5 kart."]
    assert words["sk"]["militia"] == "Odhoď z ruky 2 karty; v ruke zostane: 3."
    assert words["lt"]["militia"] == "Išmesk iš rankos 2 kortas; rankoje liks: 3."


@needs_node
def test_cards_are_named_as_each_languages_rules_name_them() -> None:
    words = run()
    assert words["sk"]["names"] == ["Meď", "Striebro", "Zlato", "Panstvo", "Vojvodstvo",
                                    "Provincia", "Prekliatie"]
    assert words["lt"]["names"] == ["Varis", "Sidabras", "Auksas", "Dvaras", "Kunigaikštystė",
                                    "Provincija", "Prakeiksmas"]
    for lang in ("pl", "sk", "lt"):
        assert words[lang]["untranslatedCards"] == [], lang
    assert [words[lang]["kingdom"] for lang in ("en", "pl", "sk", "lt")] == [
        "First Game", "Pierwsza rozgrywka", "Prvá hra", "Pirmasis žaidimas"]
    assert words["sk"]["seat"] == "Silný bot"
    assert words["lt"]["seat"] == "Stiprus botas"


@needs_node
def test_the_browsers_language_is_chosen_first() -> None:
    assert run()["chosen"] == ["sk", "lt", "lt", "pl", "en"]
