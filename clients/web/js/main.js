// The page: loads the server's description and the card catalogue, then shows the page
// the address names: #/ (lobby), #/game/ID (your seat, or joining it), #/watch/ID,
// #/replay/ID, #/admin (admins only). The language follows the browser unless chosen
// with the switch.

import { AdminPage, showAdminLink } from "./admin.js";
import { api, seats } from "./api.js";
import { fill, h } from "./dom.js";
import { GamePage } from "./game.js";
import { I18n } from "./i18n.js";
import { LobbyPage, tablePage } from "./lobby.js";
import { ReplayPage } from "./replay.js";

const root = document.getElementById("app");
const status = document.getElementById("status");
const languageButton = document.getElementById("language");

const app = {
  i18n: new I18n(window.localStorage, navigator.languages),
  server: null,
  cards: null,
  page: null,
  setStatus(text) {
    status.textContent = text;
    status.hidden = !text;
  },
  route,
};

function showLanguage() {
  document.documentElement.lang = app.i18n.lang;
  languageButton.textContent = app.i18n.t("language");
  languageButton.setAttribute("lang", app.i18n.lang === "pl" ? "en" : "pl");
  document.title = app.i18n.t("title");
}

/** Show the page the address names (again, after the language changed). */
async function route() {
  app.page?.stop();
  app.page = null;
  app.setStatus("");
  const [, kind, id] = window.location.hash.match(/^#\/(\w+)\/([^/]+)$/) || [];
  try {
    if (window.location.hash === "#/admin") app.page = new AdminPage(root, app);
    else if (kind === "game" && seats.get(id)) app.page = new GamePage(root, app, id, seats.get(id));
    else if (kind === "game") await tablePage(root, app, id);
    else if (kind === "watch") app.page = new GamePage(root, app, id, null);
    else if (kind === "replay") app.page = new ReplayPage(root, app, id);
    else app.page = new LobbyPage(root, app);
    await app.page?.start();
  } catch (error) {
    fill(root, h("p", { class: "refused", role: "alert" },
      error.code === "unknown_game" ? app.i18n.t("not_found") : `⚠ ${error.message}`),
    h("a", { href: "#/" }, app.i18n.t("back")));
  }
}

languageButton.addEventListener("click", () => {
  app.i18n.setLanguage(app.i18n.lang === "pl" ? "en" : "pl");
  showLanguage();
  if (app.page?.render && app.page.state) app.page.render();
  else route();
});
window.addEventListener("hashchange", route);

async function boot() {
  showLanguage();
  [app.server, app.cards] = await Promise.all([api.server(), api.cards()]);
  app.i18n.setCatalogue(app.cards, 2);
  showAdminLink(document.querySelector("header.top"));
  await route();
}

boot();
