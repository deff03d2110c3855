// The page's keyboard shortcuts: which key does what, shown on the page (a key on each card
// and button it presses, and the list behind "?"). Pure: the page (game.js) finds the
// element whose `data-shortcut` is the key pressed and clicks it, so a shortcut does just
// what a click does.

/** Keys of the turn's own buttons and of the page. */
export const Key = Object.freeze({
  PLAY_ALL: "t",
  END_PHASE: "e",
  CONFIRM: "c",
  NONE: "n",
  LOG: "l",
  SOUND: "s",
  HELP: "?",
});

/** What a click on the page's own switches means (game.js handles it, not the PageState). */
export const Toggle = Object.freeze({ LOG: "toggle_log" });

/** Letters for the Supply's piles: every letter no other shortcut takes. */
const PILE_LETTERS = [..."abdfghijkmopqruvwxyz"];

/** Digits for the cards of your hand you may pick, then the decision bar's other options. */
const DIGITS = [..."1234567890"];

/** Each pile's letter, in the order the Supply shows them (none past the letters). */
export function pileKeys(cards) {
  return new Map(cards.slice(0, PILE_LETTERS.length).map((card, at) => [card, PILE_LETTERS[at]]));
}

/** The digits of `count` options numbered from `from` (none past 0, the tenth). */
export function digitKeys(count, from = 0) {
  return Array.from({ length: count }, (_, at) => DIGITS[from + at]);
}

/** Is this key press one for the page (not typing in a field, not a browser shortcut)? */
export function isShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
  const target = event.target;
  const tag = target?.tagName;
  return !(tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target?.isContentEditable);
}

/** The shortcut list behind "?": [key, words key] in the order it is shown. */
export const HELP = [
  [Key.PLAY_ALL.toUpperCase(), "key_play_all"],
  [Key.END_PHASE.toUpperCase(), "key_end_phase"],
  ["1–9, 0", "key_digits"],
  ["A–Z", "key_letters"],
  [Key.CONFIRM.toUpperCase(), "key_confirm"],
  [Key.NONE.toUpperCase(), "key_none"],
  [Key.LOG.toUpperCase(), "key_log"],
  [Key.SOUND.toUpperCase(), "key_sound"],
  [Key.HELP, "key_help"],
  ["Esc", "key_escape"],
];
