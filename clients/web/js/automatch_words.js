// The words of the lobby's "Play now" panel (automatch.js) in English and Polish, and the
// counted nouns it needs (Polish plurals: one, few, many).

/** key -> [English, Polish] */
export const AUTOMATCH_WORDS = {
  play_now: ["Play now", "Zagraj teraz"],
  play_now_about: [
    "The server finds you a table of people waiting like you.",
    "Serwer znajdzie ci stół z osobami, które czekają tak jak ty.",
  ],
  table_sizes: ["Table sizes", "Liczba graczy"],
  size_group: ["{sizes} players", "{sizes} graczy"],
  rated: ["Rated", "Rankingowa"],
  seek: ["Find a table", "Znajdź stół"],
  seek_cancel: ["Stop waiting", "Przestań czekać"],
  sizes_needed: ["Choose at least one table size.", "Wybierz co najmniej jedną liczbę graczy."],
  seek_connecting: ["Connecting…", "Łączę…"],
  seek_waiting: ["Waiting for a table: {time}", "Czekasz na stół: {time}"],
  seek_wanted: ["{sizes} players, edition {edition}", "{sizes} graczy, edycja {edition}"],
  seek_wanted_rated: ["{sizes} players, edition {edition}, rated",
    "{sizes} graczy, edycja {edition}, rankingowa"],
  seek_left: ["You left the queue.", "Opuszczono kolejkę."],
  seek_closed: ["The server closed the connection: you are no longer waiting.",
    "Serwer zamknął połączenie: już nie czekasz."],
  queue_now: ["Waiting now", "Teraz czekają"],
  queue_size: ["{size} players: {count}", "{size} graczy: {count}"],
  queue_median: ["Median wait: {time}", "Mediana oczekiwania: {time}"],
  queue_unknown: ["The queue cannot be read now.", "Nie można teraz odczytać kolejki."],
  match_found: ["A table is found", "Znaleziono stół"],
  match_title: ["▶ A table is found", "▶ Znaleziono stół"],
  match_players: ["Players: {names}", "Gracze: {names}"],
  match_table: ["{size} players, edition {edition}", "{size} graczy, edycja {edition}"],
  match_rated: ["Rated game", "Gra rankingowa"],
  match_accept: ["Accept", "Przyjmij"],
  match_decline: ["Decline", "Odrzuć"],
  match_accepted: ["Accepted: waiting for the others…", "Przyjęto: czekamy na pozostałych…"],
  match_starting: ["Everyone accepted: the game starts.", "Stół przyjęty przez wszystkich: gra się zaczyna."],
  match_dissolved_declined: [
    "Someone declined the table: you are back at the front of the queue.",
    "Stół odrzucony: wracasz na początek kolejki.",
  ],
  match_dissolved_lapsed: [
    "Not everyone accepted in time: you are back at the front of the queue.",
    "Brak zgody wszystkich na czas: wracasz na początek kolejki.",
  ],
  seek_ended_declined: [
    "You declined the table: you are no longer waiting. Your next seek waits a little longer before it is matched.",
    "Odrzucono stół: już nie czekasz. Następne szukanie poczeka trochę dłużej na dopasowanie.",
  ],
  seek_ended_lapsed: [
    "You did not answer in time: you are no longer waiting. Your next seek waits a little longer before it is matched.",
    "Nie odpowiedziano na czas: już nie czekasz. Następne szukanie poczeka trochę dłużej na dopasowanie.",
  ],
  error_already_seeking: ["You are waiting already.", "Już czekasz."],
  error_not_seeking: ["You are not waiting for a table.", "Nie czekasz na stół."],
  error_unknown_table: ["That table is gone.", "Tego stołu już nie ma."],
};

/** Counted nouns: key -> [English one, other], [Polish one, few, many]. */
export const AUTOMATCH_COUNTED = {
  people_waiting: [["{n} waiting", "{n} waiting"],
    ["{n} osoba czeka", "{n} osoby czekają", "{n} osób czeka"]],
  wait_seconds: [["{n} second", "{n} seconds"], ["{n} sekunda", "{n} sekundy", "{n} sekund"]],
  seconds_left: [["{n} second left", "{n} seconds left"],
    ["została {n} sekunda", "zostały {n} sekundy", "zostało {n} sekund"]],
};
