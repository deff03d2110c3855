// The in-server bots as levels a person chooses among, each named once ("2 · Easy", its
// words: bot_words.js) and said in a sentence: the server's `bot_strategies` name the
// strong bot's default level twice (`strong` is `strong:3`, docs/BOTS.md "Levels"), so
// `strong:3` is dropped when `strong` is offered.

import { ALIASES, LEVEL_RANKS, levelKey } from "./bot_words.js";
import { h } from "./dom.js";

/** The strategy chosen unless the person chose another. */
export const DEFAULT_LEVEL = "big_money";

/** The strategies offered as levels: each bot once, weakest first (a strategy the server
 *  adds later comes after them). */
export function botLevels(strategies) {
  const offered = strategies.filter((s) => !(ALIASES[s] && strategies.includes(ALIASES[s])));
  const rank = (s) => LEVEL_RANKS[s] ?? Infinity;
  return [...offered].sort((a, b) => rank(a) - rank(b));
}

/** A level as the lobby offers it ("2 · Easy"); a strategy that is no level by its bot's
 *  name. */
export function levelName(strategy, i18n) {
  const key = levelKey(strategy);
  return key ? `${LEVEL_RANKS[strategy]} · ${i18n.t(key)}` : i18n.strategy(strategy);
}

/** What a level means, in a sentence (none for a strategy that is no level). */
export function levelAbout(strategy, i18n) {
  const key = levelKey(strategy);
  return key ? i18n.t(`${key}_about`) : "";
}

/** The options of a select of levels, `chosen` selected. */
export function levelOptions(strategies, i18n, chosen) {
  return botLevels(strategies).map((s) => h("option", { value: s, selected: s === chosen },
    levelName(s, i18n)));
}
