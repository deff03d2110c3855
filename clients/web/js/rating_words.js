// The words of the leaderboards, a profile's ratings and the lobby's rated choice, in
// English, Polish, Slovak and Lithuanian (docs/RATINGS.md says what the numbers mean).

/** key -> [English, Polish, Slovak, Lithuanian] */
export const RATING_WORDS = {
  leaderboard: ["Leaderboard", "Ranking", "Rebríček", "Lyderių lentelė"],
  leaderboard_of: ["Leaderboard: {pool}", "Ranking: {pool}", "Rebríček: {pool}", "Lyderių lentelė: {pool}"],
  pools: ["Rating pools", "Rodzaje rankingu", "Skupiny hodnotenia", "Reitingų grupės"],
  pool_2p: ["2 players", "2 graczy", "2 hráči", "2 žaidėjai"],
  "pool_3-6p": ["3–6 players", "3–6 graczy", "3–6 hráčov", "3–6 žaidėjai"],
  rank: ["Rank", "Miejsce", "Poradie", "Vieta"],
  player: ["Player", "Gracz", "Hráč", "Žaidėjas"],
  rating: ["Rating", "Ranking", "Hodnotenie", "Reitingas"],
  games_column: ["Games", "Gry", "Hry", "Žaidimai"],
  ranks_shown: ["Places {from}–{to} of {total}", "Miejsca {from}–{to} z {total}", "Miesta {from}–{to} z {total}", "Vietos {from}–{to} iš {total}"],
  nobody_rated: ["Nobody is rated in this pool yet.", "Nikt nie ma jeszcze rankingu w tej puli.", "V tejto skupine zatiaľ nikto nemá hodnotenie.", "Šioje grupėje dar niekas neturi reitingo."],
  higher_ranks: ["Higher places", "Wyższe miejsca", "Vyššie miesta", "Aukštesnės vietos"],
  lower_ranks: ["Lower places", "Niższe miejsca", "Nižšie miesta", "Žemesnės vietos"],
  provisional_words: ["(provisional)", "(tymczasowy)", "(predbežné)", "(preliminarus)"],
  rating_legend: [
    "? marks a provisional rating: too few games yet for it to have settled. The bots' ratings are fixed points of the scale.",
    "? oznacza ranking tymczasowy: za mało gier, by się ustalił. Rankingi botów są stałymi punktami skali.",
    "? označuje predbežné hodnotenie: zatiaľ priveľmi málo hier na to, aby sa ustálilo. Hodnotenia botov sú pevné body stupnice.",
    "? žymi preliminarų reitingą: dar per mažai žaidimų, kad jis nusistovėtų. Botų reitingai – fiksuoti skalės taškai.",
  ],
  ratings: ["Ratings", "Rankingi", "Hodnotenia", "Reitingai"],
  rating_explained: [
    "The number shown is our estimate of your skill, on the scale of chess sites: everyone starts at 1500, and it moves with each rated game. ? marks a provisional rating: too few games yet for it to have settled. The leaderboard orders settled players by the skill we are sure they have, so a lucky start does not top it.",
    "Pokazana liczba to nasze oszacowanie twojej umiejętności, w skali znanej z serwisów szachowych: każdy zaczyna od 1500, a liczba zmienia się po każdej grze rankingowej. ? oznacza ranking tymczasowy: za mało gier, by się ustalił. Ranking porządkuje ustalonych graczy według umiejętności, której jesteśmy pewni, więc szczęśliwy początek nie wynosi nikogo na szczyt.",
    "Zobrazené číslo je náš odhad tvojej sily na stupnici šachových stránok: každý začína na 1500 a mení sa s každou hodnotenou hrou. ? označuje predbežné hodnotenie: zatiaľ priveľmi málo hier na to, aby sa ustálilo. Rebríček radí ustálených hráčov podľa sily, ktorou si sme istí, takže šťastný začiatok ho neovládne.",
    "Rodomas skaičius – mūsų tavo meistriškumo įvertis šachmatų svetainių skalėje: visi pradeda nuo 1500, o jis keičiasi po kiekvieno reitinguojamo žaidimo. ? žymi preliminarų reitingą: dar per mažai žaidimų, kad jis nusistovėtų. Lyderių lentelė rikiuoja nusistovėjusius žaidėjus pagal meistriškumą, kuriuo esame tikri, todėl sėkminga pradžia jos neužkariaus.",
  ],
  rating_now: ["{rating} · {games}", "{rating} · {games}", "{rating} · {games}", "{rating} · {games}"],
  no_rated_games: ["No rated games yet.", "Brak gier rankingowych.", "Zatiaľ žiadne hodnotené hry.", "Reitinguojamų žaidimų dar nėra."],
  against_bots: ["Against the bots", "Przeciw botom", "Proti botom", "Prieš botus"],
  bot_column: ["Bot", "Bot", "Bot", "Botas"],
  wins: ["Wins", "Wygrane", "Výhry", "Pergalės"],
  losses: ["Losses", "Przegrane", "Prehry", "Pralaimėjimai"],
  ties: ["Ties", "Remisy", "Remízy", "Lygiosios"],
  chart_title: ["Rating after each rated game", "Ranking po każdej grze rankingowej", "Hodnotenie po každej hodnotenej hre", "Reitingas po kiekvieno reitinguojamo žaidimo"],
  chart_about: [
    "{games}: from {first} to {last}; lowest {low}, highest {high}.",
    "{games}: od {first} do {last}; najniżej {low}, najwyżej {high}.",
    "{games}: od {first} po {last}; najnižšie {low}, najvyššie {high}.",
    "{games}: nuo {first} iki {last}; žemiausias {low}, aukščiausias {high}.",
  ],
  chart_numbers: ["The numbers", "Liczby", "Čísla", "Skaičiai"],
  chart_game: ["Game", "Gra", "Hra", "Žaidimas"],
  chart_finished: ["Finished", "Zakończona", "Skončená", "Baigtas"],
  rated_table: ["Rated: the result counts for the players' ratings", "Rankingowa: wynik liczy się do rankingu graczy", "Hodnotená: výsledok sa ráta do hodnotenia hráčov", "Reitinguojamas: rezultatas įskaitomas į žaidėjų reitingus"],
  rated_about: [
    "Only accounts and the server's bots may sit at a rated table.",
    "Przy stole rankingowym mogą siedzieć tylko konta i boty serwera.",
    "Pri hodnotenom stole môžu sedieť len účty a boty servera.",
    "Prie reitinguojamo stalo gali sėsti tik paskyros ir serverio botai.",
  ],
  rated_guest: [
    "Rated tables need an account: sign in to play one (ratings belong to accounts).",
    "Stoły rankingowe wymagają konta: zaloguj się, by zagrać (ranking należy do konta).",
    "Hodnotené stoly vyžadujú účet: prihlás sa a hraj (hodnotenia patria účtom).",
    "Reitinguojamiems stalams reikia paskyros: prisijunk, kad žaistum (reitingai priklauso paskyroms).",
  ],
  error_rated_needs_account: [
    "Rated tables are for accounts only: sign in first.",
    "Stoły rankingowe są tylko dla kont: najpierw się zaloguj.",
    "Hodnotené stoly sú len pre účty: najprv sa prihlás.",
    "Reitinguojami stalai – tik paskyroms: pirmiausia prisijunk.",
  ],
};

/** Nouns met by a count: key -> per language, a form per CLDR plural category. */
export const RATING_COUNTED = {
  rated_games: [
    { one: "{n} rated game", other: "{n} rated games" },
    { one: "{n} gra rankingowa", few: "{n} gry rankingowe", many: "{n} gier rankingowych", other: "{n} gry rankingowej" },
    { one: "{n} hodnotená hra", few: "{n} hodnotené hry", many: "{n} hodnotenej hry", other: "{n} hodnotených hier" },
    { one: "{n} reitinguojamas žaidimas", few: "{n} reitinguojami žaidimai", many: "{n} reitinguojamo žaidimo", other: "{n} reitinguojamų žaidimų" },
  ],
};
