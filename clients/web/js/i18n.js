// The page's words in English, Polish, Slovak and Lithuanian (the rulebooks' terms: Zasoby,
// dodaj, odrzuć, wyrzuć na Śmietnisko; balíček, kôš; denis, šiukšlynas: docs/CLIENTS.md),
// and card names and texts from the catalogue (`name_pl`, `text_pl`, `name_sk`, ...).
// Every entry holds all four languages side by side, so that a changed English text shows
// its translations in the same diff; counted nouns hold one form per CLDR plural category.

import { BOT_LEVEL_WORDS, levelKey } from "./bot_words.js";

export const LANGUAGES = ["en", "pl", "sk", "lt"];

/** Each language by its own name, for the switch. */
export const LANGUAGE_NAMES = { en: "English", pl: "Polski", sk: "Slovenčina", lt: "Lietuvių" };

/** Every word of the page: key -> [English, Polish, Slovak, Lithuanian]. */
const WORDS = {
  ...BOT_LEVEL_WORDS,
  title: ["Dominion", "Dominion", "Dominion", "Dominion"],
  lobby: ["Lobby", "Poczekalnia", "Hala", "Laukiamasis"],
  // the player's guide (guide.html) is in English only: the other languages' links say so
  guide: ["How to play", "Jak grać (po angielsku)", "Ako hrať (po anglicky)", "Kaip žaisti (angliškai)"],
  language: ["Language", "Język", "Jazyk", "Kalba"],
  open_tables: ["Open tables", "Wolne stoły", "Voľné stoly", "Laisvi stalai"],
  running_games: ["Running games", "Trwające gry", "Prebiehajúce hry", "Vykstantys žaidimai"],
  finished_games: ["Finished games", "Zakończone gry", "Skončené hry", "Baigti žaidimai"],
  none: ["none", "brak", "nič", "nieko"],
  refresh: ["Refresh", "Odśwież", "Obnoviť", "Atnaujinti"],
  create_table: ["Create a table", "Nowy stół", "Nový stôl", "Naujas stalas"],
  your_name: ["Your name", "Twoje imię", "Tvoje meno", "Tavo vardas"],
  guest_name: ["Guest {n}", "Gość {n}", "Hosť {n}", "Svečias {n}"],
  seats: ["Seats", "Miejsca", "Miesta", "Vietos"],
  edition: ["Edition", "Edycja", "Edícia", "Leidimas"],
  kingdom: ["Kingdom", "Królestwo", "Kráľovstvo", "Karalystė"],
  kingdom_recommended: ["Recommended", "Zalecane", "Odporúčané", "Rekomenduojama"],
  kingdom_random: ["Random", "Losowe", "Náhodné", "Atsitiktinė"],
  kingdom_chosen: ["Ten chosen cards", "Dziesięć wybranych kart", "Desať vybraných kariet", "Dešimt pasirinktų kortų"],
  seat_n: ["Seat {n}", "Miejsce {n}", "Miesto {n}", "Vieta {n}"],
  person: ["a person", "człowiek", "človek", "žmogus"],
  bot_of: ["{name} bot", "bot {name}", "bot {name}", "botas {name}"],
  bot_mark: ["BOT", "BOT", "BOT", "BOTAS"],
  bot_mark_name: ["bot", "bot", "bot", "botas"],
  seat_left: ["left", "opuszcza grę", "opúšťa hru", "palieka žaidimą"],
  // personal access tokens and bot accounts (tokens.js)
  tokens_title: ["{name}: access tokens", "{name}: tokeny dostępu", "{name}: prístupové tokeny", "{name}: prieigos raktai"],
  tokens_about: ["A personal access token lets a program (a bot, the dominion command, another client) act as your account, as far as its scopes allow. Keep it secret; revoke it when it is no longer used.",
    "Osobisty token dostępu pozwala programowi (botowi, poleceniu dominion, innemu klientowi) działać jako Twoje konto, w granicach jego zakresów. Zachowaj go w tajemnicy; unieważnij, gdy nie jest już używany.",
    "Osobný prístupový token dovoľuje programu (botovi, príkazu dominion, inému klientovi) konať ako tvoj účet v rozsahu jeho oprávnení. Uchovaj ho v tajnosti; zruš ho, keď sa už nepoužíva.",
    "Asmeninis prieigos raktas leidžia programai (botui, komandai dominion, kitam klientui) veikti tavo paskyros vardu, kiek leidžia jo teisės. Laikyk jį paslaptyje; atšauk, kai jis nebenaudojamas."],
  tokens_sign_in: ["Sign in to manage your access tokens.", "Zaloguj się, aby zarządzać tokenami dostępu.", "Prihlás sa, aby si mohol spravovať prístupové tokeny.", "Prisijunk, kad galėtum tvarkyti prieigos raktus."],
  tokens_create: ["Create a token", "Utwórz token", "Vytvoriť token", "Sukurti raktą"],
  tokens_description: ["Description", "Opis", "Popis", "Aprašas"],
  tokens_scopes: ["Scopes", "Zakresy", "Oprávnenia", "Teisės"],
  tokens_created: ["Created", "Utworzony", "Vytvorený", "Sukurtas"],
  tokens_expires: ["Expires", "Wygasa", "Platí do", "Galioja iki"],
  tokens_used: ["Last used", "Ostatnio użyty", "Naposledy použitý", "Paskutinį kartą naudotas"],
  tokens_revoke: ["Revoke", "Unieważnij", "Zrušiť", "Atšaukti"],
  tokens_never: ["never", "nigdy", "nikdy", "niekada"],
  tokens_unused: ["not yet", "jeszcze nie", "ešte nie", "dar ne"],
  tokens_days: ["in {n} days", "za {n} dni", "o {n} dní", "po {n} d."],
  tokens_none: ["No tokens yet.", "Brak tokenów.", "Zatiaľ žiadne tokeny.", "Raktų dar nėra."],
  tokens_copy_now: ["Copy your new token now: it will not be shown again.", "Skopiuj nowy token teraz: nie zostanie pokazany ponownie.", "Skopíruj si nový token teraz: znova sa nezobrazí.", "Nukopijuok naują raktą dabar: jis daugiau nebus rodomas."],
  tokens_is_bot: ["This is a bot account: it plays only with bot:play tokens.", "To konto bota: gra tylko z tokenami bot:play.", "Toto je účet bota: hrá len s tokenmi bot:play.", "Tai boto paskyra: ji žaidžia tik su bot:play raktais."],
  tokens_bot_title: ["Bot account", "Konto bota", "Účet bota", "Boto paskyra"],
  tokens_bot_about: ["An account that has never played may become a bot account, for ever: it then plays only through bot:play tokens and is marked as a bot wherever its name is shown.",
    "Konto, które nigdy nie grało, może na zawsze stać się kontem bota: gra wtedy tylko przez tokeny bot:play i jest oznaczone jako bot wszędzie, gdzie widać jego nazwę.",
    "Účet, ktorý ešte nikdy nehral, sa môže navždy stať účtom bota: potom hrá len cez tokeny bot:play a všade, kde sa ukazuje jeho meno, je označený ako bot.",
    "Paskyra, kuri dar niekada nežaidė, gali visam laikui tapti boto paskyra: tada ji žaidžia tik per bot:play raktus ir visur, kur rodomas jos vardas, pažymėta kaip botas."],
  tokens_bot_button: ["Make this a bot account", "Zmień na konto bota", "Zmeniť na účet bota", "Paversti boto paskyra"],
  tokens_bot_confirm: ["Make this account a bot account? This cannot be undone.", "Zmienić to konto na konto bota? Tego nie można cofnąć.", "Zmeniť tento účet na účet bota? Nedá sa to vrátiť.", "Paversti šią paskyrą boto paskyra? To nebus galima atšaukti."],
  create: ["Create", "Utwórz", "Vytvoriť", "Sukurti"],
  join: ["Join", "Dołącz", "Pripojiť sa", "Prisijungti"],
  watch: ["Watch", "Oglądaj", "Sledovať", "Stebėti"],
  replay: ["Replay", "Zapis gry", "Záznam hry", "Žaidimo įrašas"],
  share: ["Link to this table", "Link do tego stołu", "Odkaz na tento stôl", "Nuoroda į šį stalą"],
  seat_of: ["{taken} of {seats} seats", "{taken} z {seats} miejsc", "{taken} z {seats} miest", "{taken} iš {seats} vietų"],
  turns_played: ["turns played: {n}", "rozegrane tury: {n}", "odohrané ťahy: {n}", "sužaista ėjimų: {n}"],
  chosen_count: ["{n} of 10 chosen", "wybrano {n} z 10", "vybraté {n} z 10", "pasirinkta {n} iš 10"],
  table: ["Table {id}", "Stół {id}", "Stôl {id}", "Stalas {id}"],
  waiting: [
    "Waiting for players: {taken} of {seats} seats taken.",
    "Czekamy na graczy: zajęte {taken} z {seats} miejsc.",
    "Čakáme na hráčov: obsadené {taken} z {seats} miest.",
    "Laukiama žaidėjų: užimta {taken} iš {seats} vietų.",
  ],
  you: ["you", "ty", "ty", "tu"],
  reconnecting: ["Connection lost: reconnecting…", "Utracono połączenie: łączę ponownie…", "Spojenie stratené: pripájam znova…", "Ryšys nutrūko: jungiamasi iš naujo…"],
  replaced: ["This seat was opened in another window.", "To miejsce otwarto w innym oknie.", "Toto miesto sa otvorilo v inom okne.", "Ši vieta atverta kitame lange."],
  supply: ["Supply", "Zasoby", "Zásoba", "Atsargos"],
  trash: ["Trash", "Śmietnisko", "Kôš", "Šiukšlynas"],
  players: ["Players", "Gracze", "Hráči", "Žaidėjai"],
  your_hand: ["Your hand", "Twoja ręka", "Tvoja ruka", "Tavo ranka"],
  in_play: ["In play", "W grze", "V hre", "Žaidžiama"],
  set_aside: ["Set aside", "Odłożone na bok", "Odložené bokom", "Atidėta į šalį"],
  looking: ["You are looking at", "Oglądasz", "Pozeráš sa na", "Žiūri į"],
  deck: ["Deck", "Talia", "Balíček", "Denis"],
  discard_top: ["Discard pile top", "Wierzch stosu kart odrzuconych", "Vrch odhadzovacieho balíčka", "Išmestų kortų krūvos viršus"],
  hand: ["Hand", "Ręka", "Ruka", "Ranka"],
  turns: ["Turns", "Tury", "Ťahy", "Ėjimai"],
  log: ["Log", "Przebieg gry", "Priebeh hry", "Žaidimo eiga"],
  chat: ["Chat", "Czat", "Čet", "Pokalbis"],
  say: ["Say", "Napisz", "Napíš", "Parašyk"],
  send: ["Send", "Wyślij", "Poslať", "Siųsti"],
  turn_title: ["{who}'s turn {n}", "{who}: tura {n}", "{who}: ťah {n}", "{who}: ėjimas {n}"],
  phase_action: ["Action phase", "Faza akcji", "Fáza akcií", "Veiksmų fazė"],
  phase_buy: ["Buy phase", "Faza zakupu", "Fáza nákupu", "Pirkimo fazė"],
  phase_cleanup: ["Clean-up", "Faza porządków", "Fáza upratovania", "Tvarkymo fazė"],
  phase_game_over: ["Game over", "Koniec gry", "Koniec hry", "Žaidimo pabaiga"],
  actions: ["Actions", "Akcje", "Akcie", "Veiksmai"],
  buys: ["Buys", "Zakupy", "Nákupy", "Pirkimai"],
  coins: ["Coins", "Monety", "Mince", "Monetos"],
  cost: ["Cost", "Koszt", "Cena", "Kaina"],
  left: ["Left", "Zostało", "Zostáva", "Liko"],
  empty: ["empty", "pusty", "prázdna", "tuščia"],
  owned_vp: ["VP owned", "PZ w posiadaniu", "VB vo vlastníctve", "Turimi PT"],
  close: ["Close", "Zamknij", "Zavrieť", "Uždaryti"],
  your_decision: ["Your decision", "Twoja decyzja", "Tvoje rozhodnutie", "Tavo sprendimas"],
  waiting_for: ["Waiting for {who} ({kind}).", "Czekamy na: {who} ({kind}).", "Čakáme na: {who} ({kind}).", "Laukiama: {who} ({kind})."],
  confirm: ["Confirm", "Zatwierdź", "Potvrdiť", "Patvirtinti"],
  choose_none: ["Choose none", "Nic nie wybieraj", "Nič nevyberať", "Nieko nesirinkti"],
  play_none: ["Play nothing", "Nie zagrywaj niczego", "Nič nezahrať", "Nieko nežaisti"],
  discard_none: ["Discard nothing", "Nic nie odrzucaj", "Nič neodhodiť", "Nieko neišmesti"],
  trash_none: ["Trash nothing", "Nic nie wyrzucaj", "Nič nezahodiť do koša", "Nieko nemesti į šiukšlyną"],
  choose_n: ["Choose {range}.", "Wybierz {range}.", "Vyber {range}.", "Pasirink {range}."],
  choose_order: [
    "Click the cards in order: the first ends on top.",
    "Klikaj karty po kolei: pierwsza będzie na wierzchu.",
    "Klikaj na karty po poradí: prvá bude navrchu.",
    "Spausk kortas iš eilės: pirmoji bus viršuje.",
  ],
  order_n: ["#{n}", "#{n}", "#{n}", "#{n}"],
  answered_forced: [
    "Answered for you (the only choice): {what}.",
    "Odpowiedziano za ciebie (jedyny wybór): {what}.",
    "Odpovedané za teba (jediná možnosť): {what}.",
    "Atsakyta už tave (vienintelis pasirinkimas): {what}.",
  ],
  play_all: ["Play all Treasures", "Zagraj wszystkie Skarby", "Zahrať všetky poklady", "Žaisti visus lobius"],
  end_actions: ["End Action phase", "Zakończ fazę akcji", "Ukončiť fázu akcií", "Baigti veiksmų fazę"],
  end_turn: ["End turn", "Zakończ turę", "Ukončiť ťah", "Baigti ėjimą"],
  end_phase: ["End phase", "Zakończ fazę", "Ukončiť fázu", "Baigti fazę"],
  yes: ["Yes", "Tak", "Áno", "Taip"],
  no: ["No", "Nie", "Nie", "Ne"],
  trash_it: ["Trash", "Wyrzuć na Śmietnisko", "Zahodiť do koša", "Mesti į šiukšlyną"],
  discard_it: ["Discard", "Odrzuć", "Odhodiť", "Išmesti"],
  keep_it: ["Put back", "Połóż z powrotem", "Vrátiť späť", "Padėti atgal"],
  play_x: ["Play {card}", "Zagraj: {card}", "Zahrať: {card}", "Žaisti: {card}"],
  buy_x: ["Buy {card}", "Kup: {card}", "Kúpiť: {card}", "Pirkti: {card}"],
  cannot_buy: [
    "{card} costs {cost}: you have {coins} and can buy only what is offered.",
    "{card} kosztuje {cost}: masz {coins} i możesz kupić tylko to, co jest w ofercie.",
    "{card} stojí {cost}: máš {coins} a môžeš kúpiť len to, čo je v ponuke.",
    "{card} kainuoja {cost}: turi {coins} ir gali pirkti tik tai, kas siūloma.",
  ],
  cannot_play: ["{card} cannot be played now.", "Nie można teraz zagrać: {card}.", "Teraz sa nedá zahrať: {card}.", "Dabar negalima žaisti: {card}."],
  not_your_turn: ["It is not your decision now.", "To nie twoja decyzja.", "Teraz nerozhoduješ ty.", "Dabar sprendžia ne tu."],
  refused: ["The server refused: {message}", "Serwer odmówił: {message}", "Server odmietol: {message}", "Serveris atsisakė: {message}"],
  resign: ["Resign", "Poddaj się", "Vzdať sa", "Pasiduoti"],
  resign_sure: ["Really resign?", "Na pewno się poddać?", "Naozaj sa vzdať?", "Tikrai pasiduoti?"],
  game_over: ["The game is over", "Koniec gry", "Koniec hry", "Žaidimas baigtas"],
  winners: ["Winner: {who}", "Wygrywa: {who}", "Víťazstvo: {who}", "Laimi: {who}"],
  winners_many: ["Shared victory: {who}", "Wspólne zwycięstwo: {who}", "Spoločné víťazstvo: {who}", "Bendra pergalė: {who}"],
  set_aside_card: [
    "Set aside {card} instead of keeping it in hand?",
    "Odłożyć na bok kartę {card} zamiast brać ją na rękę?",
    "Odložiť kartu {card} bokom namiesto toho, aby si ju vzal do ruky?",
    "Atidėti kortą {card} į šalį, užuot paėmus ją į ranką?",
  ],
  why_provinces: ["The Provinces are gone.", "Skończyły się Prowincje.", "Minuli sa provincie.", "Baigėsi provincijos."],
  why_piles: ["Piles empty: {piles}.", "Puste stosy: {piles}.", "Prázdne kôpky: {piles}.", "Tuščios krūvos: {piles}."],
  abandoned: ["The game was abandoned: nobody wins.", "Gra została porzucona: nikt nie wygrywa.", "Hra bola opustená: nikto nevyhráva.", "Žaidimas apleistas: niekas nelaimi."],
  abandoned_no_result: ["The game was abandoned: it ended with no result.",
    "Gra została przerwana: zakończyła się bez wyniku.",
    "Hra bola prerušená: skončila bez výsledku.",
    "Žaidimas nutrauktas: baigėsi be rezultato."],
  abandoned_reason: ["Why: {reason}", "Powód: {reason}", "Dôvod: {reason}", "Priežastis: {reason}"],
  chat_removed: ["(removed by a moderator)", "(usunięte przez moderatora)", "(odstránené moderátorom)", "(pašalinta moderatoriaus)"],
  why_tie: [
    "Tied on points: {who} had fewer turns.",
    "Remis na punkty: mniej rozegranych tur ma {who}.",
    "Remíza na body: menej ťahov má {who}.",
    "Lygiosios pagal taškus: mažiau ėjimų turi {who}.",
  ],
  why_shared: [
    "Tied on points and turns: the victory is shared.",
    "Remis na punkty i tury: zwycięstwo jest wspólne.",
    "Remíza na body aj ťahy: víťazstvo je spoločné.",
    "Lygiosios pagal taškus ir ėjimus: pergalė bendra.",
  ],
  why_resigned: ["Resigned, so they cannot win: {who}.", "Poddanie się wyklucza wygraną: {who}.", "Kto sa vzdá, nemôže vyhrať: {who}.", "Pasidavęs žaidėjas negali laimėti: {who}."],
  rating_column: ["Rating", "Ranking", "Hodnotenie", "Reitingas"],
  outcome_won: ["Won", "Wygrana", "Výhra", "Pergalė"],
  outcome_lost: ["Lost", "Przegrana", "Prehra", "Pralaimėjimas"],
  outcome_shared: ["Shared win", "Wspólna wygrana", "Spoločná výhra", "Bendra pergalė"],
  versus: ["against", "przeciw", "proti", "prieš"],
  rating_after: ["{after}{mark} ({change})", "{after}{mark} ({change})", "{after}{mark} ({change})", "{after}{mark} ({change})"],
  rated_applied: ["Rated game: each player's rating changed as shown.",
    "Gra rankingowa: ranking każdego gracza zmienił się, jak widać.",
    "Hodnotená hra: hodnotenie každého hráča sa zmenilo, ako vidno.",
    "Reitinguojamas žaidimas: kiekvieno žaidėjo reitingas pasikeitė, kaip parodyta."],
  rated_waiting: ["Rated game: the ratings are being updated.",
    "Gra rankingowa: rankingi są właśnie aktualizowane.",
    "Hodnotená hra: hodnotenia sa práve aktualizujú.",
    "Reitinguojamas žaidimas: reitingai atnaujinami."],
  unrated_too_short: [
    "Unrated: a player resigned before the game was far enough along to count.",
    "Bez rankingu: poddanie się nastąpiło, zanim gra zaszła dość daleko, by się liczyć.",
    "Bez hodnotenia: vzdanie prišlo skôr, než hra pokročila dosť na to, aby sa rátala.",
    "Be reitingo: pasiduota anksčiau, nei žaidimas pažengė pakankamai, kad būtų skaičiuojamas.",
  ],
  unrated_pair_limit: [
    "Unrated: these players have played today's counted rated games against each other.",
    "Bez rankingu: dzisiejsze liczone gry rankingowe tej pary graczy już się odbyły.",
    "Bez hodnotenia: dnešné rátané hodnotené hry tejto dvojice hráčov sa už odohrali.",
    "Be reitingo: šiandienos skaičiuojami šios žaidėjų poros reitinguojami žaidimai jau sužaisti.",
  ],
  score: ["Score", "Punkty", "Body", "Taškai"],
  resigned: ["resigned", "poddaje się", "vzdáva sa", "pasiduoda"],
  download: ["Download the replay:", "Pobierz zapis gry:", "Stiahnuť záznam hry:", "Atsisiųsti žaidimo įrašą:"],
  spectating: ["You are watching as a spectator.", "Oglądasz grę jako widz.", "Sleduješ hru ako divák.", "Stebi žaidimą kaip žiūrovas."],
  back: ["Back to the lobby", "Wróć do poczekalni", "Späť do haly", "Atgal į laukiamąjį"],
  replay_of: ["Replay of {id}", "Zapis gry {id}", "Záznam hry {id}", "Žaidimo įrašas {id}"],
  step: ["Event {n} of {total}", "Zdarzenie {n} z {total}", "Udalosť {n} z {total}", "Įvykis {n} iš {total}"],
  first: ["Start", "Początek", "Začiatok", "Pradžia"],
  prev: ["Back", "Wstecz", "Späť", "Atgal"],
  next: ["Forward", "Dalej", "Ďalej", "Pirmyn"],
  last: ["End", "Koniec", "Koniec", "Pabaiga"],
  jump_step: ["Go to event", "Przejdź do zdarzenia", "Prejsť na udalosť", "Pereiti į įvykį"],
  go: ["Go", "Idź", "Choď", "Eiti"],
  seat_lost: [
    "No seat token for this table in this browser: join it or watch it.",
    "Ta przeglądarka nie ma żetonu miejsca przy tym stole: dołącz albo oglądaj.",
    "Tento prehliadač nemá žetón miesta pri tomto stole: pripoj sa alebo sleduj.",
    "Ši naršyklė neturi vietos žetono prie šio stalo: prisijunk arba stebėk.",
  ],
  not_found: ["No such game.", "Nie ma takiej gry.", "Taká hra neexistuje.", "Tokio žaidimo nėra."],
  loading: ["Loading…", "Wczytywanie…", "Načítava sa…", "Įkeliama…"],
  join_as: ["Join as", "Dołącz jako", "Pripojiť sa ako", "Prisijungti kaip"],
  no_games: ["No games.", "Brak gier.", "Žiadne hry.", "Žaidimų nėra."],
  seats_taken: ["Players:", "Gracze:", "Hráči:", "Žaidėjai:"],
  winner: ["winner", "wygrana", "výhra", "pergalė"],
  // what a decision is about, for those who wait for it
  kind_play_action: ["play an Action", "zagraj kartę Akcji", "zahraj kartu akcie", "žaisk veiksmo kortą"],
  kind_buy: ["buy", "zakup", "nákup", "pirkimas"],
  kind_discard: ["discard", "odrzuć", "odhoď", "išmesk"],
  kind_trash: ["trash", "wyrzuć na Śmietnisko", "zahoď do koša", "mesk į šiukšlyną"],
  kind_gain: ["gain a card", "dodaj kartę", "získaj kartu", "gauk kortą"],
  kind_topdeck: ["put a card onto the deck", "połóż kartę na talii", "polož kartu na balíček", "padėk kortą ant denio"],
  kind_set_aside: ["set aside", "odłóż na bok", "odlož bokom", "atidėk į šalį"],
  kind_play: ["play a card", "zagraj kartę", "zahraj kartu", "žaisk kortą"],
  kind_react: ["reveal a Reaction", "odsłoń Reakcję", "ukáž reakciu", "atskleisk reakciją"],
  kind_yes_no: ["yes or no", "tak czy nie", "áno alebo nie", "taip ar ne"],
  kind_choose_fate: ["a card's fate", "los karty", "osud karty", "kortos likimas"],
  kind_order: ["order cards", "kolejność kart", "poradie kariet", "kortų tvarka"],
  // the end of a game, the rematch, the replay
  why_resignations: [
    "Fewer than two players were left in the game.",
    "W grze zostało mniej niż dwóch graczy.",
    "V hre zostali menej ako dvaja hráči.",
    "Žaidime liko mažiau nei du žaidėjai.",
  ],
  points_by_card: ["Points by card", "Punkty za karty", "Body za karty", "Taškai už kortas"],
  // the replay's download formats; "json" and "msgpack" are names in every language
  format_text: ["text", "tekst", "text", "tekstas"],
  discard_n: ["Discard {count}.", "Odrzuć z ręki {count}.", "Odhoď z ruky {count}.", "Išmesk iš rankos {count}."],
  discard_down_to: ["Discard {count}, down to {keep} in hand.",
    "Odrzuć z ręki {count}; na ręce zostanie: {keep}.",
    "Odhoď z ruky {count}; v ruke zostane: {keep}.",
    "Išmesk iš rankos {count}; rankoje liks: {keep}."],
  watch_replay: ["Watch the replay", "Obejrzyj zapis gry", "Pozrieť záznam hry", "Žiūrėti žaidimo įrašą"],
  rematch: ["Rematch", "Rewanż", "Odveta", "Revanšas"],
  rematch_same: ["Offer a rematch", "Zaproponuj rewanż", "Navrhnúť odvetu", "Pasiūlyti revanšą"],
  rematch_random: ["Offer a rematch with a new Kingdom", "Zaproponuj rewanż z nowym Królestwem", "Navrhnúť odvetu s novým kráľovstvom", "Pasiūlyti revanšą su nauja karalyste"],
  rematch_kingdom_same: ["the same Kingdom", "to samo Królestwo", "to isté kráľovstvo", "ta pati karalystė"],
  rematch_kingdom_random: ["a new Kingdom", "nowe Królestwo", "nové kráľovstvo", "nauja karalystė"],
  rematch_offered: ["{who} offers a rematch with {kingdom}.", "{who} proponuje rewanż: {kingdom}.", "{who} navrhuje odvetu: {kingdom}.", "{who} siūlo revanšą: {kingdom}."],
  rematch_accepted: ["Accepted: {who}.", "Przyjmują: {who}.", "Prijímajú: {who}.", "Priima: {who}."],
  rematch_waiting: ["Waiting for: {who}.", "Czekamy na: {who}.", "Čakáme na: {who}.", "Laukiama: {who}."],
  rematch_accept: ["Accept the rematch", "Przyjmij rewanż", "Prijať odvetu", "Priimti revanšą"],
  rematch_decline: ["Decline", "Odrzuć", "Odmietnuť", "Atmesti"],
  rematch_started: ["The rematch has started.", "Rewanż się zaczął.", "Odveta sa začala.", "Revanšas prasidėjo."],
  rematch_declined: ["{who} declined the rematch.", "{who} odrzuca rewanż.", "{who} odmieta odvetu.", "{who} atmeta revanšą."],
  rematch_expired: [
    "The rematch offer expired: not everyone accepted in time.",
    "Propozycja rewanżu wygasła: brak zgody wszystkich na czas.",
    "Návrh odvety vypršal: nie všetci súhlasili včas.",
    "Revanšo pasiūlymas baigė galioti: ne visi sutiko laiku.",
  ],
  first_turn: ["Start", "Początek", "Začiatok", "Pradžia"],
  prev_turn: ["Previous turn", "Poprzednia tura", "Predchádzajúci ťah", "Ankstesnis ėjimas"],
  prev_answer: ["Previous answer", "Poprzednia odpowiedź", "Predchádzajúca odpoveď", "Ankstesnis atsakymas"],
  next_answer: ["Next answer", "Następna odpowiedź", "Ďalšia odpoveď", "Kitas atsakymas"],
  next_turn: ["Next turn", "Następna tura", "Ďalší ťah", "Kitas ėjimas"],
  last_turn: ["End", "Koniec", "Koniec", "Pabaiga"],
  turn_slider: ["Turn", "Tura", "Ťah", "Ėjimas"],
  replay_keys: [
    "Keys: ← → an answer, Shift+← Shift+→ a turn, Home and End.",
    "Klawisze: ← → odpowiedź, Shift+← Shift+→ tura, Home i End.",
    "Klávesy: ← → odpoveď, Shift+← Shift+→ ťah, Home a End.",
    "Klavišai: ← → atsakymas, Shift+← Shift+→ ėjimas, Home ir End.",
  ],
  // the table: cards, piles, the players' chips, the bar, shortcuts
  type_action: ["Action", "Akcja", "Akcia", "Veiksmas"],
  type_attack: ["Attack", "Atak", "Útok", "Ataka"],
  type_reaction: ["Reaction", "Reakcja", "Reakcia", "Reakcija"],
  type_treasure: ["Treasure", "Skarb", "Poklad", "Lobis"],
  type_victory: ["Victory", "Zwycięstwo", "Víťazstvo", "Pergalė"],
  type_curse: ["Curse", "Klątwa", "Prekliatie", "Prakeiksmas"],
  basic_piles: ["Basic cards", "Karty podstawowe", "Základné karty", "Pagrindinės kortos"],
  can_buy: ["you can buy it", "możesz ją kupić", "môžeš ju kúpiť", "gali ją nupirkti"],
  can_gain: ["you can gain it", "możesz ją dodać", "môžeš ju získať", "gali ją gauti"],
  their_turn: ["their turn", "w trakcie tury", "na ťahu", "jo ėjimas"],
  deciding: ["deciding", "decyduje", "rozhoduje", "sprendžia"],
  picked: ["Picked: {n}", "Wybrano: {n}", "Vybraté: {n}", "Pasirinkta: {n}"],
  your_turn: ["● Your turn", "● Twój ruch", "● Si na ťahu", "● Tavo ėjimas"],
  sound_on: ["Sound on your turn: on", "Dźwięk w twoim ruchu: włączony", "Zvuk na tvojom ťahu: zapnutý", "Garsas tavo ėjime: įjungtas"],
  sound_off: ["Sound on your turn: off", "Dźwięk w twoim ruchu: wyłączony", "Zvuk na tvojom ťahu: vypnutý", "Garsas tavo ėjime: išjungtas"],
  shortcuts: ["Keyboard shortcuts", "Skróty klawiszowe", "Klávesové skratky", "Spartieji klavišai"],
  key_play_all: ["play all Treasures", "zagraj wszystkie Skarby", "zahraj všetky poklady", "žaisk visus lobius"],
  key_end_phase: ["end the phase or the turn", "zakończ fazę albo turę", "ukonči fázu alebo ťah", "baik fazę arba ėjimą"],
  key_digits: ["the cards of your hand you may pick, then the other options",
    "karty z ręki, które możesz wybrać, potem inne opcje",
    "karty z ruky, ktoré môžeš vybrať, potom ďalšie možnosti",
    "rankos kortos, kurias gali pasirinkti, tada kitos parinktys"],
  key_letters: ["buy or gain the pile marked with the letter",
    "kup albo dodaj kartę ze stosu oznaczonego literą",
    "kúp alebo získaj kartu z kôpky označenej písmenom",
    "pirk arba gauk kortą iš raide pažymėtos krūvos"],
  key_confirm: ["confirm the cards picked", "zatwierdź wybrane karty", "potvrď vybrané karty", "patvirtink pasirinktas kortas"],
  key_none: ["pick nothing", "nic nie wybieraj", "nič nevyberaj", "nieko nesirink"],
  key_log: ["show or hide the log", "pokaż albo ukryj przebieg gry", "ukáž alebo skry priebeh hry", "rodyk arba slėpk žaidimo eigą"],
  key_sound: ["sound on your turn, on or off", "dźwięk w twoim ruchu: włącz albo wyłącz", "zvuk na tvojom ťahu: zapni alebo vypni", "garsas tavo ėjime: įjunk arba išjunk"],
  key_help: ["show or hide this list", "pokaż albo ukryj tę listę", "ukáž alebo skry tento zoznam", "rodyk arba slėpk šį sąrašą"],
  key_escape: ["close the card's text or this list", "zamknij opis karty albo tę listę", "zavri popis karty alebo tento zoznam", "uždaryk kortos aprašą arba šį sąrašą"],
  discard_short: ["Discard", "Odrzucone", "Odhodené", "Išmestos"],
  page_switches: ["Log, sound and shortcuts", "Przebieg gry, dźwięk i skróty", "Priebeh hry, zvuk a skratky", "Žaidimo eiga, garsas ir spartieji klavišai"],
  sound_brief_on: ["Sound on", "Dźwięk wł.", "Zvuk zap.", "Garsas įj."],
  sound_brief_off: ["Sound off", "Dźwięk wył.", "Zvuk vyp.", "Garsas išj."],
};

