// The words of the lobby's queue (automatch.js) in English, Polish, Slovak and
// Lithuanian, and the counted nouns it needs (CLDR plural categories: one, few, many, other).

/** key -> [English, Polish, Slovak, Lithuanian] */
export const AUTOMATCH_WORDS = {
  queue_title: ["The queue", "Kolejka", "Rad", "Eilė"],
  play_now_about: [
    "The server finds you a table of people waiting like you.",
    "Serwer znajdzie ci stół z osobami, które czekają tak jak ty.",
    "Server ti nájde stôl s ľuďmi, ktorí čakajú ako ty.",
    "Serveris suras tau stalą su žmonėmis, kurie laukia kaip ir tu.",
  ],
  table_sizes: ["Find an opponent: table sizes", "Znajdź przeciwnika: liczba graczy",
    "Nájsť súpera: veľkosti stolov", "Rasti varžovą: stalų dydžiai"],
  size_group: ["{sizes} players", "{sizes} graczy", "Hráči: {sizes}", "Žaidėjų: {sizes}"],
  seek_cancel: ["Stop waiting", "Przestań czekać", "Prestať čakať", "Nebelaukti"],
  sizes_needed: ["Choose at least one table size.", "Wybierz co najmniej jedną liczbę graczy.", "Vyber aspoň jednu veľkosť stola.", "Pasirink bent vieną stalo dydį."],
  seek_connecting: ["Connecting…", "Łączę…", "Pripája sa…", "Jungiamasi…"],
  seek_waiting: ["Waiting for a table: {time}", "Czekasz na stół: {time}", "Čakanie na stôl: {time}", "Laukiama stalo: {time}"],
  seek_wanted: ["{sizes} players, edition {edition}", "{sizes} graczy, edycja {edition}", "Hráči: {sizes}, edícia {edition}", "Žaidėjų: {sizes}, leidimas {edition}"],
  seek_wanted_rated: ["{sizes} players, edition {edition}, rated",
    "{sizes} graczy, edycja {edition}, rankingowa",
    "Hráči: {sizes}, edícia {edition}, hodnotená",
    "Žaidėjų: {sizes}, leidimas {edition}, reitinguojamas"],
  seek_left: ["You left the queue.", "Opuszczono kolejkę.", "Opustil si rad.", "Palikai eilę."],
  seek_closed: ["The server closed the connection: you are no longer waiting.",
    "Serwer zamknął połączenie: już nie czekasz.",
    "Server ukončil spojenie: už nečakáš.",
    "Serveris nutraukė ryšį: nebelauki."],
  queue_now: ["Waiting now", "Teraz czekają", "Teraz čakajú", "Dabar laukia"],
  queue_size: ["{size} players: {count}", "{size} graczy: {count}", "Hráči {size}: {count}", "{size} žaidėjai: {count}"],
  queue_median: ["Median wait: {time}", "Mediana oczekiwania: {time}", "Medián čakania: {time}", "Laukimo mediana: {time}"],
  queue_unknown: ["The queue cannot be read now.", "Nie można teraz odczytać kolejki.", "Rad sa teraz nedá prečítať.", "Eilės dabar negalima perskaityti."],
  match_found: ["A table is found", "Znaleziono stół", "Stôl sa našiel", "Stalas rastas"],
  match_title: ["▶ A table is found", "▶ Znaleziono stół", "▶ Stôl sa našiel", "▶ Stalas rastas"],
  match_players: ["Players: {names}", "Gracze: {names}", "Hráči: {names}", "Žaidėjai: {names}"],
  match_table: ["{size} players, edition {edition}", "{size} graczy, edycja {edition}", "Hráči: {size}, edícia {edition}", "Žaidėjų: {size}, leidimas {edition}"],
  match_rated: ["Rated game", "Gra rankingowa", "Hodnotená hra", "Reitinguojamas žaidimas"],
  match_accept: ["Accept", "Przyjmij", "Prijať", "Priimti"],
  match_decline: ["Decline", "Odrzuć", "Odmietnuť", "Atmesti"],
  match_accepted: ["Accepted: waiting for the others…", "Przyjęto: czekamy na pozostałych…", "Prijaté: čakáme na ostatných…", "Priimta: laukiama kitų…"],
  match_starting: ["Everyone accepted: the game starts.", "Stół przyjęty przez wszystkich: gra się zaczyna.", "Všetci prijali: hra sa začína.", "Visi priėmė: žaidimas prasideda."],
  match_dissolved_declined: [
    "Someone declined the table: you are back at the front of the queue.",
    "Stół odrzucony: wracasz na początek kolejki.",
    "Niekto stôl odmietol: si opäť na začiatku radu.",
    "Kažkas atmetė stalą: vėl esi eilės priekyje.",
  ],
  match_dissolved_lapsed: [
    "Not everyone accepted in time: you are back at the front of the queue.",
    "Brak zgody wszystkich na czas: wracasz na początek kolejki.",
    "Nie všetci prijali včas: si opäť na začiatku radu.",
    "Ne visi priėmė laiku: vėl esi eilės priekyje.",
  ],
  seek_ended_declined: [
    "You declined the table: you are no longer waiting. Your next seek waits a little longer before it is matched.",
    "Odrzucono stół: już nie czekasz. Następne szukanie poczeka trochę dłużej na dopasowanie.",
    "Stôl si odmietol: už nečakáš. Tvoje ďalšie hľadanie počká o niečo dlhšie, kým sa spáruje.",
    "Atmetei stalą: nebelauki. Kita tavo paieška šiek tiek ilgiau lauks poros.",
  ],
  seek_ended_lapsed: [
    "You did not answer in time: you are no longer waiting. Your next seek waits a little longer before it is matched.",
    "Nie odpowiedziano na czas: już nie czekasz. Następne szukanie poczeka trochę dłużej na dopasowanie.",
    "Neodpovedal si včas: už nečakáš. Tvoje ďalšie hľadanie počká o niečo dlhšie, kým sa spáruje.",
    "Neatsakei laiku: nebelauki. Kita tavo paieška šiek tiek ilgiau lauks poros.",
  ],
  error_already_seeking: ["You are waiting already.", "Już czekasz.", "Už čakáš.", "Jau lauki."],
  error_not_seeking: ["You are not waiting for a table.", "Nie czekasz na stół.", "Nečakáš na stôl.", "Nelauki stalo."],
  error_unknown_table: ["That table is gone.", "Tego stołu już nie ma.", "Ten stôl už neexistuje.", "To stalo nebėra."],
};

