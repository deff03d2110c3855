// The words of a replay's page (its title, its turn and step) in English and Polish.

/** key -> [English, Polish, Slovak, Lithuanian] */
export const REPLAY_WORDS = {
  replay_versus: [" vs ", " kontra ", " vs ", " prieš "],
  replay_title: ["{players} · {date} · {result}", "{players} · {date} · {result}", "{players} · {date} · {result}", "{players} · {date} · {result}"],
  replay_title_unended: ["{players} · {date}", "{players} · {date}", "{players} · {date}", "{players} · {date}"],
  replay_won: ["{who} won", "wygrywa {who}", "víťazstvo: {who}", "laimi {who}"],
  replay_shared: ["{who} shared the win", "{who} dzielą zwycięstwo", "spoločné víťazstvo: {who}", "bendra pergalė: {who}"],
  replay_abandoned: ["abandoned", "przerwana", "opustená", "apleistas"],
  replay_setup: ["Set-up", "Przygotowanie", "Príprava", "Paruošimas"],
};
