// The Buy phase in one click: a click on a pile that is not yet a legal buy, while the
// server offers "Play all Treasures", sends that answer first, then buys the pile when the
// next decision offers it (or says it cannot be afforded, with the coins the server
// counted). The page counts no coins: the server's options say what may be bought, and
// only what "Play all Treasures" plays is played. "Play Treasures by hand" turns it off
// (remembered in the browser's storage, as the sound is).

import { h } from "./dom.js";
import { addWords } from "./i18n.js";
import { supplyOption } from "./decision.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const ONE_CLICK_WORDS = {
  by_hand_on: ["Play Treasures by hand: on", "Zagrywaj Skarby ręcznie: tak",
    "Hrať Poklady ručne: áno", "Lobius žaisti rankomis: taip"],
  by_hand_off: ["Play Treasures by hand: off", "Zagrywaj Skarby ręcznie: nie",
    "Hrať Poklady ručne: nie", "Lobius žaisti rankomis: ne"],
  by_hand_brief_on: ["Treasures: by hand", "Skarby: ręcznie", "Poklady: ručne",
    "Lobiai: rankomis"],
  by_hand_brief_off: ["Treasures: auto", "Skarby: same", "Poklady: samy",
    "Lobiai: patys"],
  play_treasures_first: [
    "{card} costs {cost}: you have {coins}. Play your Treasures first.",
    "{card} kosztuje {cost}: masz {coins}. Najpierw zagraj Skarby.",
    "{card} stojí {cost}: máš {coins}. Najprv zahraj Poklady.",
    "{card} kainuoja {cost}: turi {coins}. Pirma sužaisk Lobius.",
  ],
};
addWords(ONE_CLICK_WORDS);

const STORAGE_KEY = "dominion.treasures";
const BY_HAND = "by_hand";

/** Did this browser's player choose to play their Treasures by hand? (Off at first.) */
export function treasuresByHand(storage) {
  return storage?.getItem(STORAGE_KEY) === BY_HAND;
}

export function rememberTreasuresByHand(storage, byHand) {
  storage?.setItem(STORAGE_KEY, byHand ? BY_HAND : "auto");
}

/** The option to answer first for a click on `card`: "Play all Treasures", when the pile
 *  is not a legal buy of this Buy decision and the server offers it; else null. */
export function playFirst(decision, card) {
  if (decision?.kind !== "buy" || !Array.isArray(decision.options)
    || supplyOption(decision, card)) return null;
  return decision.options.find((option) => option.kind === "play_all_treasures") ?? null;
}

/** `nextStep` while the Treasures' answer has not been followed by a new decision. */
export const WAIT = Object.freeze({ wait: true });

/** The next step of a buy waited for (`{card, after}`: the pile, and the decision the
 *  Treasures were played in) once `decision` (yours, or null) arrived: WAIT while the
 *  answered decision is still the one asked; else `{buy}`, the option to buy it with, or
 *  `{cannot: true}` when a Buy decision does not offer it, or `{}` when the turn went on
 *  otherwise (another question: the person answers it). */
export function nextStep(waited, decision) {
  if (decision && decision.id === waited.after) return WAIT;
  if (decision?.kind !== "buy") return {};
  const buy = supplyOption(decision, waited.card);
  return buy ? { buy } : { cannot: true };
}

/** The page's switch: "Play Treasures by hand: off" (on a phone "Treasures: auto"). */
export function byHandSwitch(byHand, i18n, onclick) {
  return h("button", {
    type: "button", "aria-pressed": String(byHand), dataset: { key: "treasures-by-hand" },
    onclick,
  }, byHandLabel(byHand, i18n));
}

/** The switch's words, wide and narrow (as the sound's). */
export function byHandLabel(byHand, i18n) {
  const t = (key) => i18n.t(key);
  return [h("span", { class: "wide" }, t(byHand ? "by_hand_on" : "by_hand_off")),
    h("span", { class: "narrow" }, t(byHand ? "by_hand_brief_on" : "by_hand_brief_off"))];
}
