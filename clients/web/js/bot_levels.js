// The in-server bots as levels a person chooses among, each named once and said in a
// sentence: the server's `bot_strategies` name the strong bot's default level twice
// (`strong` is `strong:3`, docs/BOTS.md "Levels"), so `strong:3` is dropped when `strong`
// is offered (a seat so made is named "Strong bot" at the table).

import { h } from "./dom.js";
import { addWords } from "./i18n.js";

/** A strategy's other name for a level also offered: the same bot. */
const ALIASES = { "strong:3": "strong" };

/** The levels, weakest first (a strategy the server adds later comes after them), as
 * bench/levels.py measures them: `strong:1` is Big Money's equal, below Smithy Big Money. */
const ORDER = ["random", "big_money", "strong:1", "smithy_big_money", "strong:2", "strong",
  "strong:3"];

/** The strategy chosen unless the person chose another. */
export const DEFAULT_LEVEL = "big_money";

/** key -> [English, Polish, Slovak, Lithuanian]: each level's name and what it means. */
export const BOT_LEVEL_WORDS = {
  bot_level_label: ["Bot", "Bot", "Bot", "Botas"],
  level_random: ["1 · Beginner", "1 · Początkujący", "1 · Začiatočník",
    "1 · Pradedantysis"],
  level_random_about: ["Plays and buys at random: learn the rules against it.",
    "Gra i kupuje losowo: na nim nauczysz się zasad.",
    "Hrá a kupuje náhodne: pri ňom sa naučíte pravidlá.",
    "Žaidžia ir perka atsitiktinai: su juo išmoksite taisykles."],
  level_big_money: ["2 · Easy", "2 · Łatwy", "2 · Ľahký", "2 · Lengvas"],
  level_big_money_about: ["Buys only Silver, Gold and Provinces (Big Money).",
    "Kupuje tylko Srebro, Złoto i Prowincje (Wielkie Pieniądze).",
    "Kupuje len Striebro, Zlato a Provincie (Veľké peniaze).",
    "Perka tik Sidabrą, Auksą ir Provincijas (Dideli pinigai)."],
  level_smithy_big_money: ["4 · Casual", "4 · Niedzielny", "4 · Príležitostný",
    "4 · Mėgėjas"],
  level_smithy_big_money_about: ["Big Money with a Smithy or two.",
    "Wielkie Pieniądze z Kowalem lub dwoma.",
    "Veľké peniaze s jednou či dvoma Kováčňami.",
    "Dideli pinigai su viena ar dviem Kalvėmis."],
  "level_strong:1": ["3 · Steady", "3 · Solidny", "3 · Vytrvalý", "3 · Stabilus"],
  "level_strong:1_about": ["The strong bot's plain money game, careful at the end.",
    "Silny bot grający samymi pieniędzmi, uważny pod koniec.",
    "Silný bot hrajúci len na peniaze, opatrný na konci.",
    "Stiprus botas, žaidžiantis tik pinigais, atidus pabaigoje."],
  "level_strong:2": ["5 · Strong", "5 · Silny", "5 · Silný", "5 · Stiprus"],
  "level_strong:2_about": ["Builds around the Kingdom's best card, but attacks no one.",
    "Gra wokół najlepszej karty Królestwa, ale nikogo nie atakuje.",
    "Hrá okolo najlepšej karty Kráľovstva, no nikoho neútočí.",
    "Žaidžia aplink geriausią Karalystės kortą, bet nieko nepuola."],
  level_strong: ["6 · Expert", "6 · Ekspert", "6 · Expert", "6 · Ekspertas"],
  level_strong_about: [
    "Builds around the Kingdom's best card, attacks included: the strongest.",
    "Gra wokół najlepszej karty Królestwa, także atakami: najsilniejszy.",
    "Hrá okolo najlepšej karty Kráľovstva, aj útokmi: najsilnejší.",
    "Žaidžia aplink geriausią Karalystės kortą, ir puola: stipriausias."],
};
addWords(BOT_LEVEL_WORDS);

/** The strategies offered as levels: each bot once, weakest first. */
export function botLevels(strategies) {
  const offered = strategies.filter((s) => !(ALIASES[s] && strategies.includes(ALIASES[s])));
  const rank = (s) => (ORDER.includes(s) ? ORDER.indexOf(s) : ORDER.length);
  return [...offered].sort((a, b) => rank(a) - rank(b));
}

/** A level's name ("5 · Strong"); a strategy without words by the server's name. */
export function levelName(strategy, i18n) {
  const key = `level_${strategy}`;
  return key in BOT_LEVEL_WORDS ? i18n.t(key) : i18n.strategy(strategy);
}

/** What a level means, in a sentence (none for a strategy without words). */
export function levelAbout(strategy, i18n) {
  const key = `level_${strategy}_about`;
  return key in BOT_LEVEL_WORDS ? i18n.t(key) : "";
}

/** The options of a select of levels, `chosen` selected. */
export function levelOptions(strategies, i18n, chosen) {
  return botLevels(strategies).map((s) => h("option", { value: s, selected: s === chosen },
    levelName(s, i18n)));
}
