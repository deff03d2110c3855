// A card as players know it, drawn by the page (no artwork of the game's): its name, its
// cost in a coin, its pictogram (pictograms.js: game-icons.net's, drawn in its type's
// colour), its types in words and as the colours of the printed cards (Treasure gold,
// Victory green, Curse purple, Action grey, Reaction blue; an Attack's red stripe; two
// colour types split the card), and its text, shown beside it on hover and on keyboard focus (placed and
// hidden by tooltip.js) and on a long press (the card-info dialog), which screen readers get
// through aria-describedby (one hidden text per card, `cardTexts`). Pure: returns vnodes.

import { h } from "./dom.js";
import { Intent } from "./page_state.js";
import { CARD_ICONS, ICON_PATHS, VIEW_BOX } from "./pictograms.js";

/** The types that colour a card, in the order a split card shows them. */
const COLOURS = ["treasure", "victory", "curse", "reaction", "action"];

/**
 * The colours of a card of these types: at most two faces (a Reaction is blue all over,
 * not split with its Action type), and the Attack's accent.
 * @param {string[]} types the catalogue's
 * @returns {{faces: string[], accent: string | null}}
 */
export function cardColours(types) {
  let faces = COLOURS.filter((type) => types.includes(type));
  if (faces.includes("reaction")) faces = faces.filter((type) => type !== "action");
  return {
    faces: (faces.length ? faces : ["action"]).slice(0, 2),
    accent: types.includes("attack") ? "attack" : null,
  };
}

/** The classes that draw those colours (app.css: `.face-*`, `.face2-*`, `.accent-*`). */
export function colourClasses(types) {
  const { faces, accent } = cardColours(types);
  return [`face-${faces[0]}`, faces[1] ? `face2-${faces[1]}` : "", accent ? `accent-${accent}` : ""]
    .filter(Boolean).join(" ");
}

/** The entries of `map` that have a value (a dataset keeps no undefined). */
function defined(map) {
  return Object.fromEntries(Object.entries(map).filter(([, value]) => value !== undefined));
}

/** "Action – Attack", "Akcja – Atak": a card's types in words. */
export function typeLine(types, i18n) {
  return types.map((type) => i18n.t(`type_${type}`)).join(" – ");
}

/** The card's pictogram (hidden from screen readers: its name says it). */
export function pictogram(card) {
  const path = ICON_PATHS[CARD_ICONS[card]];
  return path ? h("svg", { class: "card-icon", viewBox: VIEW_BOX, "aria-hidden": "true",
    focusable: "false" }, h("path", { d: path })) : null;
}

/**
 * Where the long words of the cards' names may break, by the syllables of their language
 * (English, Polish, Slovak, Lithuanian): a card too narrow for the word breaks it there, with a hyphen, and
 * never elsewhere (no browser here hyphenates by itself).
 */
const BREAKS = new Map([
  "Adven-turer", "Bureau-crat", "Chan-cellor", "Har-binger", "Labo-ratory", "Money-lender",
  "Wood-cutter", "Biblio-teka", "Kłu-sownik", "Labora-torium", "Lich-wiarz", "Mie-dziaki",
  "Posia-dłość", "Pro-wincja", "Prze-budowa", "Ręko-dzielnik", "Srebr-niki", "Targo-wisko",
  "War-townik", "Dobro-druh", "Drevo-rubač", "Labora-tórium", "Obchod-ník", "Pred-zvesť",
  "Pre-kliatie", "Pre-stavba", "Pro-vincia", "Reme-selník", "Vojvod-stvo", "Zasa-dacia",
  "Čaro-dejnica", "Amati-ninkas", "Biuro-kratas", "Brako-nierius", "Dirb-tuvės",
  "Festi-valis", "Kanc-leris", "Kunigaikš-tystė", "Labora-torija", "Med-kirtys",
  "Palūki-ninkas", "Per-statymas", "Pra-keiksmas", "Pro-vincija", "Sargy-binis",
  "ieško-tojas",
].map((word) => [word.replaceAll("-", ""), word.replaceAll("-", "\u00ad")]));

/** The words `BREAKS` knows. */
export const BREAKABLE = [...BREAKS.keys()];

/** A name as a card shows it: its long words with their soft hyphens. */
export function breakable(name) {
  return name.split(" ").map((word) => BREAKS.get(word) ?? word).join(" ");
}

