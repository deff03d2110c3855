// The words of the leaderboards, a profile's ratings and the lobby's rated choice, in
// English and Polish (docs/RATINGS.md says what the numbers mean).

/** key -> [English, Polish] */
export const RATING_WORDS = {
  leaderboard: ["Leaderboard", "Ranking"],
  leaderboard_of: ["Leaderboard: {pool}", "Ranking: {pool}"],
  pools: ["Rating pools", "Rodzaje rankingu"],
  pool_2p: ["2 players", "2 graczy"],
  "pool_3-6p": ["3–6 players", "3–6 graczy"],
  rank: ["Rank", "Miejsce"],
  player: ["Player", "Gracz"],
  rating: ["Rating", "Ranking"],
  games_column: ["Games", "Gry"],
  ranks_shown: ["Places {from}–{to} of {total}", "Miejsca {from}–{to} z {total}"],
  nobody_rated: ["Nobody is rated in this pool yet.", "Nikt nie ma jeszcze rankingu w tej puli."],
  higher_ranks: ["Higher places", "Wyższe miejsca"],
  lower_ranks: ["Lower places", "Niższe miejsca"],
  provisional_words: ["(provisional)", "(tymczasowy)"],
  rating_legend: [
    "? marks a provisional rating: too few games yet for it to have settled. The bots' ratings are fixed points of the scale.",
    "? oznacza ranking tymczasowy: za mało gier, by się ustalił. Rankingi botów są stałymi punktami skali.",
  ],
  ratings: ["Ratings", "Rankingi"],
  rating_explained: [
    "The number shown is our estimate of your skill, on the scale of chess sites: everyone starts at 1500, and it moves with each rated game. ? marks a provisional rating: too few games yet for it to have settled. The leaderboard orders settled players by the skill we are sure they have, so a lucky start does not top it.",
    "Pokazana liczba to nasze oszacowanie twojej umiejętności, w skali znanej z serwisów szachowych: każdy zaczyna od 1500, a liczba zmienia się po każdej grze rankingowej. ? oznacza ranking tymczasowy: za mało gier, by się ustalił. Ranking porządkuje ustalonych graczy według umiejętności, której jesteśmy pewni, więc szczęśliwy początek nie wynosi nikogo na szczyt.",
  ],
  rating_now: ["{rating} · {games}", "{rating} · {games}"],
  no_rated_games: ["No rated games yet.", "Brak gier rankingowych."],
  against_bots: ["Against the bots", "Przeciw botom"],
  bot_column: ["Bot", "Bot"],
  wins: ["Wins", "Wygrane"],
  losses: ["Losses", "Przegrane"],
  ties: ["Ties", "Remisy"],
  chart_title: ["Rating after each rated game", "Ranking po każdej grze rankingowej"],
  chart_about: [
    "{games}: from {first} to {last}; lowest {low}, highest {high}.",
    "{games}: od {first} do {last}; najniżej {low}, najwyżej {high}.",
  ],
  chart_numbers: ["The numbers", "Liczby"],
  chart_game: ["Game", "Gra"],
  chart_finished: ["Finished", "Zakończona"],
  rated_table: ["Rated: the result counts for the players' ratings", "Rankingowa: wynik liczy się do rankingu graczy"],
  rated_about: [
    "Only accounts and the server's bots may sit at a rated table.",
    "Przy stole rankingowym mogą siedzieć tylko konta i boty serwera.",
  ],
  rated_guest: [
    "Rated tables need an account: sign in to play one (ratings belong to accounts).",
    "Stoły rankingowe wymagają konta: zaloguj się, by zagrać (ranking należy do konta).",
  ],
  error_rated_needs_account: [
    "Rated tables are for accounts only: sign in first.",
    "Stoły rankingowe są tylko dla kont: najpierw się zaloguj.",
  ],
};

/** Nouns met by a count: key -> [English one, other], [Polish one, few, many]. */
export const RATING_COUNTED = {
  rated_games: [["{n} rated game", "{n} rated games"],
    ["{n} gra rankingowa", "{n} gry rankingowe", "{n} gier rankingowych"]],
};
