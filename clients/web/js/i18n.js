// The page's words in English and Polish (the Polish rulebook's terms: Zasoby, dodaj,
// odrzuć, wyrzuć na Śmietnisko, talia, stos kart odrzuconych), and card names and texts
// from the catalogue (`name_pl`, and `text_pl` where the server has it).

export const LANGUAGES = ["en", "pl"];

const WORDS = {
  en: {
    title: "Dominion", lobby: "Lobby", language: "Polski", language_name: "English",
    open_tables: "Open tables", running_games: "Running games", finished_games: "Finished games",
    none: "none", refresh: "Refresh", create_table: "Create a table", your_name: "Your name",
    seats: "Seats", edition: "Edition", kingdom: "Kingdom", kingdom_recommended: "Recommended",
    kingdom_random: "Random", kingdom_chosen: "Ten chosen cards", seat_n: "Seat {n}",
    person: "a person", bot: "bot: {name}", create: "Create", join: "Join", watch: "Watch",
    replay: "Replay", share: "Link to this table", seat_of: "{taken} of {seats} seats",
    turn_n: "turn {n}", chosen_count: "{n} of 10 chosen", table: "Table {id}",
    waiting: "Waiting for players: {taken} of {seats} seats taken.", you: "you",
    reconnecting: "Connection lost: reconnecting…", connected: "Connected.",
    replaced: "This seat was opened in another window.",
    supply: "Supply", trash: "Trash", players: "Players", your_hand: "Your hand",
    in_play: "In play", set_aside: "Set aside", looking: "You are looking at",
    deck: "Deck", discard_top: "Discard pile top", hand: "Hand", turns: "Turns",
    log: "Log", chat: "Chat", say: "Say", send: "Send",
    turn_line: "Turn {n}: {who}", phase_action: "Action phase", phase_buy: "Buy phase",
    phase_cleanup: "Clean-up", phase_game_over: "Game over",
    actions: "Actions", buys: "Buys", coins: "Coins", cost: "Cost", left: "Left",
    empty: "empty", unknown: "unknown", cards_n: "{n} cards", owned_vp: "VP owned",
    info: "About {card}", close: "Close",
    your_decision: "Your decision", waiting_for: "Waiting for {who} ({kind}).",
    confirm: "Confirm", choose_none: "Choose nothing", choose_n: "Choose {range}.",
    choose_order: "Click the cards in order: the first ends on top.",
    order_n: "#{n}", selected: "chosen", answered_forced: "Answered for you (the only choice): {what}.",
    play_all: "Play all Treasures", end_actions: "End Action phase", end_turn: "End turn",
    end_phase: "End phase", yes: "Yes", no: "No", trash_it: "Trash", discard_it: "Discard",
    keep_it: "Put back", play_x: "Play {card}", buy_x: "Buy {card}",
    cannot_buy: "{card} costs {cost}: you have {coins} coins and can buy only what is offered.",
    cannot_play: "{card} cannot be played now.", not_your_turn: "It is not your decision now.",
    refused: "The server refused: {message}", resign: "Resign", resign_sure: "Really resign?",
    game_over: "The game is over", winners: "Winner: {who}", winners_many: "Shared victory: {who}",
    abandoned: "The game was abandoned: nobody wins.", why_tie: "Tied on points: {who} had fewer turns.",
    why_shared: "Tied on points and turns: the victory is shared.",
    why_resigned: "Resigned, so they cannot win: {who}.",
    score: "Score", resigned: "resigned", download: "Download the replay:",
    spectating: "You are watching as a spectator.", back: "Back to the lobby",
    replay_of: "Replay of {id}", step: "Event {n} of {total}", first: "Start", prev: "Back",
    next: "Forward", last: "End", jump_turn: "Jump to turn", go: "Go",
    seat_lost: "No seat token for this table in this browser: join it or watch it.",
    not_found: "No such game.", loading: "Loading…", join_as: "Join as",
    bot_strategy: "Bot strategy", no_games: "No games.", seats_taken: "Players: {names}",
    vp: "{n} VP", winner: "winner",
  },
  pl: {
    title: "Dominion", lobby: "Poczekalnia", language: "English", language_name: "Polski",
    open_tables: "Wolne stoły", running_games: "Trwające gry", finished_games: "Zakończone gry",
    none: "brak", refresh: "Odśwież", create_table: "Nowy stół", your_name: "Twoje imię",
    seats: "Miejsca", edition: "Edycja", kingdom: "Królestwo", kingdom_recommended: "Zalecane",
    kingdom_random: "Losowe", kingdom_chosen: "Dziesięć wybranych kart", seat_n: "Miejsce {n}",
    person: "człowiek", bot: "bot: {name}", create: "Utwórz", join: "Dołącz", watch: "Oglądaj",
    replay: "Zapis gry", share: "Link do tego stołu", seat_of: "{taken} z {seats} miejsc",
    turn_n: "tura {n}", chosen_count: "wybrano {n} z 10", table: "Stół {id}",
    waiting: "Czekamy na graczy: zajęte {taken} z {seats} miejsc.", you: "ty",
    reconnecting: "Utracono połączenie: łączę ponownie…", connected: "Połączono.",
    replaced: "To miejsce otwarto w innym oknie.",
    supply: "Zasoby", trash: "Śmietnisko", players: "Gracze", your_hand: "Twoja ręka",
    in_play: "W grze", set_aside: "Odłożone na bok", looking: "Oglądasz",
    deck: "Talia", discard_top: "Wierzch stosu kart odrzuconych", hand: "Ręka", turns: "Tury",
    log: "Przebieg gry", chat: "Czat", say: "Napisz", send: "Wyślij",
    turn_line: "Tura {n}: {who}", phase_action: "Faza akcji", phase_buy: "Faza zakupu",
    phase_cleanup: "Faza porządków", phase_game_over: "Koniec gry",
    actions: "Akcje", buys: "Zakupy", coins: "Monety", cost: "Koszt", left: "Zostało",
    empty: "pusty", unknown: "nieznana", cards_n: "kart: {n}", owned_vp: "PZ w posiadaniu",
    info: "O karcie {card}", close: "Zamknij",
    your_decision: "Twoja decyzja", waiting_for: "Czekamy na: {who} ({kind}).",
    confirm: "Zatwierdź", choose_none: "Nic nie wybieraj", choose_n: "Wybierz {range}.",
    choose_order: "Klikaj karty po kolei: pierwsza będzie na wierzchu.",
    order_n: "#{n}", selected: "wybrana", answered_forced: "Odpowiedziano za ciebie (jedyny wybór): {what}.",
    play_all: "Zagraj wszystkie Skarby", end_actions: "Zakończ fazę akcji", end_turn: "Zakończ turę",
    end_phase: "Zakończ fazę", yes: "Tak", no: "Nie", trash_it: "Wyrzuć na Śmietnisko",
    discard_it: "Odrzuć", keep_it: "Połóż z powrotem", play_x: "Zagraj: {card}", buy_x: "Kup: {card}",
    cannot_buy: "{card} kosztuje {cost}: masz {coins} monet i możesz kupić tylko to, co jest w ofercie.",
    cannot_play: "Nie można teraz zagrać: {card}.", not_your_turn: "To nie twoja decyzja.",
    refused: "Serwer odmówił: {message}", resign: "Poddaj się", resign_sure: "Na pewno się poddać?",
    game_over: "Koniec gry", winners: "Zwycięzca: {who}", winners_many: "Wspólne zwycięstwo: {who}",
    abandoned: "Gra została porzucona: nikt nie wygrywa.",
    why_tie: "Remis na punkty: {who} rozegrał(a) mniej tur.",
    why_shared: "Remis na punkty i tury: zwycięstwo jest wspólne.",
    why_resigned: "Poddali się i nie mogą wygrać: {who}.",
    score: "Punkty", resigned: "poddał(a) się", download: "Pobierz zapis gry:",
    spectating: "Oglądasz grę jako widz.", back: "Wróć do poczekalni",
    replay_of: "Zapis gry {id}", step: "Zdarzenie {n} z {total}", first: "Początek", prev: "Wstecz",
    next: "Dalej", last: "Koniec", jump_turn: "Skocz do tury", go: "Idź",
    seat_lost: "Ta przeglądarka nie ma żetonu miejsca przy tym stole: dołącz albo oglądaj.",
    not_found: "Nie ma takiej gry.", loading: "Wczytywanie…", join_as: "Dołącz jako",
    bot_strategy: "Strategia bota", no_games: "Brak gier.", seats_taken: "Gracze: {names}",
    vp: "{n} PZ", winner: "zwycięzca",
  },
};

