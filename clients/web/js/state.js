// One game as this page knows it: a snapshot (a view map, docs/PROTOCOL.md 9.3), then the
// events that followed, applied one by one. The state has the view map's shape, so the
// page draws a snapshot and a state kept from events alike; what the events do not
// spell out (the coins of the turn, the cards each player owns for Gardens) is derived
// here as docs/CLIENTS.md, "Deriving what the protocol leaves to the client", explains.
// Pure: no DOM, no network (tests run it under Node against the engine).

export const STARTING_DECK = { copper: 7, estate: 3 };
export const TREASURE_COINS = { copper: 1, silver: 2, gold: 3 };
/** Action cards whose text gives "+N coins" unconditionally. */
export const ACTION_COINS = {
  market: 1, festival: 2, militia: 2, poacher: 1, vassal: 2, woodcutter: 2, chancellor: 2,
};
/** Action cards whose text gives "+N Actions" or "+N Buys": card -> [actions, buys]. */
export const ACTION_EXTRAS = {
  cellar: [1, 0], village: [2, 0], council_room: [0, 1], festival: [2, 1], laboratory: [1, 0],
  market: [1, 1], harbinger: [1, 0], merchant: [1, 0], poacher: [1, 0], sentry: [1, 0],
  woodcutter: [0, 1], spy: [1, 0],
};
const MONEYLENDER_COINS = 3;

function remove(list, gone) {
  for (const card of gone) {
    const at = list.indexOf(card);
    if (at >= 0) list.splice(at, 1);
  }
}

function countOf(event) {
  if (Array.isArray(event.cards)) return event.cards.length;
  return Number.isInteger(event.count) ? event.count : 0;
}

function newPlayer(seat, name, mine) {
  const player = {
    seat, name, hand_size: 0, discard_top: null, in_play: [], set_aside: [], turns: 0,
    owned: { ...STARTING_DECK }, owned_known: true, resigned: false,
    top_known: true,
  };
  if (mine) Object.assign(player, { hand: [], deck_size: 0, looking: [] });
  return player;
}

export class GameState {
  /**
   * @param {number|null} viewer your seat, or null for a spectator
   * @param {Object<string, number>} costs card id -> cost (from the catalogue)
   * @param {boolean} everyone a complete replay: every event shows its cards, so every
   *   player's hand is followed
   */
  constructor(viewer, costs, everyone = false) {
    this.viewer = viewer;
    this.costs = costs;
    this.everyone = everyone;
    this.seq = 0;
    this.started = false;
    this.edition = 2;
    this.kingdom = [];
    this.supply = {};
    this.trash = [];
    this.turn = { number: 0, player: 0, phase: "action", actions: 1, buys: 1, coins: 0 };
    this.players = [];
    this.decision = null;
    this.result = null;
    this.merchants = 0;
    this.silverPlayed = false;
  }

  sees(seat) {
    return this.everyone || seat === this.viewer;
  }

  /** Start again from a whole view (`seq` is its last event). */
  applySnapshot(seq, view) {
    this.seq = seq;
    this.started = true;
    this.edition = view.edition;
    this.kingdom = [...view.kingdom];
    this.supply = { ...view.supply };
    this.trash = [...view.trash];
    this.turn = { ...view.turn };
    this.decision = view.decision;
    this.result = view.result;
    const fresh = view.turn.number <= 1 && view.players.every((p) => p.in_play.length === 0);
    this.players = view.players.map((seen) => {
      const player = newPlayer(seen.seat, seen.name, "hand" in seen);
      Object.assign(player, {
        hand_size: seen.hand_size, discard_top: seen.discard_top, in_play: [...seen.in_play],
        set_aside: [...seen.set_aside], turns: seen.turns, owned_known: fresh,
      });
      if ("hand" in seen) {
        Object.assign(player, {
          hand: [...seen.hand], deck_size: seen.deck_size, looking: [...seen.looking],
        });
      }
      return player;
    });
    // A Merchant's +1 coin for the first Silver cannot be seen in a view: a snapshot
    // taken after a Merchant and before a Silver misses it (docs/CLIENTS.md).
    this.merchants = 0;
    this.silverPlayed = view.players.some((p) => p.in_play.includes("silver"));
  }

