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
