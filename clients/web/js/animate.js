// Cards moving: a play, a gain, a buy or a trashing flies briefly from where the card was
// to where it went (FLIP: the source's place read before the page draws the update, the
// destination's after, then a copy of the card moved between them by a transform the
// compositor runs). Where each card goes is read from the events the server sent, never
// from the cards' rules. Nothing moves for a person who asks for reduced motion.
// A bot's whole turn can arrive in one update: it flies as one short motion, the same
// card between the same places as one copy ("Copper ×3"), a few copies at most, so
// that the frames drawn meanwhile (issue 38: 16 ms each) have little to move and style.

import { cardColours } from "./card.js";

/** A card's flight, in ms; the next card of the same update leaves this much later. */
export const FLIGHT_MS = 240;
export const STAGGER_MS = 40;
/** At most this many copies fly per update (a bot's whole turn can be one update). */
export const MOST_MOVES = 4;

/** The places a card moves between (each found on the page by `placeOf`). */
export const Place = Object.freeze({
  HAND: "hand", // a player's hand: yours as cards, another's as their chip
  PLAY: "play", // a player's play area
  SEAT: "seat", // a player's deck and discard pile: their chip
  SUPPLY: "supply", // a card's pile
  TRASH: "trash",
});

/** Where an event's cards come from in a player's zones. */
function fromZone(seat, zone) {
  if (zone === "in_play") return { place: Place.PLAY, seat };
  if (zone === "hand") return { place: Place.HAND, seat };
  return { place: Place.SEAT, seat };
}

/** Where a gain puts a card: your hand, or the player's deck or discard pile. */
function intoZone(seat, zone) {
  return zone === "hand" ? { place: Place.HAND, seat } : { place: Place.SEAT, seat };
}

/**
 * The moves these events make: [{card, from, to, count}], the same card between the same
 * places once (`count` of them, in the order they first moved), at most MOST_MOVES, the
 * last ones kept (a long turn shows its end). Hidden cards (`count` only) do not fly.
 * @param {object[]} events an update's new events, in order
 */
export function movesOf(events) {
  const moves = new Map(); // by card and places: the same ones fly as one copy
  for (const event of events) {
    const seat = event.player;
    if (!Number.isInteger(seat) || !Array.isArray(event.cards)) continue;
    for (const card of event.cards) {
      let from = null;
      let to = null;
      if (event.kind === "played" && event.zone !== "in_play") { // a Throne Room's second play stays
        from = fromZone(seat, event.zone);
        to = { place: Place.PLAY, seat };
      } else if (event.kind === "bought" || event.kind === "gained") {
        from = event.data?.from === "trash" ? { place: Place.TRASH } : { place: Place.SUPPLY };
        to = intoZone(seat, event.zone);
      } else if (event.kind === "trashed") {
        from = fromZone(seat, event.zone);
        to = { place: Place.TRASH };
      }
      if (!from) continue;
      const key = JSON.stringify([card, from, to]);
      const same = moves.get(key);
      if (same) same.count += 1;
      else moves.set(key, { card, from, to, count: 1 });
    }
  }
  return [...moves.values()].slice(-MOST_MOVES);
}

/** What a flying copy says: the card's name, and how many it stands for ("Copper ×3"). */
export function copyLabel(name, count) {
  return count > 1 ? `${name} ×${count}` : name;
}

/** The CSS selector of a card's place on the game's page (board.js draws them) as it is
 *  before the update is drawn: where a card leaves from is the card itself; where it
 *  arrives, the row it joins (its last card) or the pile or chip it goes into. */
export function selectorOf(where, card, viewer, arriving = false) {
  const mine = where.seat === viewer;
  const chip = `.chip[data-seat="${where.seat}"]`;
  switch (where.place) { // a card's id is letters and underscores (the catalogue's)
    case Place.SUPPLY: return `.supply [data-card="${card}"]`;
    case Place.TRASH: return ".trash";
    case Place.HAND:
      if (!mine) return chip;
      return arriving ? ".mine .hand li" : `.mine .hand [data-card="${card}"]`;
    case Place.PLAY:
      if (arriving) { // the row's last card, or where an empty row says "none"
        return mine ? ".mine .zone:first-of-type .card-row li, .mine .zone:first-of-type .none"
          : `${chip} .card-row li`;
      }
      return mine ? `.mine .card-row [data-card="${card}"]` : `${chip} [data-card="${card}"]`;
    default: return chip;
  }
}

/** A box as a plain object, moved right by `by` of its width. */
function boxAt(box, by = 0) {
  return { left: box.left + by * box.width, top: box.top, width: box.width };
}

/** The place's box on the screen: its last match, else the player's chip, else null. A
 *  card joining a row lands just after its last card. */
function boxOf(root, where, card, viewer, arriving = false) {
  const found = root.querySelectorAll(selectorOf(where, card, viewer, arriving));
  const last = found[found.length - 1];
  const row = arriving && last?.tagName === "LI";
  const node = last
    ?? (Number.isInteger(where.seat) ? root.querySelector(`.chip[data-seat="${where.seat}"]`) : null);
  const box = node?.getBoundingClientRect();
  return box?.width ? boxAt(box, row ? 1.05 : 0) : null;
}

/** Whether the person asked for reduced motion (then nothing flies). */
export function motionWanted(win = globalThis) {
  return !win.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A flight of the page's cards, in two steps around a draw: `before` reads where each
 * moving card leaves from and lands, on the page as the last frame laid it out (read after
 * the draw, they would lay the page out in the middle of it: issue 25), `after` sets
 * them flying.
 */
export class Flights {
  /** @param {HTMLElement} root the game's page @param {HTMLElement} layer where copies fly */
  constructor(root, layer, i18n) {
    this.root = root;
    this.layer = layer;
    this.i18n = i18n;
  }

  /** The moves with their boxes, read before the draw changes the page. */
  before(events, viewer) {
    if (!events.length || !motionWanted()) return [];
    return movesOf(events).map((move) => ({
      ...move,
      from: boxOf(this.root, move.from, move.card, viewer),
      to: boxOf(this.root, move.to, move.card, viewer, true),
    })).filter((move) => move.from && move.to);
  }

  /** Each card flies from where it was to where it went. */
  after(moves) {
    for (const [index, move] of moves.entries()) {
      this.fly(move, index * STAGGER_MS);
    }
  }

  fly({ card, count, from, to }, delay) {
    const entry = this.i18n.cards.get(card);
    const ghost = document.createElement("span");
    // a plain label in the card's colour: light to style and paint, on a busy frame
    ghost.className = `flying face-${cardColours(entry?.types ?? []).faces[0]}`;
    ghost.textContent = copyLabel(this.i18n.card(card), count); // (the layer is aria-hidden)
    const width = Math.min(Math.max(to.width, 72), 96); // a card's, whatever it lands on
    ghost.style.left = `${to.left}px`;
    ghost.style.top = `${to.top}px`;
    ghost.style.width = `${width}px`;
    this.layer.append(ghost);
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    const flight = ghost.animate([
      { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.9 },
      { transform: "translate(0, 0)", opacity: 0.9, offset: 0.85 },
      { transform: "translate(0, 0)", opacity: 0 },
    ], { duration: FLIGHT_MS, delay, easing: "ease-out", fill: "backwards" });
    flight.onfinish = () => ghost.remove();
    flight.oncancel = () => ghost.remove();
  }
}
