// Cards moving: a play, a gain, a buy or a trashing flies briefly from where the card was
// to where it went (FLIP: the source's place read before the page draws the update, the
// destination's after, then a copy of the card moved between them by a transform the
// compositor runs). Where each card goes is read from the events the server sent, never
// from the cards' rules. Nothing moves for a person who asks for reduced motion.

import { colourClasses } from "./card.js";

/** A card's flight, in ms; the next card of the same update leaves this much later. */
export const FLIGHT_MS = 320;
export const STAGGER_MS = 70;
/** At most this many cards fly per update (a bot's whole turn can be one update). */
export const MOST_MOVES = 8;

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
 * The moves these events make: [{card, from, to}], at most MOST_MOVES, the last ones kept
 * (a long turn shows its end). Hidden cards (`count` only) do not fly.
 * @param {object[]} events an update's new events, in order
 */
export function movesOf(events) {
  const moves = [];
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
      if (from) moves.push({ card, from, to });
    }
  }
  return moves.slice(-MOST_MOVES);
}

/** The CSS selector of a card's place on the game's page (board.js draws them). */
export function selectorOf(where, card, viewer) {
  const mine = where.seat === viewer;
  const quoted = card; // a card's id is letters and underscores (the catalogue's)
  switch (where.place) {
    case Place.SUPPLY: return `.supply [data-card="${quoted}"]`;
    case Place.TRASH: return ".trash";
    case Place.HAND:
      return mine ? `.mine .hand [data-card="${quoted}"]` : `.chip[data-seat="${where.seat}"]`;
    case Place.PLAY:
      return mine ? `.mine .card-row [data-card="${quoted}"]`
        : `.chip[data-seat="${where.seat}"] [data-card="${quoted}"]`;
    default: return `.chip[data-seat="${where.seat}"]`;
  }
}

/** The place's box on the screen: its last match (a card played goes to the end of the
 *  row), else the player's chip; null when neither is drawn. */
function boxOf(root, where, card, viewer) {
  const found = root.querySelectorAll(selectorOf(where, card, viewer));
  const node = found[found.length - 1]
    ?? (Number.isInteger(where.seat) ? root.querySelector(`.chip[data-seat="${where.seat}"]`) : null);
  const box = node?.getBoundingClientRect();
  return box?.width ? box : null;
}

/** Whether the person asked for reduced motion (then nothing flies). */
export function motionWanted(win = globalThis) {
  return !win.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A flight of the page's cards, in two steps around a draw: `before` reads where the
 * moving cards are, `after` where they went and sets them flying.
 */
export class Flights {
  /** @param {HTMLElement} root the game's page @param {HTMLElement} layer where copies fly */
  constructor(root, layer, i18n) {
    this.root = root;
    this.layer = layer;
    this.i18n = i18n;
  }

  /** The moves' sources, read before the draw changes them (the page is laid out then). */
  before(events, viewer) {
    if (!events.length || !motionWanted()) return [];
    return movesOf(events).map((move) => ({ ...move, box: boxOf(this.root, move.from, move.card, viewer) }))
      .filter((move) => move.box);
  }

  /** Each card flies from its source to its destination, read after the draw. */
  after(moves, viewer) {
    moves.forEach((move, index) => {
      const to = boxOf(this.root, move.to, move.card, viewer);
      if (to) this.fly(move.card, move.box, to, index * STAGGER_MS);
    });
  }

  fly(card, from, to, delay) {
    const entry = this.i18n.cards.get(card);
    const ghost = document.createElement("span");
    ghost.className = `flying card small ${colourClasses(entry?.types ?? [])}`;
    ghost.textContent = this.i18n.card(card);
    ghost.setAttribute("aria-hidden", "true");
    const width = Math.min(to.width, 96);
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