  /** Count everyone's cards from the public events of the whole game so far. */
  recountOwned(events) {
    for (const player of this.players) {
      player.owned = { ...STARTING_DECK };
      player.owned_known = true;
    }
    for (const event of events) this.countOwned(event, false);
  }

  /** A version 2 `update`: its events (the last numbered `seq`), then the decision. */
  applyUpdate(seq, events, decision) {
    events.forEach((event, index) => {
      const number = seq - events.length + 1 + index;
      if (number > this.seq) this.applyEvent(number, event);
    });
    this.decision = decision;
  }

  applyEvent(seq, event) {
    this.seq = seq;
    const { kind, zone } = event;
    const data = event.data && typeof event.data === "object" ? event.data : {};
    if (kind === "game_started") {
      this.started = true;
      this.edition = data.edition;
      this.kingdom = [...data.kingdom];
      this.supply = { ...data.supply };
      this.players = data.players.map((name, seat) => newPlayer(seat, name, this.sees(seat)));
      this.turn.player = data.first_player;
      return;
    }
    this.countOwned(event, true);
    const player = Number.isInteger(event.player) ? this.players[event.player] : undefined;
    if (kind === "turn_started") {
      Object.assign(this.turn, {
        number: data.turn, player: event.player, phase: "action", actions: 1, buys: 1, coins: 0,
      });
      this.merchants = 0;
      this.silverPlayed = false;
      if (player) player.turns = data.player_turn;
    } else if (kind === "phase") {
      this.turn.phase = zone;
    } else if (kind === "game_ended") {
      this.result = data;
      this.turn.phase = "game_over";
      this.decision = null;
    } else if (kind === "resigned" && player) {
      player.resigned = true;
    }
    if (!player) return;
    this.move(player, event);
    this.track(player, event);
    if (kind === "played" && event.player === this.turn.player) {
      const cards = event.cards || [];
      this.addCoins(cards);
      if (this.turn.phase === "action" && zone === "hand" && !event.source) {
        this.turn.actions -= cards.length; // an Action played from hand in its turn
      }
      for (const card of cards) {
        const [actions, buys] = ACTION_EXTRAS[card] || [0, 0];
        this.turn.actions += actions;
        this.turn.buys += buys;
      }
    } else if (kind === "bought") {
      this.turn.buys -= event.cards.length;
      for (const card of event.cards) this.turn.coins -= this.costs[card] ?? 0;
    } else if (kind === "trashed" && event.source === "moneylender"
               && event.cards?.length === 1 && event.cards[0] === "copper") {
      this.turn.coins += MONEYLENDER_COINS;
    }
  }

  /** Gains and trashes are public: they change what a player owns (and, when `board`,
   *  the Supply and the trash). */
  countOwned(event, board) {
    const { kind } = event;
    const player = Number.isInteger(event.player) ? this.players[event.player] : undefined;
    if (!player || !["bought", "gained", "trashed"].includes(kind)) return;
    for (const card of event.cards || []) {
      if (kind === "trashed") {
        player.owned[card] = (player.owned[card] || 0) - 1;
        if (board) this.trash.push(card);
      } else {
        player.owned[card] = (player.owned[card] || 0) + 1;
        if (!board) continue;
        if (event.data?.from === "trash") remove(this.trash, [card]);
        else this.supply[card] = (this.supply[card] ?? 1) - 1;
      }
    }
  }

  addCoins(cards) {
    for (const card of cards) {
      if (card in TREASURE_COINS) {
        this.turn.coins += TREASURE_COINS[card];
        if (card === "silver" && !this.silverPlayed) {
          this.silverPlayed = true;
          this.turn.coins += this.merchants;
        }
      } else {
        this.turn.coins += ACTION_COINS[card] || 0;
        if (card === "merchant") this.merchants += 1;
      }
    }
  }