/** Counted nouns: key -> per language, a form per CLDR plural category. */
export const AUTOMATCH_COUNTED = {
  people_waiting: [
    { one: "{n} waiting", other: "{n} waiting" },
    { one: "{n} osoba czeka", few: "{n} osoby czekają", many: "{n} osób czeka", other: "{n} osoby czeka" },
    { one: "{n} človek čaká", few: "{n} ľudia čakajú", many: "{n} človeka čaká", other: "{n} ľudí čaká" },
    { one: "{n} žmogus laukia", few: "{n} žmonės laukia", many: "{n} žmogaus laukia", other: "{n} žmonių laukia" },
  ],
  wait_seconds: [
    { one: "{n} second", other: "{n} seconds" },
    { one: "{n} sekunda", few: "{n} sekundy", many: "{n} sekund", other: "{n} sekundy" },
    { one: "{n} sekunda", few: "{n} sekundy", many: "{n} sekundy", other: "{n} sekúnd" },
    { one: "{n} sekundė", few: "{n} sekundės", many: "{n} sekundės", other: "{n} sekundžių" },
  ],
  seconds_left: [
    { one: "{n} second left", other: "{n} seconds left" },
    { one: "została {n} sekunda", few: "zostały {n} sekundy", many: "zostało {n} sekund", other: "zostało {n} sekundy" },
    { one: "zostáva {n} sekunda", few: "zostávajú {n} sekundy", many: "zostáva {n} sekundy", other: "zostáva {n} sekúnd" },
    { one: "liko {n} sekundė", few: "liko {n} sekundės", many: "liko {n} sekundės", other: "liko {n} sekundžių" },
  ],
};
