// The words of a replay's page (its title, its turn and step) in English and Polish.

/** key -> [English, Polish] */
export const REPLAY_WORDS = {
  replay_versus: [" vs ", " kontra "],
  replay_title: ["{players} · {date} · {result}", "{players} · {date} · {result}"],
  replay_title_unended: ["{players} · {date}", "{players} · {date}"],
  replay_won: ["{who} won", "wygrywa {who}"],
  replay_shared: ["{who} shared the win", "{who} dzielą zwycięstwo"],
  replay_abandoned: ["abandoned", "przerwana"],
  replay_setup: ["Set-up", "Przygotowanie"],
};