/** Nouns met by a count: key -> per language, a form per CLDR plural category (`pluralForm`). */
const COUNTED = {
  cards: [
    { one: "{n} card", other: "{n} cards" },
    { one: "{n} karta", few: "{n} karty", many: "{n} kart", other: "{n} karty" },
    { one: "{n} karta", few: "{n} karty", many: "{n} karty", other: "{n} kariet" },
    { one: "{n} korta", few: "{n} kortos", many: "{n} kortos", other: "{n} kortų" },
  ],
  coins: [
    { one: "{n} coin", other: "{n} coins" },
    { one: "{n} monetę", few: "{n} monety", many: "{n} monet", other: "{n} monety" },
    { one: "{n} minca", few: "{n} mince", many: "{n} mince", other: "{n} mincí" },
    { one: "{n} moneta", few: "{n} monetos", many: "{n} monetos", other: "{n} monetų" },
  ],
  // what is given or taken: "Odrzuć 1 kartę"
  cards_taken: [
    { one: "{n} card", other: "{n} cards" },
    { one: "{n} kartę", few: "{n} karty", many: "{n} kart", other: "{n} karty" },
    { one: "{n} kartu", few: "{n} karty", many: "{n} karty", other: "{n} kariet" },
    { one: "{n} kortą", few: "{n} kortas", many: "{n} kortos", other: "{n} kortų" },
  ],
};

