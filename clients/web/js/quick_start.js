// The lobby's "Play" panel: one name for every way to play, the bot's level (named once,
// said in a sentence), and a button each for a game against that bot, a table to invite
// a friend to, and the automatch queue. Also the edition's choice, explained. Pure: vnodes.

import { levelAbout, levelOptions } from "./bot_levels.js";
import { h } from "./dom.js";
import { addWords } from "./i18n.js";

/** The Play panel's buttons. */
export const Quick = Object.freeze({
  BOT: "bot", // a 2-player table against the level chosen
  FRIEND: "friend", // a 2-player table of people: its page shows the link to send
  QUEUE: "queue", // automatch: a 2-player table with whoever seeks one
});

/** key -> [English, Polish, Slovak, Lithuanian] */
export const QUICK_WORDS = {
  play_title: ["Play", "Graj", "Hrať", "Žaisti"],
  quick_bot: ["Play a bot", "Zagraj z botem", "Hrať s botom", "Žaisti su botu"],
  quick_friend: ["Invite a friend", "Zaproś znajomego", "Pozvať priateľa", "Pakviesti draugą"],
  quick_queue: ["Find an opponent", "Znajdź przeciwnika", "Nájsť súpera", "Rasti varžovą"],
  more_options: ["More options", "Więcej opcji", "Viac možností", "Daugiau parinkčių"],
  edition_about: [
    "Edition 2 is the base game as sold since 2016; edition 1 is the 2008 original, six of "
      + "whose cards edition 2 replaced with seven new ones.",
    "Edycja 2 to gra podstawowa sprzedawana od 2016 roku; edycja 1 to oryginał z 2008 roku, "
      + "którego sześć kart edycja 2 zastąpiła siedmioma nowymi.",
    "Edícia 2 je základná hra predávaná od roku 2016; edícia 1 je originál z roku 2008, "
      + "ktorého šesť kariet edícia 2 nahradila siedmimi novými.",
    "2-asis leidimas – bazinis žaidimas, parduodamas nuo 2016 m.; 1-asis – 2008 m. "
      + "originalas, kurio šešias kortas 2-asis leidimas pakeitė septyniomis naujomis.",
  ],
};
addWords(QUICK_WORDS);

/**
 * The Play panel: the name field (`nameField`, the form's only one), the bot's level, and
 * the three buttons.
 * @param {object} app i18n, the server's bot strategies
 * @param {{level: string}} state the level chosen
 * @param {{choose: (name: string, value: string) => void,
 *   quick: (form: HTMLFormElement, kind: string) => void}} actions
 */
export function playPanel(app, state, actions, nameField) {
  const { i18n } = app;
  const t = (key) => i18n.t(key);
  const button = (kind, word, primary) => h("button", { type: "button", dataset: { quick: kind },
    class: primary ? "primary" : "",
    onclick: (event) => actions.quick(event.target.closest("form"), kind) }, t(word));
  return h("div", { class: "play" },
    h("h2", { id: "play-title" }, t("play_title")),
    h("div", { class: "play-fields" },
      h("label", {}, t("your_name"), " ", nameField),
      h("label", {}, t("bot_level_label"), " ", h("select", { name: "bot-level",
        "aria-describedby": "bot-level-about",
        onchange: (event) => actions.choose("level", event.target.value) },
      levelOptions(app.server.bot_strategies, i18n, state.level)))),
    h("p", { id: "bot-level-about", class: "note" }, levelAbout(state.level, i18n)),
    h("div", { class: "quick" }, button(Quick.BOT, "quick_bot", true),
      button(Quick.FRIEND, "quick_friend", false), button(Quick.QUEUE, "quick_queue", false)));
}

/** The edition's choice, with what the two are in a sentence. */
export function editionField(i18n, edition, onchange) {
  return [h("label", {}, i18n.t("edition"), " ", h("select", { name: "edition",
    "aria-describedby": "edition-about", onchange },
  h("option", { value: 2, selected: edition === "2" }, "2 (2016)"),
  h("option", { value: 1, selected: edition === "1" }, "1 (2008)"))),
  h("p", { id: "edition-about", class: "note" }, i18n.t("edition_about"))];
}
