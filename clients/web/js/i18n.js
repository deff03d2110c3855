// The page's words in English and Polish (the Polish rulebook's terms: Zasoby, dodaj,
// odrzuć, wyrzuć na Śmietnisko, talia, stos kart odrzuconych), and card names and texts
// from the catalogue (`name_pl`, and `text_pl` where the server has it).

export const LANGUAGES = ["en", "pl"];

/** Every word of the page: key -> [English, Polish]. */
const WORDS = {
  title: ["Dominion", "Dominion"],
  lobby: ["Lobby", "Poczekalnia"],
  // the player's guide (guide.html) is in English only: the Polish link says so
  guide: ["How to play", "Jak grać (po angielsku)"],
  language: ["Polski", "English"],
  open_tables: ["Open tables", "Wolne stoły"],
  running_games: ["Running games", "Trwające gry"],
  finished_games: ["Finished games", "Zakończone gry"],
  none: ["none", "brak"],
  refresh: ["Refresh", "Odśwież"],
  create_table: ["Create a table", "Nowy stół"],
  your_name: ["Your name", "Twoje imię"],
  seats: ["Seats", "Miejsca"],
  edition: ["Edition", "Edycja"],
  kingdom: ["Kingdom", "Królestwo"],
  kingdom_recommended: ["Recommended", "Zalecane"],
  kingdom_random: ["Random", "Losowe"],
  kingdom_chosen: ["Ten chosen cards", "Dziesięć wybranych kart"],
  seat_n: ["Seat {n}", "Miejsce {n}"],
  person: ["a person", "człowiek"],
  bot_of: ["{name} bot", "bot {name}"],
  bot_level: ["{bot}, level {level}", "{bot}, poziom {level}"],
  bot_mark: ["BOT", "BOT"],
  bot_mark_name: ["bot", "bot"],
  seat_left: ["left", "opuszcza grę"],
  // personal access tokens and bot accounts (tokens.js)
  tokens_title: ["{name}: access tokens", "{name}: tokeny dostępu"],
  tokens_about: ["A personal access token lets a program (a bot, the dominion command, another client) act as your account, as far as its scopes allow. Keep it secret; revoke it when it is no longer used.",
    "Osobisty token dostępu pozwala programowi (botowi, poleceniu dominion, innemu klientowi) działać jako Twoje konto, w granicach jego zakresów. Zachowaj go w tajemnicy; unieważnij, gdy nie jest już używany."],
  tokens_sign_in: ["Sign in to manage your access tokens.", "Zaloguj się, aby zarządzać tokenami dostępu."],
  tokens_create: ["Create a token", "Utwórz token"],
  tokens_description: ["Description", "Opis"],
  tokens_scopes: ["Scopes", "Zakresy"],
  tokens_created: ["Created", "Utworzony"],
  tokens_expires: ["Expires", "Wygasa"],
  tokens_used: ["Last used", "Ostatnio użyty"],
  tokens_revoke: ["Revoke", "Unieważnij"],
  tokens_never: ["never", "nigdy"],
  tokens_unused: ["not yet", "jeszcze nie"],
  tokens_days: ["in {n} days", "za {n} dni"],
  tokens_none: ["No tokens yet.", "Brak tokenów."],
  tokens_copy_now: ["Copy your new token now: it will not be shown again.", "Skopiuj nowy token teraz: nie zostanie pokazany ponownie."],
  tokens_is_bot: ["This is a bot account: it plays only with bot:play tokens.", "To konto bota: gra tylko z tokenami bot:play."],
  tokens_bot_title: ["Bot account", "Konto bota"],
  tokens_bot_about: ["An account that has never played may become a bot account, for ever: it then plays only through bot:play tokens and is marked as a bot wherever its name is shown.",
    "Konto, które nigdy nie grało, może na zawsze stać się kontem bota: gra wtedy tylko przez tokeny bot:play i jest oznaczone jako bot wszędzie, gdzie widać jego nazwę."],
  tokens_bot_button: ["Make this a bot account", "Zmień na konto bota"],
  tokens_bot_confirm: ["Make this account a bot account? This cannot be undone.", "Zmienić to konto na konto bota? Tego nie można cofnąć."],
  create: ["Create", "Utwórz"],
  join: ["Join", "Dołącz"],
  watch: ["Watch", "Oglądaj"],
  replay: ["Replay", "Zapis gry"],
  share: ["Link to this table", "Link do tego stołu"],
  seat_of: ["{taken} of {seats} seats", "{taken} z {seats} miejsc"],
  turns_played: ["turns played: {n}", "rozegrane tury: {n}"],
  chosen_count: ["{n} of 10 chosen", "wybrano {n} z 10"],
  table: ["Table {id}", "Stół {id}"],
  waiting: [
    "Waiting for players: {taken} of {seats} seats taken.",
    "Czekamy na graczy: zajęte {taken} z {seats} miejsc.",
  ],
  you: ["you", "ty"],
  reconnecting: ["Connection lost: reconnecting…", "Utracono połączenie: łączę ponownie…"],
  replaced: ["This seat was opened in another window.", "To miejsce otwarto w innym oknie."],
  supply: ["Supply", "Zasoby"],
  trash: ["Trash", "Śmietnisko"],
  players: ["Players", "Gracze"],
  your_hand: ["Your hand", "Twoja ręka"],
  in_play: ["In play", "W grze"],
  set_aside: ["Set aside", "Odłożone na bok"],
  looking: ["You are looking at", "Oglądasz"],
  deck: ["Deck", "Talia"],
  discard_top: ["Discard pile top", "Wierzch stosu kart odrzuconych"],
  hand: ["Hand", "Ręka"],
  turns: ["Turns", "Tury"],
  log: ["Log", "Przebieg gry"],
  chat: ["Chat", "Czat"],
  say: ["Say", "Napisz"],
  send: ["Send", "Wyślij"],
  turn_title: ["{who}'s turn {n}", "{who}: tura {n}"],
  phase_action: ["Action phase", "Faza akcji"],
  phase_buy: ["Buy phase", "Faza zakupu"],
  phase_cleanup: ["Clean-up", "Faza porządków"],
  phase_game_over: ["Game over", "Koniec gry"],
  actions: ["Actions", "Akcje"],
  buys: ["Buys", "Zakupy"],
  coins: ["Coins", "Monety"],
  cost: ["Cost", "Koszt"],
  left: ["Left", "Zostało"],
  empty: ["empty", "pusty"],
  owned_vp: ["VP owned", "PZ w posiadaniu"],
  close: ["Close", "Zamknij"],
  your_decision: ["Your decision", "Twoja decyzja"],
  waiting_for: ["Waiting for {who} ({kind}).", "Czekamy na: {who} ({kind})."],
  confirm: ["Confirm", "Zatwierdź"],
  choose_none: ["Choose none", "Nic nie wybieraj"],
  play_none: ["Play nothing", "Nie zagrywaj niczego"],
  discard_none: ["Discard nothing", "Nic nie odrzucaj"],
  trash_none: ["Trash nothing", "Nic nie wyrzucaj"],
  choose_n: ["Choose {range}.", "Wybierz {range}."],
  choose_order: [
    "Click the cards in order: the first ends on top.",
    "Klikaj karty po kolei: pierwsza będzie na wierzchu.",
  ],
  order_n: ["#{n}", "#{n}"],
  answered_forced: [
    "Answered for you (the only choice): {what}.",
    "Odpowiedziano za ciebie (jedyny wybór): {what}.",
  ],
  play_all: ["Play all Treasures", "Zagraj wszystkie Skarby"],
  end_actions: ["End Action phase", "Zakończ fazę akcji"],
  end_turn: ["End turn", "Zakończ turę"],
  end_phase: ["End phase", "Zakończ fazę"],
  yes: ["Yes", "Tak"],
  no: ["No", "Nie"],
  trash_it: ["Trash", "Wyrzuć na Śmietnisko"],
  discard_it: ["Discard", "Odrzuć"],
  keep_it: ["Put back", "Połóż z powrotem"],
  play_x: ["Play {card}", "Zagraj: {card}"],
  buy_x: ["Buy {card}", "Kup: {card}"],
  cannot_buy: [
    "{card} costs {cost}: you have {coins} and can buy only what is offered.",
    "{card} kosztuje {cost}: masz {coins} i możesz kupić tylko to, co jest w ofercie.",
  ],
  cannot_play: ["{card} cannot be played now.", "Nie można teraz zagrać: {card}."],
  not_your_turn: ["It is not your decision now.", "To nie twoja decyzja."],
  refused: ["The server refused: {message}", "Serwer odmówił: {message}"],
  resign: ["Resign", "Poddaj się"],
  resign_sure: ["Really resign?", "Na pewno się poddać?"],
  game_over: ["The game is over", "Koniec gry"],
  winners: ["Winner: {who}", "Wygrywa: {who}"],
  winners_many: ["Shared victory: {who}", "Wspólne zwycięstwo: {who}"],
  set_aside_card: [
    "Set aside {card} instead of keeping it in hand?",
    "Odłożyć na bok kartę {card} zamiast brać ją na rękę?",
  ],
  why_provinces: ["The Provinces are gone.", "Skończyły się Prowincje."],
  why_piles: ["Piles empty: {piles}.", "Puste stosy: {piles}."],
  abandoned: ["The game was abandoned: nobody wins.", "Gra została porzucona: nikt nie wygrywa."],
  abandoned_no_result: ["The game was abandoned: it ended with no result.",
    "Gra została przerwana: zakończyła się bez wyniku."],
  abandoned_reason: ["Why: {reason}", "Powód: {reason}"],
  chat_removed: ["(removed by a moderator)", "(usunięte przez moderatora)"],
  why_tie: [
    "Tied on points: {who} had fewer turns.",
    "Remis na punkty: mniej rozegranych tur ma {who}.",
  ],
  why_shared: [
    "Tied on points and turns: the victory is shared.",
    "Remis na punkty i tury: zwycięstwo jest wspólne.",
  ],
  why_resigned: ["Resigned, so they cannot win: {who}.", "Poddanie się wyklucza wygraną: {who}."],
  rating_column: ["Rating", "Ranking"],
  outcome_won: ["Won", "Wygrana"],
  outcome_lost: ["Lost", "Przegrana"],
  outcome_shared: ["Shared win", "Wspólna wygrana"],
  versus: ["against", "przeciw"],
  rating_after: ["{after}{mark} ({change})", "{after}{mark} ({change})"],
  rated_applied: ["Rated game: each player's rating changed as shown.",
    "Gra rankingowa: ranking każdego gracza zmienił się, jak widać."],
  rated_waiting: ["Rated game: the ratings are being updated.",
    "Gra rankingowa: rankingi są właśnie aktualizowane."],
  unrated_too_short: [
    "Unrated: a player resigned before the game was far enough along to count.",
    "Bez rankingu: poddanie się nastąpiło, zanim gra zaszła dość daleko, by się liczyć.",
  ],
  unrated_pair_limit: [
    "Unrated: these players have played today's counted rated games against each other.",
    "Bez rankingu: dzisiejsze liczone gry rankingowe tej pary graczy już się odbyły.",
  ],
  score: ["Score", "Punkty"],
  resigned: ["resigned", "poddaje się"],
  download: ["Download the replay:", "Pobierz zapis gry:"],
  spectating: ["You are watching as a spectator.", "Oglądasz grę jako widz."],
  back: ["Back to the lobby", "Wróć do poczekalni"],
  replay_of: ["Replay of {id}", "Zapis gry {id}"],
  step: ["Event {n} of {total}", "Zdarzenie {n} z {total}"],
  first: ["Start", "Początek"],
  prev: ["Back", "Wstecz"],
  next: ["Forward", "Dalej"],
  last: ["End", "Koniec"],
  jump_step: ["Go to event", "Przejdź do zdarzenia"],
  go: ["Go", "Idź"],
  seat_lost: [
    "No seat token for this table in this browser: join it or watch it.",
    "Ta przeglądarka nie ma żetonu miejsca przy tym stole: dołącz albo oglądaj.",
  ],
  not_found: ["No such game.", "Nie ma takiej gry."],
  loading: ["Loading…", "Wczytywanie…"],
  join_as: ["Join as", "Dołącz jako"],
  no_games: ["No games.", "Brak gier."],
  seats_taken: ["Players:", "Gracze:"],
  winner: ["winner", "wygrana"],
  // what a decision is about, for those who wait for it
  kind_play_action: ["play an Action", "zagraj kartę Akcji"],
  kind_buy: ["buy", "zakup"],
  kind_discard: ["discard", "odrzuć"],
  kind_trash: ["trash", "wyrzuć na Śmietnisko"],
  kind_gain: ["gain a card", "dodaj kartę"],
  kind_topdeck: ["put a card onto the deck", "połóż kartę na talii"],
  kind_set_aside: ["set aside", "odłóż na bok"],
  kind_play: ["play a card", "zagraj kartę"],
  kind_react: ["reveal a Reaction", "odsłoń Reakcję"],
  kind_yes_no: ["yes or no", "tak czy nie"],
  kind_choose_fate: ["a card's fate", "los karty"],
  kind_order: ["order cards", "kolejność kart"],
  // the end of a game, the rematch, the replay
  why_resignations: [
    "Fewer than two players were left in the game.",
    "W grze zostało mniej niż dwóch graczy.",
  ],
  points_by_card: ["Points by card", "Punkty za karty"],
  // the replay's download formats; "json" and "msgpack" are names in every language
  format_text: ["text", "tekst"],
  bot_seat: ["Bot {n} ({bot})", "Bot {n} ({bot})"],
  discard_n: ["Discard {count}.", "Odrzuć z ręki {count}."],
  discard_down_to: ["Discard {count}, down to {keep} in hand.",
    "Odrzuć z ręki {count}; na ręce zostanie: {keep}."],
  watch_replay: ["Watch the replay", "Obejrzyj zapis gry"],
  rematch: ["Rematch", "Rewanż"],
  rematch_same: ["Offer a rematch", "Zaproponuj rewanż"],
  rematch_random: ["Offer a rematch with a new Kingdom", "Zaproponuj rewanż z nowym Królestwem"],
  rematch_kingdom_same: ["the same Kingdom", "to samo Królestwo"],
  rematch_kingdom_random: ["a new Kingdom", "nowe Królestwo"],
  rematch_offered: ["{who} offers a rematch with {kingdom}.", "{who} proponuje rewanż: {kingdom}."],
  rematch_accepted: ["Accepted: {who}.", "Przyjmują: {who}."],
  rematch_waiting: ["Waiting for: {who}.", "Czekamy na: {who}."],
  rematch_accept: ["Accept the rematch", "Przyjmij rewanż"],
  rematch_decline: ["Decline", "Odrzuć"],
  rematch_started: ["The rematch has started.", "Rewanż się zaczął."],
  rematch_declined: ["{who} declined the rematch.", "{who} odrzuca rewanż."],
  rematch_expired: [
    "The rematch offer expired: not everyone accepted in time.",
    "Propozycja rewanżu wygasła: brak zgody wszystkich na czas.",
  ],
  first_turn: ["Start", "Początek"],
  prev_turn: ["Previous turn", "Poprzednia tura"],
  prev_answer: ["Previous answer", "Poprzednia odpowiedź"],
  next_answer: ["Next answer", "Następna odpowiedź"],
  next_turn: ["Next turn", "Następna tura"],
  last_turn: ["End", "Koniec"],
  turn_slider: ["Turn", "Tura"],
  replay_keys: [
    "Keys: ← → an answer, Shift+← Shift+→ a turn, Home and End.",
    "Klawisze: ← → odpowiedź, Shift+← Shift+→ tura, Home i End.",
  ],
  // the table: cards, piles, the players' chips, the bar, shortcuts
  type_action: ["Action", "Akcja"],
  type_attack: ["Attack", "Atak"],
  type_reaction: ["Reaction", "Reakcja"],
  type_treasure: ["Treasure", "Skarb"],
  type_victory: ["Victory", "Zwycięstwo"],
  type_curse: ["Curse", "Klątwa"],
  basic_piles: ["Basic cards", "Karty podstawowe"],
  can_buy: ["you can buy it", "możesz ją kupić"],
  can_gain: ["you can gain it", "możesz ją dodać"],
  their_turn: ["their turn", "w trakcie tury"],
  deciding: ["deciding", "decyduje"],
  picked: ["Picked: {n}", "Wybrano: {n}"],
  your_turn: ["● Your turn", "● Twój ruch"],
  sound_on: ["Sound on your turn: on", "Dźwięk w twoim ruchu: włączony"],
  sound_off: ["Sound on your turn: off", "Dźwięk w twoim ruchu: wyłączony"],
  shortcuts: ["Keyboard shortcuts", "Skróty klawiszowe"],
  key_play_all: ["play all Treasures", "zagraj wszystkie Skarby"],
  key_end_phase: ["end the phase or the turn", "zakończ fazę albo turę"],
  key_digits: ["the cards of your hand you may pick, then the other options",
    "karty z ręki, które możesz wybrać, potem inne opcje"],
  key_letters: ["buy or gain the pile marked with the letter",
    "kup albo dodaj kartę ze stosu oznaczonego literą"],
  key_confirm: ["confirm the cards picked", "zatwierdź wybrane karty"],
  key_none: ["pick nothing", "nic nie wybieraj"],
  key_log: ["show or hide the log", "pokaż albo ukryj przebieg gry"],
  key_sound: ["sound on your turn, on or off", "dźwięk w twoim ruchu: włącz albo wyłącz"],
  key_help: ["show or hide this list", "pokaż albo ukryj tę listę"],
  key_escape: ["close the card's text or this list", "zamknij opis karty albo tę listę"],
  discard_short: ["Discard", "Odrzucone"],
  page_switches: ["Log, sound and shortcuts", "Przebieg gry, dźwięk i skróty"],
  sound_brief_on: ["Sound on", "Dźwięk wł."],
  sound_brief_off: ["Sound off", "Dźwięk wył."],
};