/** Words of a page's own module (key -> [English, Polish, Slovak, Lithuanian]) and its
 *  counted nouns (as `COUNTED`). */
export function addWords(words, counted = {}) {
  Object.assign(WORDS, words);
  Object.assign(COUNTED, counted);
}

/** The keys of the words (the page's own and its modules' added so far) that some
 *  language of the page lacks: the tests ask for none. */
export function untranslated() {
  const lacking = (texts) => texts.length !== LANGUAGES.length
    || texts.some((text) => typeof text !== "string" || !text);
  return Object.entries(WORDS).filter(([, texts]) => lacking(texts)).map(([key]) => key);
}

/** The counted nouns whose forms differ from their language's CLDR plural categories (one
 *  missing, or one given that the language never uses): the tests ask for none. */
export function miscounted() {
  const wrong = [];
  for (const [key, perLanguage] of Object.entries(COUNTED)) {
    LANGUAGES.forEach((lang, index) => {
      const wanted = [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
      const given = Object.keys(perLanguage[index] ?? {}).sort();
      if (wanted.join() !== given.join()) wrong.push(`${key}:${lang}`);
    });
  }
  return wrong;
}

/** Every word and counted noun, for the tests' completeness checks. */
export function allWords() {
  return { words: WORDS, counted: COUNTED, prompts: PROMPTS, kingdoms: KINGDOMS };
}

const PLURAL_RULES = new Map();

/** Which plural form a count takes: its CLDR category in the language ("one", "few",
 *  "many", "other"), as the browser's Intl.PluralRules knows it. */
export function pluralForm(lang, n) {
  if (!PLURAL_RULES.has(lang)) PLURAL_RULES.set(lang, new Intl.PluralRules(lang));
  return PLURAL_RULES.get(lang).select(n);
}

/** What a decision asks, for people, by language; English's prompt comes from the server. */
const PROMPTS = {
  pl: {
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
  },
  sk: {
    play_action: "Zahraj kartu akcie alebo ukonči fázu akcií.",
    buy: "Zahraj poklady, kúp kartu alebo ukonči ťah.",
    discard: "Odhoď karty z ruky.",
    trash: "Zahoď karty do koša.",
    gain: "Získaj kartu zo zásoby.",
    topdeck: "Polož kartu z ruky na svoj balíček.",
    set_aside: "Odložiť túto kartu akcie bokom namiesto toho, aby si ju vzal do ruky?",
    play: "Zahraj kartu.",
    react: "Ukázať Priekopu, aby sa ťa útok netýkal?",
    yes_no: "Áno alebo nie?",
    choose_fate: "Zahoď do koša, odhoď alebo vráť späť.",
    order: "Zoraď karty, ktoré sa vracajú na balíček.",
  },
  lt: {
    play_action: "Žaisk veiksmo kortą arba baik veiksmų fazę.",
    buy: "Žaisk lobius, pirk kortą arba baik ėjimą.",
    discard: "Išmesk kortas iš rankos.",
    trash: "Mesk kortas į šiukšlyną.",
    gain: "Gauk kortą iš atsargų.",
    topdeck: "Padėk kortą iš rankos ant savo denio.",
    set_aside: "Atidėti šią veiksmo kortą į šalį, užuot paėmus ją į ranką?",
    play: "Žaisk kortą.",
    react: "Atskleisti Griovį, kad ataka tavęs nepaveiktų?",
    yes_no: "Taip ar ne?",
    choose_fate: "Mesk į šiukšlyną, išmesk arba padėk atgal.",
    order: "Sudėliok kortas, kurios grįžta ant denio.",
  },
};

/** The recommended Kingdoms by language (the Polish rulebook's "Polecane zestawy 10 kart";
 *  the server knows them by their English names, which stay the value sent). */
const KINGDOMS = {
  "First Game": ["Pierwsza rozgrywka", "Prvá hra", "Pirmasis žaidimas"],
  "Size Distortion": ["Zakrzywienie rozmiaru", "Skreslenie veľkosti", "Dydžio iškraipymas"],
  "Deck Top": ["Wierzch talii", "Vrch balíčka", "Denio viršus"],
  "Sleight of Hand": ["Zręczne ręce", "Šikovné ruky", "Miklios rankos"],
  Improvements: ["Ulepszenia", "Vylepšenia", "Patobulinimai"],
  "Silver & Gold": ["Srebro i Złoto", "Striebro a zlato", "Sidabras ir auksas"],
  "Big Money": ["Bogactwo", "Bohatstvo", "Turtai"],
  Interaction: ["Interakcja", "Interakcia", "Sąveika"],
  "Village Square": ["Rynek wioskowy", "Dedinské námestie", "Kaimo aikštė"],
};

/** The name the server gives an in-server bot's seat: "Bot 2 (strong:1)". */
const BOT_SEAT = /^Bot (\d+) \(([\w:]+)\)$/;

/** The strategy of an in-server bot's seat by its name, or null for a person's. */
function botStrategy(name) {
  return BOT_SEAT.exec(String(name ?? ""))?.[2] ?? null;
}

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
    return entry[`name_${this.lang}`] || entry.name;
  }

  cardText(id) {
    const entry = this.cards.get(id);
    if (!entry) return "";
    return entry[`text_${this.lang}`] || entry.text;
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

  /** "Easy bot", "Łatwy bot": an in-server bot by its strategy's level as the lobby names
   *  it (bot_words.js); a strategy that is no level by the server's name. */
  strategy(name) {
    const key = levelKey(String(name));
    return key ? this.t("bot_named", { level: this.t(key) }) : this.t("bot_of", { name });
  }

  /** A recommended Kingdom by its name in this language. */
  kingdomName(name) {
    return KINGDOMS[name]?.[LANGUAGES.indexOf(this.lang) - 1] || name;
  }

  /** A seat's name as shown; an in-server bot's (the server's "Bot 2 (big_money)") by its
   *  level in this language, "Easy bot", and its seat's number when another bot at the
   *  table (`table`: its seats' names) has the same level: "Easy bot 3". */
  seatName(name, table = []) {
    const strategy = botStrategy(name);
    if (!strategy) return name;
    const shown = this.strategy(strategy);
    const twins = table.map(botStrategy).filter((other) => other && this.strategy(other) === shown);
    return twins.length > 1 ? `${shown} ${BOT_SEAT.exec(name)[1]}` : shown;
  }

  /** The names of a table's seats as shown (`seatName`). */
  seatNames(names) {
    return names.map((name) => this.seatName(name, names));
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
    const prompts = PROMPTS[this.lang];
    if (!prompts) return decision.prompt;
    const counted = decision.kind === "discard" ? this.discardPrompt(decision) : null;
    return counted || prompts[decision.kind] || decision.prompt;
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
