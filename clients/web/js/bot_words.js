// The in-server bots in words: each level's name, the one source of a bot's name wherever
// a page says it (the lobby's choice "2 · Easy", a seat "Easy bot", the leaderboard, a
// profile's games against bots), and what it means in a sentence. Data only: i18n.js and
// bot_levels.js read it. Level names are adjectives, so that "{level} bot" reads in each
// language.

/** Each strategy offered as a level, by its rank (bench/levels.py measures them: `strong:1`
 *  is Big Money's equal, below Smithy Big Money); `strong:3` is `strong` (docs/BOTS.md,
 *  "Levels"). */
export const LEVEL_RANKS = { random: 1, big_money: 2, "strong:1": 3, smithy_big_money: 4,
  "strong:2": 5, strong: 6, "strong:3": 6 };

/** A strategy's other name for a level: the same bot. */
export const ALIASES = { "strong:3": "strong" };

/** key -> [English, Polish, Slovak, Lithuanian]: each level's name and what it means, and
 *  a bot by its level's name. */
export const BOT_LEVEL_WORDS = {
  bot_level_label: ["Bot", "Bot", "Bot", "Botas"],
  bot_named: ["{level} bot", "{level} bot", "{level} bot", "{level} botas"],
  level_random: ["Beginner", "Początkujący", "Začiatočnícky", "Pradinis"],
  level_random_about: ["Plays and buys at random: learn the rules against it.",
    "Gra i kupuje losowo: na nim nauczysz się zasad.",
    "Hrá a kupuje náhodne: pri ňom sa naučíte pravidlá.",
    "Žaidžia ir perka atsitiktinai: su juo išmoksite taisykles."],
  level_big_money: ["Easy", "Łatwy", "Ľahký", "Lengvas"],
  level_big_money_about: ["Buys only Silver, Gold and Provinces (Big Money).",
    "Kupuje tylko Srebrniki, Złoto i Prowincje (Wielkie Pieniądze).",
    "Kupuje len Striebro, Zlato a Provincie (Veľké peniaze).",
    "Perka tik Sidabrą, Auksą ir Provincijas (Dideli pinigai)."],
  "level_strong:1": ["Steady", "Solidny", "Vytrvalý", "Stabilus"],
  "level_strong:1_about": ["The strong bot's plain money game, careful at the end.",
    "Silny bot grający samymi pieniędzmi, uważny pod koniec.",
    "Silný bot hrajúci len na peniaze, opatrný na konci.",
    "Stiprus botas, žaidžiantis tik pinigais, atidus pabaigoje."],
  level_smithy_big_money: ["Casual", "Niedzielny", "Príležitostný", "Mėgėjiškas"],
  level_smithy_big_money_about: ["Big Money with a Smithy or two.",
    "Wielkie Pieniądze z jedną lub dwiema Kuźniami.",
    "Veľké peniaze s jednou či dvoma Vyhňami.",
    "Dideli pinigai su viena ar dviem Kalvėmis."],
  "level_strong:2": ["Strong", "Silny", "Silný", "Stiprus"],
  "level_strong:2_about": ["Builds around the Kingdom's best card, but attacks no one.",
    "Gra wokół najlepszej karty Królestwa, ale nikogo nie atakuje.",
    "Hrá okolo najlepšej karty Kráľovstva, no na nikoho neútočí.",
    "Žaidžia aplink geriausią Karalystės kortą, bet nieko nepuola."],
  level_strong: ["Expert", "Ekspercki", "Expertný", "Ekspertinis"],
  level_strong_about: [
    "Builds around the Kingdom's best card, attacks included: the strongest.",
    "Gra wokół najlepszej karty Królestwa, także atakami: najsilniejszy.",
    "Hrá okolo najlepšej karty Kráľovstva, aj útokmi: najsilnejší.",
    "Žaidžia aplink geriausią Karalystės kortą, ir puola: stipriausias."],
};

/** The words of a strategy's level (an alias's by the level it names), or null for a
 *  strategy that is no level. */
export function levelKey(strategy) {
  const level = ALIASES[strategy] ?? strategy;
  return level in LEVEL_RANKS ? `level_${level}` : null;
}