/** Nouns met by a count: key -> [English one, other], [Polish one, few, many]. */
const COUNTED = {
  cards: [["{n} card", "{n} cards"], ["{n} karta", "{n} karty", "{n} kart"]],
  coins: [["{n} coin", "{n} coins"], ["{n} monetę", "{n} monety", "{n} monet"]],
  // what is given or taken: "Odrzuć 1 kartę"
  cards_taken: [["{n} card", "{n} cards"], ["{n} kartę", "{n} karty", "{n} kart"]],
};

/** Words of a page's own module (key -> [English, Polish]) and its counted nouns. */
export function addWords(words, counted = {}) {
  Object.assign(WORDS, words);
  Object.assign(COUNTED, counted);
}

/** The keys of the words (the page's own and its modules' added so far) that some
 *  language of the page lacks: the tests ask for none. */
export function untranslated() {
  const lacking = (texts) => texts.length < LANGUAGES.length
    || texts.some((text) => typeof text !== "string" || !text);
  return Object.entries(WORDS).filter(([, texts]) => lacking(texts)).map(([key]) => key);
}

/** Which plural form a count takes: English one / other; Polish one / few (2–4, but not
 *  12–14) / many (0, 5–21, 25–31, …). */
export function pluralForm(lang, n) {
  if (lang !== "pl") return n === 1 ? 0 : 1;
  if (n === 1) return 0;
  const tens = n % 100;
  return n % 10 >= 2 && n % 10 <= 4 && (tens < 12 || tens > 14) ? 1 : 2;
}