const DECISION_KINDS = {
  en: {
    play_action: "play an Action", buy: "buy", discard: "discard", trash: "trash",
    gain: "gain a card", topdeck: "put a card onto the deck", set_aside: "set aside",
    play: "play a card", react: "reveal a Reaction", yes_no: "yes or no",
    choose_fate: "a card's fate", order: "order cards",
  },
  pl: {
    play_action: "zagraj kartę Akcji", buy: "zakup", discard: "odrzuć", trash: "wyrzuć na Śmietnisko",
    gain: "dodaj kartę", topdeck: "połóż kartę na talii", set_aside: "odłóż na bok",
    play: "zagraj kartę", react: "odsłoń Reakcję", yes_no: "tak czy nie",
    choose_fate: "los karty", order: "kolejność kart",
  },
};

/** What a decision asks, for people; the English prompt comes from the server. */
const PROMPTS_PL = {
  play_action: "Zagraj kartę Akcji albo zakończ fazę akcji.",
  buy: "Zagraj Skarby, kup kartę albo zakończ turę.",
  discard: "Odrzuć karty z ręki.",
  trash: "Wyrzuć karty na Śmietnisko.",
  gain: "Dodaj kartę z Zasobów.",
  topdeck: "Połóż kartę z ręki na swojej talii.",
  set_aside: "Odłożyć tę kartę Akcji na bok zamiast brać ją na rękę?",
  play: "Zagraj kartę.",
  react: "Odsłonić Fosę, by uniknąć Ataku?",
  yes_no: "Tak czy nie?",
  choose_fate: "Wyrzuć na Śmietnisko, odrzuć albo połóż z powrotem.",
  order: "Ułóż karty, które wracają na talię.",
};

