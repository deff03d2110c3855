// The app's pages, by address: the route table (routes.js matches it). Each route makes
// its page's controller, which keeps the page's state, `start`s (loading what it shows),
// draws it (a `view` of its state, patched into the root at each `redraw`) and `stop`s
// when the address changes. The last route is the default: the lobby.

import { AccountPage, SignInPage } from "./account.js";
import { AdminPage } from "./admin.js";
import { seats } from "./api.js";
import { GamePage } from "./game.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LobbyPage, TablePage } from "./lobby.js";
import { ProfilePage } from "./profile.js";
import { ReplayPage } from "./replay.js";
import { matchRoute } from "./routes.js";
import { TokensPage } from "./tokens.js";

/** @type {Array<{name: string, path: string, page: (root: HTMLElement, app: object,
 *  params: object) => {start: () => Promise<void>, stop: () => void}}>} */
export const ROUTES = [
  { name: "admin", path: "#/admin", page: (root, app) => new AdminPage(root, app) },
  { name: "game", path: "#/game/:id", page: (root, app, { id }) => (seats.get(id)
    ? new GamePage(root, app, id, seats.get(id)) : new TablePage(root, app, id)) },
  { name: "watch", path: "#/watch/:id", page: (root, app, { id }) => new GamePage(root, app, id, null) },
  { name: "replay", path: "#/replay/:id", page: (root, app, { id }) => new ReplayPage(root, app, id) },
  { name: "sign-in", path: "#/sign-in", page: (root, app) => new SignInPage(root, app, false) },
  { name: "register", path: "#/register", page: (root, app) => new SignInPage(root, app, true) },
  { name: "account", path: "#/account", page: (root, app) => new AccountPage(root, app) },
  { name: "tokens", path: "#/account/tokens", page: (root, app) => new TokensPage(root, app) },
  { name: "top", path: "#/top/:pool?", page: (root, app, { pool }) => new LeaderboardPage(root, app, pool) },
  { name: "profile", path: "/@/:name", page: (root, app, { name }) => new ProfilePage(root, app, name) },
  { name: "lobby", path: "#/", page: (root, app) => new LobbyPage(root, app) },
];

/** The route the address names (`{route, params}`). */
export function routeOf(pathname, hash) {
  return matchRoute(ROUTES, pathname, hash);
}