/** The in-server bots by their strategies (the server's names), for people. */
const STRATEGIES = {
  random: ["Random bot", "Bot losowy"],
  big_money: ["Big Money bot", "Bot Wielkie Pieniądze"],
  smithy_big_money: ["Smithy and Big Money bot", "Bot Kowal i Wielkie Pieniądze"],
  strong: ["Strong bot", "Silny bot"],
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

/** The recommended Kingdoms' Polish names (the rulebook's "Polecane zestawy 10 kart"; the
 *  server knows them by their English names, which stay the value sent). */
const KINGDOMS_PL = {
  "First Game": "Pierwsza rozgrywka",
  "Size Distortion": "Zakrzywienie rozmiaru",
  "Deck Top": "Wierzch talii",
  "Sleight of Hand": "Zręczne ręce",
  Improvements: "Ulepszenia",
  "Silver & Gold": "Srebro i Złoto",
  "Big Money": "Bogactwo",
  Interaction: "Interakcja",
  "Village Square": "Rynek wioskowy",
};

/** The name the server gives an in-server bot's seat: "Bot 2 (strong:1)". */
const BOT_SEAT = /^Bot (\d+) \(([\w:]+)\)$/;

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
    const words = WORDS[key];
    const text = words ? words[LANGUAGES.indexOf(this.lang)] : key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
  }

  has(key) {
    return key in WORDS;
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
    return WORDS[`kind_${decisionKind}`] ? this.t(`kind_${decisionKind}`) : decisionKind;
  }

  /** "5 cards", "5 kart": a count with its noun (`COUNTED`) in the plural form it takes. */
  count(n, noun) {
    const forms = COUNTED[noun][LANGUAGES.indexOf(this.lang)];
    return forms[pluralForm(this.lang, n)].replace("{n}", String(n));
  }

  /** "Big Money bot", "Silny bot, poziom 2": an in-server bot by its strategy and level
   *  (`strong:2`: docs/BOTS.md); a strategy this page does not know by the server's name. */
  strategy(name) {
    const [base, level] = String(name).split(":");
    const words = STRATEGIES[base];
    if (!words) return this.t("bot_of", { name });
    const label = words[LANGUAGES.indexOf(this.lang)];
    return level ? this.t("bot_level", { bot: label, level }) : label;
  }

  /** A recommended Kingdom by its name in this language. */
  kingdomName(name) {
    return (this.lang === "pl" && KINGDOMS_PL[name]) || name;
  }

  /** A seat's name; an in-server bot's ("Bot 2 (strong)", the server's words) with its
   *  strategy in this language. */
  seatName(name) {
    const bot = this.lang === "pl" && BOT_SEAT.exec(String(name ?? ""));
    return bot ? this.t("bot_seat", { n: bot[1], bot: this.strategy(bot[2]) }) : name;
  }

  /** "Odrzuć z ręki 2 karty; na ręce zostanie: 3." (Militia's question): the count asked
   *  (`min` = `max`) and the cards that stay, from the options (one per card in hand),
   *  with no card's rules in the client; null when no count is fixed. */
  discardPrompt(decision) {
    const { min, max } = decision;
    if (!(min === max && min > 0)) return null;
    const count = this.count(max, "cards_taken");
    const keep = (decision.options?.length ?? 0) - max;
    return keep > 0 ? this.t("discard_down_to", { count, keep }) : this.t("discard_n", { count });
  }

  /** What a decision asks. A set-aside question (Library's) names the card it is about: the
   *  server's prompt is public and cannot, but the decider's options carry it
   *  (docs/ENGINE.md). */
  prompt(decision) {
    const card = decision.kind === "set_aside" ? decision.options?.[0]?.card : null;
    if (card) return this.t("set_aside_card", { card: this.card(card) });
    if (this.lang !== "pl") return decision.prompt;
    const counted = decision.kind === "discard" ? this.discardPrompt(decision) : null;
    if (counted) return counted;
    if (PROMPTS_PL[decision.kind]) return PROMPTS_PL[decision.kind];
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