function initialLanguage(storage, navigatorLanguages) {
  const saved = storage?.getItem("dominion.lang");
  if (LANGUAGES.includes(saved)) return saved;
  const wanted = (navigatorLanguages || []).map((l) => l.slice(0, 2).toLowerCase());
  return wanted.find((l) => LANGUAGES.includes(l)) || "en";
}

export class I18n {
  constructor(storage, navigatorLanguages) {
    this.storage = storage;
    this.lang = initialLanguage(storage, navigatorLanguages);
    this.cards = new Map();
  }

  setLanguage(lang) {
    this.lang = lang;
    this.storage?.setItem("dominion.lang", lang);
  }

  /** The catalogue from `GET /api/v1/cards`; a card of both editions keeps its newest text. */
  setCatalogue(body, edition) {
    this.cards = new Map();
    const editions = Object.keys(body.editions).sort((a, b) => (
      (Number(a) === edition ? 1 : 0) - (Number(b) === edition ? 1 : 0) || Number(a) - Number(b)));
    for (const key of editions) {
      for (const card of body.editions[key]) this.cards.set(card.id, card);
    }
  }

  t(key, vars = {}) {
    const text = WORDS[this.lang][key] ?? WORDS.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
  }

  card(id) {
    if (!id) return "–";
    const entry = this.cards.get(id);
    if (!entry) return id.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
    return (this.lang === "pl" && entry.name_pl) || entry.name;
  }

  cardText(id) {
    const entry = this.cards.get(id);
    if (!entry) return "";
    return (this.lang === "pl" && entry.text_pl) || entry.text;
  }

  cost(id) {
    return this.cards.get(id)?.cost;
  }

  kind(decisionKind) {
    return DECISION_KINDS[this.lang][decisionKind] ?? decisionKind;
  }

  prompt(decision) {
    if (this.lang === "pl" && PROMPTS_PL[decision.kind]) return PROMPTS_PL[decision.kind];
    return decision.prompt;
  }

  /** Cards as "2 × Copper, Estate". */
  many(cards) {
    if (!cards.length) return this.t("none");
    const counts = new Map();
    for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
    return [...counts].map(([card, n]) => (n > 1 ? `${n} × ${this.card(card)}` : this.card(card)))
      .join(", ");
  }
}
