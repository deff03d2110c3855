// Reading a decision (docs/PROTOCOL.md 9.2): is its answer forced, what can a click
// mean. Pure, so the page never shows a person a question with one possible answer.

function sameOption(a, b) {
  return a.kind === b.kind && a.card === b.card;
}

/** How many different answers of `size` options there are, counting options that name
 *  the same card the same way (two Coppers to discard are one choice), capped at 2. */
function answersOfSize(options, size, ordered) {
  if (size === 0) return 1;
  if (size > options.length) return 0;
  const alike = options.every((option) => sameOption(option, options[0]));
  if (alike) return 1;
  if (!ordered && size === options.length) return 1;
  return 2;
}

/**
 * The only answer a decision allows, as option ids, or null when there is a choice.
 * A decision marked `forced` by the server is answered with its first `min` options
 * (docs/PROTOCOL.md: the server marks questions whose answer is forced).
 */
export function forcedAnswer(decision) {
  const { options, min, max } = decision;
  if (!Array.isArray(options)) return null;
  if (decision.forced === true) return options.slice(0, Math.max(min, 0)).map((o) => o.id);
  let answers = 0;
  let size = null;
  for (let n = min; n <= Math.min(max, options.length); n += 1) {
    const count = answersOfSize(options, n, decision.ordered);
    if (count) size = n;
    answers += count;
    if (answers > 1) return null;
  }
  return answers === 1 ? options.slice(0, size).map((o) => o.id) : null;
}

/** The option a click on a card of the Supply or the hand stands for, if any. */
export function optionFor(decision, kind, card) {
  if (!decision || !Array.isArray(decision.options)) return null;
  return decision.options.find((option) => option.kind === kind && option.card === card) ?? null;
}

/** Does this decision pick cards (several at once, or in order), confirmed with a button? */
export function picksSeveral(decision) {
  return decision.max > 1 || (decision.min === 0 && decision.max === 1
    && decision.options.every((option) => option.kind === "card"));
}

/** Is `chosen` (option ids, in order) an answer the decision accepts? */
export function acceptable(decision, chosen) {
  return chosen.length >= decision.min && chosen.length <= decision.max
    && new Set(chosen).size === chosen.length;
}

/** The option a click on a Supply pile answers: buy it, or gain it (a `gain` decision's
 *  cards are the Supply's). */
export function supplyOption(decision, card) {
  if (decision?.kind === "gain") return optionFor(decision, "card", card);
  return optionFor(decision, "buy", card);
}

/**
 * The option each card of the hand answers (null: none), in the hand's order. A `play`
 * option answers every copy of its card; `card` options are the hand's own when each can
 * be matched to a card of the hand (and the decider looks at no other cards), one copy
 * each, so that two Coppers to discard are two cards to pick.
 * @param {string[]} hand
 * @param {object|null} decision yours, with options
 * @param {string[]} [looking] the cards you look at (Sentry's): options about them are not the hand's
 */
export function handOptions(hand, decision, looking = []) {
  const none = hand.map(() => null);
  if (!decision || !Array.isArray(decision.options)) return none;
  const plays = hand.map((card) => optionFor(decision, "play", card));
  if (plays.some(Boolean)) return plays;
  const cards = decision.options.filter((option) => option.kind === "card");
  if (!cards.length || decision.kind === "gain" || looking.length) return none;
  const left = [...cards];
  const mapped = hand.map((card) => {
    const at = left.findIndex((option) => option.card === card);
    return at < 0 ? null : left.splice(at, 1)[0];
  });
  return left.length ? none : mapped;
}

/** The options neither the hand nor the Supply shows: the decision bar's buttons. */
export function barOptions(decision, hand, looking = []) {
  if (!decision || !Array.isArray(decision.options)) return [];
  const inHand = new Set(handOptions(hand, decision, looking).filter(Boolean).map((o) => o.id));
  return decision.options.filter((option) => !inHand.has(option.id)
    && supplyOption(decision, option.card) !== option);
}
