// A table's time control, chosen when it is created and shown in the lobby's lists
// (docs/PROTOCOL.md: `time_control`, {initial_seconds, increment_seconds} or null for no
// clock): written as "10+5", minutes each and seconds added after each of a player's
// turns. A rated table always has a clock (10+5 unless another is chosen); an unrated one
// has none unless chosen.

import { h } from "./dom.js";
import { addWords } from "./i18n.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const TIME_CONTROL_WORDS = {
  time_control: ["Time control", "Tempo gry", "Časová kontrola", "Laiko kontrolė"],
  time_control_about: [
    "Minutes for each player + seconds added after each of their turns.",
    "Minuty dla każdego gracza + sekundy dodawane po każdej jego turze.",
    "Minúty pre každého hráča + sekundy pridané po každom jeho ťahu.",
    "Minutės kiekvienam žaidėjui + sekundės, pridedamos po kiekvieno jo ėjimo.",
  ],
  time_control_none: ["None (no clock)", "Bez zegara", "Žiadna (bez hodín)", "Jokios (be laikrodžio)"],
  time_control_custom: ["Custom", "Własne", "Vlastná", "Savo"],
  time_control_minutes: ["Minutes", "Minuty", "Minúty", "Minutės"],
  time_control_increment: ["Seconds added per turn", "Sekundy dodawane co turę", "Sekundy pridané za ťah", "Sekundės, pridedamos už ėjimą"],
  time_control_of: ["Clock {control}", "Zegar {control}", "Hodiny {control}", "Laikrodis {control}"],
};
addWords(TIME_CONTROL_WORDS);

/** The choices offered, by the form's value: the usual ones, as Lichess offers them. */
export const PRESETS = Object.freeze({
  "3+2": { initial_seconds: 180, increment_seconds: 2 },
  "5+3": { initial_seconds: 300, increment_seconds: 3 },
  "10+5": { initial_seconds: 600, increment_seconds: 5 },
  "15+10": { initial_seconds: 900, increment_seconds: 10 },
});
export const NONE = "none";
export const CUSTOM = "custom";
/** A rated table's clock unless another is chosen (the server's `rated_time_control`). */
export const RATED_DEFAULT = "10+5";

/** "10+5", "0.5+0": a time control's minutes and seconds added. */
export function timeControlText(control) {
  const minutes = Math.round((control.initial_seconds / 60) * 100) / 100;
  return `${minutes}+${control.increment_seconds}`;
}

/** The choices a table may have: no clock only for an unrated one. */
export function choicesFor(rated) {
  return [...(rated ? [] : [NONE]), ...Object.keys(PRESETS), CUSTOM];
}

/** The choice shown: the one made, if the table may have it, else its default. */
export function choiceShown(choice, rated) {
  if (choicesFor(rated).includes(choice)) return choice;
  return rated ? RATED_DEFAULT : NONE;
}

/**
 * The create body's `time_control`: a preset's, the custom minutes and seconds, or null.
 * @param {string} choice a value of `choicesFor`
 * @param {{minutes: string|number, increment: string|number}} custom the custom fields
 */
export function timeControlBody(choice, custom) {
  if (choice === NONE) return null;
  if (choice !== CUSTOM) return { ...PRESETS[choice] };
  return {
    initial_seconds: Math.round(Number(custom.minutes) * 60),
    increment_seconds: Math.round(Number(custom.increment)),
  };
}

/** The create form's time control: a list of choices, and the custom one's two fields
 *  (shown when chosen; the form reads them when sent). */
export function timeControlField(i18n, choice, rated, onchange) {
  const t = (key) => i18n.t(key);
  const shown = choiceShown(choice, rated);
  const label = (value) => (value === NONE ? t("time_control_none")
    : value === CUSTOM ? t("time_control_custom") : value);
  return h("fieldset", { class: "time-control" },
    h("legend", {}, t("time_control")),
    // drawn anew when "none" comes or goes, so the choice shown is the one selected
    h("select", { name: "time-control", key: `time-control-${rated}`, onchange,
      "aria-label": t("time_control"), "aria-describedby": "time-control-about" },
    choicesFor(rated).map((value) => h("option", { value, selected: value === shown },
      label(value)))),
    h("span", { class: "custom-time", hidden: shown !== CUSTOM },
      h("label", {}, " ", t("time_control_minutes"), " ", h("input", {
        type: "number", name: "tc-minutes", min: 0.5, max: 180, step: 0.5, value: 10,
        required: shown === CUSTOM })),
      h("label", {}, " + ", t("time_control_increment"), " ", h("input", {
        type: "number", name: "tc-increment", min: 0, max: 180, step: 1, value: 5,
        required: shown === CUSTOM }))),
    h("p", { id: "time-control-about", class: "note" }, t("time_control_about")));
}
