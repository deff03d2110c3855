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
  bot_pace_server: ["Server default", "Domyślne serwera", "Predvolené servera",
    "Serverio numatytasis"],
};
addWords(BOT_PACE_WORDS);

/** The paces offered, as the server names them. */
export const PACES = Object.freeze(["instant", "fast", "normal", "slow"]);

/** The create form's bot pace (the form reads it when sent: `bot-pace`): the server's,
 *  chosen unless the person picks another, named with the pace the server publishes
 *  (`serverPace`, `GET /api/v1/server`'s `bot_pace`) when it does; then the four. */
export function botPaceField(i18n, serverPace) {
  const server = i18n.t("bot_pace_server");
  return h("label", {}, i18n.t("bot_pace"), " ", h("select", { name: "bot-pace" },
    h("option", { value: "", selected: true }, PACES.includes(serverPace)
      ? `${server} (${i18n.t(`bot_pace_${serverPace}`)})` : server),
    PACES.map((pace) => h("option", { value: pace }, i18n.t(`bot_pace_${pace}`)))));
}

/** The create body's `bot_pace`: the form's choice; none (the server's) when the form
 *  chose the server's or has no field. */
export function botPaceBody(elements) {
  const pace = elements["bot-pace"]?.value;
  return PACES.includes(pace) ? { bot_pace: pace } : {};
}
