// The create form's Kingdom, shown as its ten cards laid out by cost: a recommended set
// chosen from a list, or "Random" draws ten; below them the edition's other cards, by cost.
// Tapping a card of the Kingdom takes it out; tapping another card puts it in (while the
// Kingdom has a place free). Drawn with card.js's faces (their texts on hover and focus, as
// in a game).

import { cardFace, cardTexts } from "./card.js";
import { h } from "./dom.js";
import { addWords } from "./i18n.js";

export const KINGDOM_SIZE = 10;

/** key -> [English, Polish, Slovak, Lithuanian] */
export const KINGDOM_WORDS = {
  kingdom_random_draw: ["Random", "Losowe", "Náhodné", "Atsitiktinė"],
  kingdom_tap: ["Tap a card of the Kingdom to take it out, another card to put it in.",
    "Dotknij karty Królestwa, by ją wyjąć, innej karty, by ją dodać.",
    "Ťuknutím na kartu Kráľovstva ju vyberiete, na inú kartu ju pridáte.",
    "Bakstelėkite Karalystės kortą, kad ją išimtumėte, kitą kortą – kad ją įdėtumėte."],
  kingdom_count: ["Kingdom: {n} of 10 cards", "Królestwo: {n} z 10 kart",
    "Kráľovstvo: {n} z 10 kariet", "Karalystė: {n} iš 10 kortų"],
  other_cards: ["Other cards", "Pozostałe karty", "Ostatné karty", "Kitos kortos"],
  kingdom_own: ["Your own Kingdom", "Własne Królestwo", "Vlastné Kráľovstvo",
    "Jūsų Karalystė"],
  take_out: ["in the Kingdom: tap to take it out", "w Królestwie: dotknij, by wyjąć",
    "v Kráľovstve: ťuknutím vyberiete", "Karalystėje: bakstelėkite, kad išimtumėte"],
  put_in: ["tap to put it in the Kingdom", "dotknij, by dodać do Królestwa",
    "ťuknutím pridáte do Kráľovstva", "bakstelėkite, kad įdėtumėte į Karalystę"],
};
addWords(KINGDOM_WORDS);

/** The cards ordered as a table lays them out: by cost, then by name. */
export function byCost(cards, costOf) {
  return [...cards].sort((a, b) => costOf(a) - costOf(b) || a.localeCompare(b));
}

/** `n` cards of the pool, each once, drawn with `random` (Math.random's kind). */
export function drawKingdom(pool, random, n = KINGDOM_SIZE) {
  const left = [...pool];
  const drawn = [];
  while (drawn.length < n && left.length) {
    drawn.push(left.splice(Math.floor(random() * left.length), 1)[0]);
  }
  return drawn;
}

/** The Kingdom with `card` taken out if in it, else put in if it has a place free (else
 *  as it was). */
export function toggleCard(kingdom, card, size = KINGDOM_SIZE) {
  if (kingdom.includes(card)) return kingdom.filter((c) => c !== card);
  return kingdom.length < size ? [...kingdom, card] : kingdom;
}

/** A card of the picker: a face that a tap takes out of the Kingdom or puts in (offered
 *  while it may be, not a game's). */
function tile(card, i18n, { label, onclick, offered }) {
  const face = cardFace(card, i18n, { id: `kingdom-${card}`, onclick, label: i18n.t(label) });
  const classes = offered ? face.props.class.replace(" idle", " offered") : face.props.class;
  return { ...face, props: { ...face.props, class: classes,
    "aria-disabled": offered ? undefined : "true", oncontextmenu: undefined } };
}

/**
 * The Kingdom part of the create form.
 * @param {object} app i18n
 * @param {{names: string[], name: string, cards: string[], own: boolean, pool: string[]}}
 *   kingdom the recommended sets' names, the one chosen, the Kingdom's cards, whether
 *   they are the person's own (drawn or changed) rather than the set's, and the edition's
 *   Kingdom cards
 * @param {{recommend: (name: string) => void, random: () => void,
 *   toggle: (card: string) => void}} actions
 */
export function kingdomPicker(app, kingdom, actions) {
  const { i18n } = app;
  const t = (key, vars) => i18n.t(key, vars);
  const cost = (card) => i18n.cards.get(card)?.cost ?? 0;
  const full = kingdom.cards.length >= KINGDOM_SIZE;
  const tiles = (cards, how) => byCost(cards, cost).map((card) => h("li", { key: card },
    tile(card, i18n, { ...how, onclick: () => actions.toggle(card) })));
  const others = kingdom.pool.filter((card) => !kingdom.cards.includes(card));
  return h("fieldset", { class: "kingdom-picker" },
    h("legend", {}, t("kingdom")),
    h("div", { class: "kingdom-choice" },
      h("label", {}, t("kingdom_recommended"), " ",
        h("select", { name: "kingdom", onchange: (event) => actions.recommend(event.target.value) },
          kingdom.own && h("option", { value: "", selected: true }, t("kingdom_own")),
          kingdom.names.map((name) => h("option", { value: name,
            selected: !kingdom.own && name === kingdom.name }, i18n.kingdomName(name))))),
      " ", h("button", { type: "button", class: "kingdom-random", onclick: () => actions.random() },
        t("kingdom_random_draw"))),
    h("p", { class: "note" }, t("kingdom_tap")),
    h("h3", { role: "status" }, t("kingdom_count", { n: kingdom.cards.length })),
    h("ul", { class: "kingdom-tiles in-kingdom" },
      tiles(kingdom.cards, { label: "take_out", offered: true })),
    h("h3", {}, t("other_cards")),
    h("ul", { class: "kingdom-tiles others" },
      tiles(others, { label: "put_in", offered: !full })),
    cardTexts(kingdom.pool, i18n));
}
