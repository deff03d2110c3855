// One event as a sentence of the running log, in the page's language. An event whose cards
// the reader may not see says how many (`count`), and the card on top (`top`) when public.

export const VERBS = {
  en: {
    shuffled: "shuffles", drew: "draws", played: "plays", bought: "buys", gained: "gains",
    trashed: "trashes", discarded: "discards", revealed: "reveals", looked_at: "looks at",
    put_on_deck: "puts onto their deck", put_in_hand: "puts into their hand",
    set_aside: "sets aside", reacted: "reveals",
    deck_to_discard: "puts their deck into their discard pile",
  },
  pl: {
    shuffled: "tasuje", drew: "dobiera", played: "zagrywa", bought: "kupuje", gained: "dodaje",
    trashed: "wyrzuca na Śmietnisko", discarded: "odrzuca", revealed: "odsłania",
    looked_at: "ogląda", put_on_deck: "kładzie na swojej talii", put_in_hand: "bierze na rękę",
    set_aside: "odkłada na bok", reacted: "odsłania",
    deck_to_discard: "kładzie talię na stosie kart odrzuconych",
  },
  sk: {
    shuffled: "mieša", drew: "ťahá", played: "hrá", bought: "kupuje", gained: "získava",
    trashed: "zahadzuje do koša", discarded: "odhadzuje", revealed: "ukazuje",
    looked_at: "pozerá sa na", put_on_deck: "kladie na svoj balíček", put_in_hand: "berie do ruky",
    set_aside: "odkladá bokom", reacted: "ukazuje",
    deck_to_discard: "kladie balíček na odhadzovací balíček",
  },
  lt: {
    shuffled: "maišo", drew: "traukia", played: "žaidžia", bought: "perka", gained: "gauna",
    trashed: "meta į šiukšlyną", discarded: "išmeta", revealed: "atskleidžia",
    looked_at: "žiūri į", put_on_deck: "deda ant savo denio", put_in_hand: "ima į ranką",
    set_aside: "atideda į šalį", reacted: "atskleidžia",
    deck_to_discard: "perkelia denį į išmestų kortų krūvą",
  },
};

export const PHRASES = {
  en: {
    started: (players, kingdom) => `The game starts: ${players}. Kingdom: ${kingdom}.`,
    buy_phase: (who) => `${who} starts the Buy phase.`,
    resigned: (who) => `${who} resigns.`,
    timed_out: (who) => `${who} is out of time and resigns.`,
    ended: "The game is over.",
    on_top: (card) => ` (${card} on top)`,
    against: (who, card, attack) => `${who} reveals ${card} against ${attack}.`,
  },
  pl: {
    started: (players, kingdom) => `Początek gry: ${players}. Królestwo: ${kingdom}.`,
    buy_phase: (who) => `${who}: faza zakupu.`,
    resigned: (who) => `${who} poddaje się.`,
    timed_out: (who) => `${who}: koniec czasu, poddaje się.`,
    ended: "Koniec gry.",
    on_top: (card) => ` (na wierzchu: ${card})`,
    // a card's name stays in the nominative: after a colon, never inflected
    against: (who, card, attack) => `${who} odsłania: ${card} (w odpowiedzi na atak: ${attack}).`,
  },
  // as in Polish, card names stay in the nominative after a colon
  sk: {
    started: (players, kingdom) => `Začiatok hry: ${players}. Kráľovstvo: ${kingdom}.`,
    buy_phase: (who) => `${who}: fáza nákupu.`,
    resigned: (who) => `${who} sa vzdáva.`,
    timed_out: (who) => `${who}: čas vypršal, vzdáva sa.`,
    ended: "Koniec hry.",
    on_top: (card) => ` (navrchu: ${card})`,
    against: (who, card, attack) => `${who} ukazuje: ${card} (ako odpoveď na útok: ${attack}).`,
  },
  lt: {
    started: (players, kingdom) => `Žaidimo pradžia: ${players}. Karalystė: ${kingdom}.`,
    buy_phase: (who) => `${who}: pirkimo fazė.`,
    resigned: (who) => `${who} pasiduoda.`,
    timed_out: (who) => `${who}: baigėsi laikas, pasiduoda.`,
    ended: "Žaidimo pabaiga.",
    on_top: (card) => ` (viršuje: ${card})`,
    against: (who, card, attack) => `${who} atskleidžia: ${card} (atsakant į ataką: ${attack}).`,
  },
};

/** "Ann's turn 12": a turn is named by its player's own count, as the end table and the
 *  terminal client count it (never by the table's count of turns). */
export function turnTitle(i18n, names, seat, number) {
  const who = Number.isInteger(seat) ? (names[seat] ?? `#${seat}`) : "?";
  return i18n.t("turn_title", { who, n: number });
}

/**
 * @returns {{text: string, heading: boolean} | null} null for events a log leaves out
 */
export function describe(event, names, i18n) {
  const lang = i18n.lang;
  const say = PHRASES[lang];
  const who = Number.isInteger(event.player) ? (names[event.player] ?? `#${event.player}`) : "";
  const data = event.data || {};
  const because = event.source ? ` (${i18n.card(event.source)})` : "";
  switch (event.kind) {
    case "game_started":
      return { text: say.started(data.players.join(", "), i18n.many(data.kingdom)), heading: false };
    case "turn_started":
      return { text: turnTitle(i18n, names, event.player, data.player_turn), heading: true };
    case "phase":
      return event.zone === "buy" ? { text: say.buy_phase(who), heading: false } : null;
    case "resigned": // the clock's resignation says so (docs/PROTOCOL.md: `reason`)
      return { text: (data.reason === "timed_out" ? say.timed_out : say.resigned)(who),
        heading: false };
    case "game_ended":
      return { text: say.ended, heading: false };
    case "reacted":
      return {
        text: say.against(who, i18n.many(event.cards || []), i18n.card(event.source)),
        heading: false,
      };
    default:
      break;
  }
  const verb = VERBS[lang][event.kind] ?? event.kind;
  if (event.kind === "shuffled") return { text: `${who} ${verb}.`, heading: false };
  if (Array.isArray(event.cards)) {
    return { text: `${who} ${verb}: ${i18n.many(event.cards)}${because}.`, heading: false };
  }
  if (Number.isInteger(event.count)) {
    const top = event.top ? say.on_top(i18n.card(event.top)) : "";
    // the object of the verb: "odhadzuje 1 kartu", "išmeta 5 kortas" (accusative)
    return { text: `${who} ${verb} ${i18n.count(event.count, "cards_taken")}${top}${because}.`,
      heading: false };
  }
  return { text: `${who} ${verb}${because}.`, heading: false };
}