/**
 * How long the name's longest word is, as the class that sizes its letters (cards.css):
 * a name breaks between its words (or at a long word's soft hyphens), so a long word
 * takes smaller letters to fit.
 */
export function nameFit(name) {
  const longest = Math.max(0, ...name.split(/\s+/).map((word) => word.length));
  return longest > 9 ? " name-longest" : longest > 7 ? " name-long" : "";
}

/** The id of the card's text (`cardTexts`), which every face of that card is described by. */
function cardTextId(card) {
  return `card-text-${card}`;
}

/**
 * The texts of these cards (the Supply's: every card a game can show), hidden: each card
 * face is described by its card's (`aria-describedby`), and tooltip.js shows a copy of it
 * beside the card under the mouse or the keyboard's focus. One text per card, not one per
 * face: a face drawn is a button and its few spans (issue 25: drawing an update).
 * @param {string[]} cards the cards' ids
 */
export function cardTexts(cards, i18n) {
  return h("div", { class: "card-texts", hidden: true }, cards.map((card) => {
    const entry = i18n.cards.get(card);
    return h("span", { class: "card-text", id: cardTextId(card), key: card },
      h("strong", {}, `${i18n.card(card)} · ${i18n.t("cost")} ${entry?.cost ?? "?"}`),
      h("span", { class: "tip-types" }, typeLine(entry?.types ?? [], i18n)),
      h("span", {}, i18n.cardText(card)));
  }));
}

/**
 * A card face: a button, described by its card's text (`cardTexts`).
 * @param {string} card the card's id
 * @param {object} i18n words and the catalogue
 * @param {object} how
 * @param {string} how.id unique on the page: keys its node (dom.js)
 * @param {object} how.onclick the intent a click stands for
 * @param {object} [how.option] the decision's option the card answers, if any
 * @param {boolean} [how.picked] picked for a decision of several
 * @param {string} [how.mark] what marks it picked ("✓", or its place in an order: "#1")
 * @param {boolean} [how.busy] an answer is on its way: not clickable for now
 * @param {number} [how.count] cards left (a pile)
 * @param {string} [how.shortcut] its key (shortcuts.js), while it answers an option
 * @param {string} [how.keyShown] the key it shows, if another than `shortcut`: a pile
 *   keeps its key drawn and hidden while not offered (a node kept is cheaper to draw
 *   than one inserted and removed on every turn)
 * @param {string} [how.label] what a screen reader hears besides the name
 * @param {string} [how.size] "small" for play areas
 */
export function cardFace(card, i18n, how) {
  const entry = i18n.cards.get(card);
  const types = entry?.types ?? [];
  const { option, picked, count, shortcut } = how;
  const keyShown = how.keyShown ?? shortcut;
  const state = option ? " offered" : " idle";
  const classes = `card ${colourClasses(types)}${state}${picked ? " picked" : ""}`
    + `${count === 0 ? " empty" : ""}${how.size ? ` ${how.size}` : ""}`;
  const name = i18n.card(card);
  return h("button", {
    type: "button", class: classes, key: how.id, "aria-describedby": cardTextId(card),
    "aria-label": [name, how.label].filter(Boolean).join(", "),
    "aria-disabled": option ? undefined : "true", disabled: how.busy,
    "aria-pressed": picked === undefined ? undefined : String(picked),
    dataset: defined({
      key: how.id, card, option: option ? String(option.id) : undefined,
      kind: option?.kind, shortcut,
    }),
    onclick: how.onclick,
    oncontextmenu: { type: Intent.SHOW_CARD, card }, // a long press on a phone
  },
  h("span", { class: "card-cost", "aria-hidden": "true" }, String(entry?.cost ?? "?")),
  pictogram(card),
  h("span", { class: `card-name${nameFit(name)}` }, breakable(name)),
  how.size === "small" ? null : h("span", { class: "card-types" }, typeLine(types, i18n)),
  count === undefined ? null : h("span", { class: "card-count", "aria-hidden": "true" },
    count ? `×${count}` : i18n.t("empty")),
  picked ? h("span", { class: "card-mark", "aria-hidden": "true" }, how.mark ?? "✓") : null,
  keyShown ? h("kbd", { "aria-hidden": "true" }, keyShown.toUpperCase()) : null);
}
