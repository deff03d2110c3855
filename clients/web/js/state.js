// One game as this page knows it: the latest view the server sent (docs/PROTOCOL.md, "View
// map"). A `snapshot` and every `update` carry the game as this viewer may see it, so the
// whole rule is "on a snapshot or an update, the game is its view"; the events are for the
// log. Nothing here knows what a card costs or does: counters, what each player owns and
// their points are the server's.
// A complete replay has no views, only events that show every card: ReplayState follows
// where the cards go through them (piles, hands, play areas), never what they do.
// Pure: no DOM, no network (tests run it under Node against the engine).

export class GameState {
  /** @param {number|null} viewer your seat, or null for a spectator */
  constructor(viewer) {
    this.viewer = viewer;
    this.everyone = false;
    this.seq = 0;
    this.started = false;
    this.edition = 2;
    this.kingdom = [];
    this.supply = {};
    this.trash = [];
    this.turn = {
      number: 0, player: 0, player_turn: 0, phase: "action", actions: 1, buys: 1, coins: 0,
    };
    this.players = [];
    this.decision = null;
    this.result = null;
    this.seats = []; // the REST summary's seats: who is an account's, who a bot's (names.js)
    this.timedOut = new Set(); // the seats the clock resigned, as the events said
  }

  /** Note a seat the clock resigned (a `resigned` event's reason, docs/PROTOCOL.md). */
  noteTimeOut(event) {
    if (event.kind === "resigned" && event.data?.reason === "timed_out") {
      this.timedOut.add(event.player);
    }
  }

  /** A player's seat as names.js draws it: the view's name, the summary's marks. */
  seatOf(seat) {
    return { ...this.seats[seat], name: this.players[seat]?.name };
  }

  /** Start again from a whole view (`seq` is its last event). */
  applySnapshot(seq, view) {
    this.seq = seq;
    this.take(view);
    this.decision = view.decision;
  }

  /** A version 2 `update`: the game is now its `view` and `decision`. Returns its events
   *  not held before, as [number, event] (an update after a resume may repeat some). */
  applyUpdate(seq, events, decision, view) {
    const first = seq - events.length + 1;
    const fresh = events.map((event, index) => [first + index, event])
      .filter(([number]) => number > this.seq);
    this.seq = Math.max(this.seq, seq);
    for (const [, event] of fresh) this.noteTimeOut(event);
    this.take(view);
    this.decision = decision;
    return fresh;
  }

  take(view) {
    this.started = true;
    this.edition = view.edition;
    this.kingdom = view.kingdom;
    this.supply = view.supply;
    this.trash = view.trash;
    this.turn = view.turn;
    this.players = view.players;
    this.result = view.result;
  }

  /** The pending decision if it is yours to answer (it then carries options). */
  myDecision() {
    const decision = this.decision;
    if (decision && decision.player === this.viewer && Array.isArray(decision.options)) {
      return decision;
    }
    return null;
  }
}

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

/** A complete replay's game, followed through its events: whose turn, the piles, the
 *  trash, every hand, play areas, set-aside cards and the tops of discard piles. The
 *  counters of a turn and the points are not known (`turn.coins` and `points` stay
 *  undefined); the end's result says the scores. */
export class ReplayState extends GameState {
  constructor() {
    super(null);
    this.everyone = true;
    this.turn = { number: 0, player: 0, player_turn: 0, phase: "action" };
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
      this.players = data.players.map((name, seat) => ({
        seat, name, hand: [], hand_size: 0, discard_top: null, in_play: [], set_aside: [],
        turns: 0, resigned: false,
      }));
      this.turn.player = data.first_player;
      return;
    }
    const player = Number.isInteger(event.player) ? this.players[event.player] : undefined;
    if (kind === "turn_started") {
      Object.assign(this.turn, {
        number: data.turn, player: event.player, player_turn: data.player_turn, phase: "action",
      });
      if (player) player.turns = data.player_turn;
    } else if (kind === "phase") {
      this.turn.phase = zone;
    } else if (kind === "game_ended") {
      this.result = data;
      this.turn.phase = "game_over";
    } else if (kind === "resigned" && player) {
      player.resigned = true;
      this.noteTimeOut(event);
    }
    if (!player) return;
    this.piles(event);
    this.move(player, event);
    this.top(player, event);
  }

  /** Gains take a card from its pile (or the trash); trashing puts it there. */
  piles(event) {
    for (const card of event.cards || []) {
      if (event.kind === "trashed") this.trash.push(card);
      else if (event.kind === "bought" || event.kind === "gained") {
        if (event.data?.from === "trash") remove(this.trash, [card]);
        else this.supply[card] = (this.supply[card] ?? 1) - 1;
      }
    }
  }

  /** Hands, play areas and set-aside cards. */
  move(player, event) {
    const { kind, zone } = event;
    const cards = event.cards || [];
    const count = countOf(event);
    const fromHand = zone === "hand";
    if (kind === "drew" || kind === "put_in_hand" || (kind === "gained" && zone === "hand")) {
      player.hand_size += count;
      player.hand.push(...cards);
    } else if (kind === "played") {
      if (fromHand) {
        player.hand_size -= count;
        remove(player.hand, cards);
      }
      if (zone !== "in_play") player.in_play.push(...cards);
    } else if (kind === "discarded" && zone === "cleanup") {
      player.hand_size = 0;
      player.in_play = [];
      player.hand.length = 0;
    } else if (kind === "trashed" && zone === "in_play") { // a card that trashes itself
      remove(player.in_play, cards);
    } else if (["discarded", "trashed", "put_on_deck", "set_aside"].includes(kind) && fromHand) {
      player.hand_size -= count;
      remove(player.hand, cards);
    }
    if (kind === "revealed" && zone === "deck") player.set_aside.push(...cards);
    if (kind === "set_aside") player.set_aside.push(...cards);
    if (zone === "set_aside" && kind !== "set_aside") remove(player.set_aside, cards);
    player.hand_size = Math.max(player.hand_size, 0);
  }

  /** The top card of the discard pile: every discard and gain onto it says which card
   *  ends on top, every event that takes a card off it the one it uncovers. */
  top(player, event) {
    const { kind, zone } = event;
    const cards = event.cards || [];
    if (kind === "discarded" || ((kind === "bought" || kind === "gained") && zone === "discard")) {
      const top = cards.length ? cards[cards.length - 1] : event.top;
      if (typeof top === "string") player.discard_top = top;
    } else if (kind === "shuffled") {
      player.discard_top = null;
    } else if (zone === "discard" && (kind === "played" || kind === "put_on_deck")) {
      player.discard_top = event.data?.discard_top ?? null;
    }
  }
}