  /** Hands, play areas, set-aside cards, and the cards you look at. */
  move(player, event) {
    const { kind, zone } = event;
    const cards = event.cards || [];
    const count = countOf(event);
    const hand = player.hand;
    const fromHand = zone === "hand";
    if (kind === "drew" || kind === "put_in_hand" || (kind === "gained" && zone === "hand")) {
      player.hand_size += count;
      if (hand) hand.push(...cards);
    } else if (kind === "played") {
      if (fromHand) {
        player.hand_size -= count;
        if (hand) remove(hand, cards);
      }
      if (zone !== "in_play") player.in_play.push(...cards);
    } else if (kind === "discarded" && zone === "cleanup") {
      player.hand_size = 0;
      player.in_play = [];
      if (hand) hand.length = 0;
    } else if (kind === "trashed" && zone === "in_play") { // Feast trashes itself
      remove(player.in_play, cards);
    } else if (["discarded", "trashed", "put_on_deck", "set_aside"].includes(kind) && fromHand) {
      player.hand_size -= count;
      if (hand) remove(hand, cards);
    }
    if (kind === "revealed" && zone === "deck") player.set_aside.push(...cards);
    if (kind === "set_aside") player.set_aside.push(...cards);
    if (zone === "set_aside" && kind !== "set_aside") remove(player.set_aside, cards);
    player.hand_size = Math.max(player.hand_size, 0);
  }

  /** The deck's size (the owner's own knowledge), the cards looked at, and the public top
   *  card of the discard pile. */
  track(player, event) {
    const { kind, zone, source } = event;
    const cards = event.cards || [];
    const count = countOf(event);
    if ("deck_size" in player) {
      const looking = player.looking;
      if (kind === "shuffled" || kind === "put_on_deck" || (kind === "gained" && zone === "deck")) {
        player.deck_size += count;
      } else if (kind === "drew" || (kind === "revealed" && zone === "deck")
                 || (kind === "discarded" && zone === "deck" && source === "vassal")) {
        player.deck_size -= count;
      } else if (kind === "looked_at") {
        player.deck_size -= count;
        looking.push(...cards);
      } else if (kind === "deck_to_discard") {
        player.deck_size = 0;
      }
      if (zone === "deck" && source === "sentry" && kind !== "looked_at") remove(looking, cards);
    }
    // The discard pile's top: every discard and gain onto it says which card ends on top,
    // and every event that takes a card off it (Vassal, Harbinger) the one it uncovers.
    if (kind === "discarded" || ((kind === "bought" || kind === "gained") && zone === "discard")) {
      const top = cards.length ? cards[cards.length - 1] : event.top;
      if (typeof top === "string") {
        player.discard_top = top;
        player.top_known = true;
      }
    } else if (kind === "shuffled") {
      player.discard_top = null;
      player.top_known = true;
    } else if (kind === "deck_to_discard" && player.discard_top === null) {
      player.top_known = false; // a deck moved there face down shows no top card
    } else if (zone === "discard" && (kind === "played" || kind === "put_on_deck")) {
      // servers before `discard_tops` (docs/PROTOCOL.md 9.1) did not say the new top
      const told = typeof event.data === "object" && event.data !== null
        && "discard_top" in event.data;
      player.discard_top = told ? event.data.discard_top : null;
      player.top_known = told;
    }
  }

  /** The pending decision if it is yours to answer (it then carries options). */
  myDecision() {
    const decision = this.decision;
    if (decision && decision.player === this.viewer && Array.isArray(decision.options)) {
      return decision;
    }
    return null;
  }

  /** A player's victory points as far as the page knows what they own. */
  points(seat) {
    const owned = this.players[seat].owned;
    const cards = Object.values(owned).reduce((sum, n) => sum + Math.max(n, 0), 0);
    return (owned.estate || 0) + 3 * (owned.duchy || 0) + 6 * (owned.province || 0)
      - (owned.curse || 0) + (owned.gardens || 0) * Math.floor(cards / 10);
  }
}
