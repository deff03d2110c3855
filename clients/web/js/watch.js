// Watching the others play: what an Attack aimed at you did, said in a sentence ("Bot 2
// plays Witch: you gain Curse."), read from the events the server sent (who played which
// Attack, and the events of yours it caused, `source`), never from the cards' rules.
// Pure: no DOM (game.js shows the sentence in a live region; tests run it under Node).

import { addWords } from "./i18n.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const WATCH_WORDS = {
  attack_played: ["{who} plays {card}", "{who} zagrywa: {card}", "{who} hrá: {card}",
    "{who} žaidžia: {card}"],
  // after a card's name in the nominative ("zagrywa: Wiedźma"), a dash, not a second colon
  attack_on_you: ["{attack}: {effects}.", "{attack} — {effects}.", "{attack} — {effects}.",
    "{attack} — {effects}."],
  you_gained: ["you gain {cards}", "dodajesz: {cards}", "získavaš: {cards}", "gauni: {cards}"],
  you_discarded: ["you discard {cards}", "odrzucasz: {cards}", "odhadzuješ: {cards}",
    "numeti: {cards}"],
  you_trashed: ["you trash {cards}", "wyrzucasz na Śmietnisko: {cards}", "zahadzuješ: {cards}",
    "išmeti: {cards}"],
  you_revealed: ["you reveal {cards}", "odsłaniasz: {cards}", "odhaľuješ: {cards}",
    "atskleidi: {cards}"],
  you_put_on_deck: ["you put {cards} onto your deck", "kładziesz na talii: {cards}",
    "kladieš na balíček: {cards}", "padedi ant kaladės: {cards}"],
  you_drew: ["you draw {cards}", "dobierasz: {cards}", "ťaháš: {cards}", "trauki: {cards}"],
  you_reacted: ["you reveal {cards} against it", "odsłaniasz w odpowiedzi: {cards}",
    "odhaľuješ ako reakciu: {cards}", "atsakydamas atskleidi: {cards}"],
  you_are_attacked: ["it is aimed at you", "atak jest wymierzony w ciebie",
    "útok mieri na teba", "ataka nukreipta į tave"],
};
addWords(WATCH_WORDS);

/** The events of yours that an Attack causes, and the words saying each. */
const EFFECT_WORDS = {
  gained: "you_gained",
  discarded: "you_discarded",
  trashed: "you_trashed",
  revealed: "you_revealed",
  put_on_deck: "you_put_on_deck",
  drew: "you_drew",
  reacted: "you_reacted",
};

function isAttack(card, i18n) {
  return Boolean(i18n.cards.get(card)?.types?.includes("attack"));
}

/**
 * The Attacks another player played among these events, each with the events of yours it
 * caused (those whose `source` is it, up to the next card that player plays).
 * @param {object[]} events an update's new events, in order
 * @param {number|null} viewer your seat (a spectator is attacked by nobody)
 * @returns {{attacker: number, attack: string, effects: object[]}[]}
 */
export function attacksOnYou(events, viewer, i18n) {
  if (!Number.isInteger(viewer)) return [];
  const notices = [];
  let current = null;
  for (const event of events) {
    if (event.kind === "played" && event.player !== viewer) {
      const attack = (event.cards ?? []).find((card) => isAttack(card, i18n));
      current = attack ? { attacker: event.player, attack, effects: [] } : null;
      if (current) notices.push(current);
    } else if (current && event.player === viewer && event.source === current.attack
      && EFFECT_WORDS[event.kind]) {
      current.effects.push(event);
    } else if (event.kind === "turn_started") {
      current = null;
    }
  }
  return notices;
}

/** The Attacks said at most at once: the last ones of a round of a 6-player game. */
export const MOST_NOTICES = 3;

/**
 * The Attacks on you still said after these events: those played since your last turn
 * ended, kept through your turn (said where you look when you come to play) and gone
 * when the next player's turn starts.
 * @param {{notices: object[], yours: boolean}} said what was said before (`yours`: your
 *   turn has started since)
 * @returns {{notices: object[], yours: boolean}} the same object when nothing changed
 */
export function attacksSaid(said, events, viewer, i18n) {
  let { notices, yours } = said;
  let segment = [];
  const take = () => { // one turn's events: an Attack's effects never cross a turn
    const found = attacksOnYou(segment, viewer, i18n);
    if (found.length) {
      notices = [...(yours ? [] : notices), ...found].slice(-MOST_NOTICES);
      yours = false;
    }
    segment = [];
  };
  for (const event of events) {
    if (event.kind === "turn_started") {
      take();
      if (event.player === viewer) yours = true;
      else if (yours) {
        if (notices.length) notices = [];
        yours = false;
      }
    }
    segment.push(event);
  }
  take();
  return notices === said.notices && yours === said.yours ? said : { notices, yours };
}

/** The cards an event names, or how many when they are hidden. */
function cardsOf(event, i18n) {
  if (Array.isArray(event.cards)) return i18n.many(event.cards);
  return i18n.count(event.count ?? 0, "cards");
}

/** "Bot 2 plays Witch: you gain Curse.", "Ann plays Militia: it is aimed at you." */
export function attackSentence(notice, names, i18n) {
  const who = names[notice.attacker] ?? `#${notice.attacker}`;
  const attack = i18n.t("attack_played", { who, card: i18n.card(notice.attack) });
  const effects = notice.effects.length
    ? notice.effects.map((event) => i18n.t(EFFECT_WORDS[event.kind], { cards: cardsOf(event, i18n) }))
      .join(", ")
    : i18n.t("you_are_attacked");
  return i18n.t("attack_on_you", { attack, effects });
}
