// The header's menu: a link to every page a person may open by itself (the lobby, the
// leaderboard, the guide, registering (signing in is the header's link beside it), and
// signed in: their profile, their account, its access tokens; an admin's page). A game's
// own pages (play, watch, replay) are the lobby's rows. On a phone the list folds under one
// button; on a wider screen it is always shown. Pure: vnodes.

import { h } from "./dom.js";
import { addWords } from "./i18n.js";
import { appUrl, GUIDE_URL, profileUrl, STATS_URL } from "./routes.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const MENU_WORDS = {
  menu: ["Menu", "Menu", "Menu", "Meniu"],
  menu_play: ["Play", "Graj", "Hrať", "Žaisti"],
  menu_profile: ["My profile", "Mój profil", "Môj profil", "Mano profilis"],
  menu_account: ["Account", "Konto", "Účet", "Paskyra"],
  menu_tokens: ["Access tokens", "Tokeny dostępu", "Prístupové tokeny", "Prieigos raktai"],
  menu_stats: ["Card statistics", "Statystyki kart", "Štatistiky kariet", "Kortų statistika"],
  // the cards' pictograms are CC BY 3.0: their attribution is one tap away on every page
  menu_credits: ["Credits", "Autorzy", "Autori", "Autoriai"],
};
addWords(MENU_WORDS);

/** The menu's links: [href, word, id] (an id where the tests and styles name the link). */
export function menuLinks({ account, admin }) {
  const links = [[appUrl("#/"), "menu_play", "play-link"],
    [appUrl("#/top"), "leaderboard", "leaderboard-link"], [STATS_URL, "menu_stats", "stats-link"],
    [GUIDE_URL, "guide", "guide-link"],
    [`${GUIDE_URL}#credits`, "menu_credits", "credits-link"]];
  if (account) {
    links.push([profileUrl(account.name), "menu_profile"], [appUrl("#/account"), "menu_account"],
      [appUrl("#/account/tokens"), "menu_tokens"]);
  } else links.push([appUrl("#/register"), "register"]); // signing in: the header's own link
  if (admin) links.push([appUrl("#/admin"), "Admin", "admin-link"]);
  return links;
}

/**
 * The menu: its button (shown on a phone) and its links.
 * @param {object} app i18n, account, admin
 * @param {boolean} open the phone's list unfolded
 * @param {() => void} toggle
 */
export function menuView(app, open, toggle) {
  const t = (key) => (key === "Admin" ? key : app.i18n.t(key));
  return h("nav", { class: `menu${open ? " open" : ""}`, "aria-label": t("menu") },
    h("button", { type: "button", class: "menu-button", "aria-expanded": String(open),
      "aria-controls": "menu-links", onclick: toggle }, `☰ ${t("menu")}`),
    h("ul", { id: "menu-links" }, menuLinks(app).map(([href, word, id]) => h("li", { key: href },
      h("a", { href, id, hreflang: href === GUIDE_URL ? "en" : undefined }, t(word))))));
}
