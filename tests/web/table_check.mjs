// The table's pure parts under Node (test_table_js.py): a card's colours from its types,
// which card or button answers each option of a decision (the hand, the Supply, the bar),
// the shortcut keys, and a card face's accessible text. Prints one JSON line: the
// mismatches (none when all is well) and how many were checked.
import { cardColours, cardFace, cardTexts, colourClasses } from "../../clients/web/js/card.js";
import { barOptions, handOptions, supplyOption } from "../../clients/web/js/decision.js";
import { I18n } from "../../clients/web/js/i18n.js";
import { Key, digitKeys, isShortcut, pileKeys } from "../../clients/web/js/shortcuts.js";
import { textOf } from "./vnodes.mjs";

const catalogue = JSON.parse(process.argv[2]);
const problems = [];
let checked = 0;
function expect(what, got, want) {
  checked += 1;
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push({ what, got, want });
}

// colours as players know them; two colour types split the card
expect("treasure", cardColours(["treasure"]), { faces: ["treasure"], accent: null });
expect("victory", cardColours(["victory"]), { faces: ["victory"], accent: null });
expect("curse", cardColours(["curse"]), { faces: ["curse"], accent: null });
expect("action", cardColours(["action"]), { faces: ["action"], accent: null });
expect("attack: an Action with a red accent", cardColours(["action", "attack"]),
  { faces: ["action"], accent: "attack" });
expect("reaction: blue all over", cardColours(["action", "reaction"]),
  { faces: ["reaction"], accent: null });
expect("victory and action: split", cardColours(["action", "victory"]),
  { faces: ["victory", "action"], accent: null });
expect("treasure and victory: split", colourClasses(["treasure", "victory"]),
  "face-treasure face2-victory");
expect("classes of an Attack", colourClasses(["action", "attack"]), "face-action accent-attack");

// which card answers which option
const option = (id, kind, card = null) => ({ id, kind, card });
const buy = { kind: "buy", min: 1, max: 1, options: [option(0, "play", "copper"),
  option(1, "play_all_treasures"), option(2, "buy", "silver"), option(3, "end_phase")] };
const hand = ["copper", "copper", "estate"];
expect("every Copper plays the Copper option", handOptions(hand, buy).map((o) => o?.id ?? null),
  [0, 0, null]);
expect("a pile to buy", supplyOption(buy, "silver")?.id, 2);
expect("a pile not offered", supplyOption(buy, "gold"), null);
expect("the bar keeps the turn's two buttons", barOptions(buy, hand).map((o) => o.kind),
  ["play_all_treasures", "end_phase"]);
const militia = { kind: "discard", min: 2, max: 2, options: [option(0, "card", "estate"),
  option(1, "card", "copper"), option(2, "card", "copper")] };
expect("each card to discard is one card of the hand",
  handOptions(hand, militia).map((o) => o?.id ?? null), [1, 2, 0]);
expect("and the bar has no list of them", barOptions(militia, hand), []);
const harbinger = { kind: "topdeck", min: 0, max: 1, options: [option(0, "card", "gold")] };
expect("cards not in the hand stay in the bar", handOptions(hand, harbinger), [null, null, null]);
expect("as buttons", barOptions(harbinger, hand).map((o) => o.card), ["gold"]);
const sentry = { kind: "trash", min: 0, max: 2, options: [option(0, "card", "copper")] };
expect("cards looked at are not the hand's", handOptions(hand, sentry, ["copper", "estate"]),
  [null, null, null]);
const gain = { kind: "gain", min: 1, max: 1, options: [option(0, "card", "copper"),
  option(1, "card", "silver")] };
expect("a gain is the Supply's", [handOptions(hand, gain), supplyOption(gain, "silver")?.id,
  barOptions(gain, hand)], [[null, null, null], 1, []]);
const fate = { kind: "choose_fate", min: 1, max: 1, options: [option(0, "trash", "gold"),
  option(1, "discard", "gold"), option(2, "keep", "gold")] };
expect("a card's fate: three buttons", barOptions(fate, hand).map((o) => o.kind),
  ["trash", "discard", "keep"]);
expect("no decision, nothing offered", [handOptions(hand, null), barOptions(null, hand)],
  [[null, null, null], []]);

// shortcut keys: a letter per pile, never one the page's own keys take; digits
const piles = Object.keys({ copper: 1, silver: 1, gold: 1, estate: 1, duchy: 1, province: 1,
  curse: 1, a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1, j: 1 });
const letters = [...pileKeys(piles).values()];
expect("a letter for each of 17 piles", letters.length, 17);
expect("all different", new Set(letters).size, 17);
expect("none of the page's own", letters.filter((k) => Object.values(Key).includes(k)), []);
expect("digits from 1, the tenth 0", digitKeys(3, 8), ["9", "0", undefined]);
const press = (tag, more = {}) => ({ target: { tagName: tag }, ...more });
expect("a key on the page is a shortcut", isShortcut(press("BUTTON")), true);
expect("never while typing", [isShortcut(press("INPUT")), isShortcut(press("TEXTAREA")),
  isShortcut(press("SELECT")), isShortcut({ target: { tagName: "DIV", isContentEditable: true } })],
[false, false, false, false]);
expect("never with Ctrl or Alt", [isShortcut(press("BODY", { ctrlKey: true })),
  isShortcut(press("BODY", { altKey: true }))], [false, false]);

// a card face: described by its card's text (one per card, hidden), in both languages
for (const [lang, types, text] of [["en", "Action – Attack", "Each other player discards"],
  ["pl", "Akcja – Atak", "odrzuca"]]) {
  const i18n = new I18n(null, [lang]);
  i18n.setCatalogue({ editions: catalogue }, 2);
  const button = cardFace("militia", i18n, { id: "supply-militia", count: 9, onclick: {} });
  const texts = cardTexts(["copper", "militia"], i18n);
  const tip = texts.children[1];
  expect(`${lang}: the card's text describes the card`, [button.tag, button.props["aria-describedby"]],
    ["button", tip.props.id]);
  expect(`${lang}: the texts are hidden, one per card`, [texts.props.hidden, texts.children.length],
    [true, 2]);
  expect(`${lang}: the text's types`, textOf(tip).includes(types), true);
  expect(`${lang}: the text's words`, textOf(tip).includes(text), true);
  expect(`${lang}: not offered, shown so`, [button.props["aria-disabled"], button.props.class.includes("idle")],
    ["true", true]);
  expect(`${lang}: the pile's count`, textOf(button).includes("×9"), true);
}
const i18n = new I18n(null, ["en"]);
i18n.setCatalogue({ editions: catalogue }, 2);
const offered = cardFace("gold", i18n, { id: "x", option: option(4, "buy", "gold"), shortcut: "d", onclick: {} });
expect("an offered card names its option and key", [offered.props.dataset,
  offered.props["aria-disabled"]],
[{ key: "x", card: "gold", option: "4", kind: "buy", shortcut: "d" }, undefined]);

console.log(JSON.stringify({ checked, problems }));
