// How fast a new table's in-server bots answer (`bot_pace` of createGame; docs/BOTS.md,
// "Pace"): a pause before each of a bot's answers lets a person follow its moves, and
// spectators see the same pace.

import { h } from "./dom.js";
import { addWords } from "./i18n.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const BOT_PACE_WORDS = {
  bot_pace: ["Bots' pace", "Tempo botów", "Tempo botov", "Botų tempas"],
  bot_pace_instant: ["Instant", "Natychmiast", "Okamžité", "Akimirksniu"],
  bot_pace_fast: ["Fast", "Szybko", "Rýchle", "Greitas"],
  bot_pace_normal: ["Normal", "Normalnie", "Bežné", "Įprastas"],
  bot_pace_slow: ["Slow", "Wolno", "Pomalé", "Lėtas"],
};
addWords(BOT_PACE_WORDS);

/** The paces offered, as the server names them, and the one chosen unless another is. */
export const PACES = Object.freeze(["instant", "fast", "normal", "slow"]);
export const DEFAULT_PACE = "normal";

/** The create form's bot pace (the form reads it when sent: `bot-pace`). */
export function botPaceField(i18n) {
  return h("label", {}, i18n.t("bot_pace"), " ", h("select", { name: "bot-pace" },
    PACES.map((pace) => h("option", { value: pace, selected: pace === DEFAULT_PACE },
      i18n.t(`bot_pace_${pace}`)))));
}

/** The create body's `bot_pace`: the form's choice; none (the server's) without the field. */
export function botPaceBody(elements) {
  const pace = elements["bot-pace"]?.value;
  return PACES.includes(pace) ? { bot_pace: pace } : {};
}
