"""The web client's route table under Node (clients/web/js/pages.js, routes.js): which
page an address names (the hash first, a profile by its path, the lobby when nothing
matches), what a pattern matches, and that every route makes its page's controller."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

SCRIPT = """
const storage = new Map([["dominion.seat.g-1", JSON.stringify({ seat: 0, token: "t" })]]);
globalThis.localStorage = { getItem: (k) => storage.get(k) ?? null,
  setItem: (k, v) => storage.set(k, v) };
globalThis.window = globalThis;
const node = () => ({ dataset: {}, setAttribute() {}, append() {}, replaceChildren() {},
  addEventListener() {} });
globalThis.document = { createElement: node, createTextNode: (text) => ({ text }) };
const { I18n } = await import("%(i18n)s");
const { ROUTES, routeOf } = await import("%(pages)s");
const { matchRoute } = await import("%(routes)s");
const named = ([path, hash]) => {
  const { route, params } = routeOf(path, hash);
  return { page: route.name, params };
};
const out = { routes: [
  ["/", ""], ["/", "#/"], ["/", "#/game/g-0123456789ab"], ["/", "#/sign-in"],
  ["/", "#/account"], ["/", "#/account/tokens"], ["/@/Ada", ""], ["/@/Zo%%C3%%AB", ""],
  ["/@/Ada", "#/replay/g-1"], ["/@/%%E0%%A4%%A", ""], ["/@/a/b", ""],
  ["/", "#/top"], ["/", "#/top/3-6p"], ["/", "#/game"], ["/", "#/account/other"],
  ["/stats", ""], ["/stats", "#/top"],
].map(named) };
out.table = ROUTES.map((route) => [route.name, route.path]);
const table = [{ name: "one", path: "#/a/:x/b/:y?" }, { name: "path", path: "/p/:x" },
  { name: "default", path: "#/" }];
out.matched = [["/", "#/a/1/b"], ["/", "#/a/1/b/2"], ["/p/%%20", "#/a"], ["/p/q", "#/a/1/b/2"],
  ["/", "#/a.1/b"], ["/", "#/a/1/b/2/3"]].map(([path, hash]) => {
  const { route, params } = matchRoute(table, path, hash);
  return [route.name, params];
});
const app = { i18n: new I18n(null, ["en"]), account: null, server: { limits: {} } };
out.made = [];
for (const address of [["/", "#/admin"], ["/", "#/game/g-1"], ["/", "#/game/g-2"],
  ["/", "#/watch/g-1"], ["/", "#/replay/g-1"], ["/", "#/sign-in"], ["/", "#/register"],
  ["/", "#/account"], ["/", "#/account/tokens"], ["/", "#/top"], ["/stats", ""], ["/@/Ada", ""],
  ["/", "#/"]]) {
  const { route, params } = routeOf(...address);
  const page = await route.page(node(), app, params);
  out.made.push([route.name, page.constructor.name, typeof page.start, typeof page.stop]);
}
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    result: dict[str, Any] = run_module(SCRIPT, modules=("i18n", "pages", "routes"))
    return result


pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules


def test_an_address_names_its_page_and_a_profile_has_a_path() -> None:
    assert run()["routes"] == [
        {"page": "lobby", "params": {}}, {"page": "lobby", "params": {}},
        {"page": "game", "params": {"id": "g-0123456789ab"}}, {"page": "sign-in", "params": {}},
        {"page": "account", "params": {}}, {"page": "tokens", "params": {}},
        {"page": "profile", "params": {"name": "Ada"}},
        {"page": "profile", "params": {"name": "Zoë"}},
        {"page": "replay", "params": {"id": "g-1"}},  # the hash wins: a link from a profile
        {"page": "profile", "params": {"name": "%E0%A4%A"}},  # a malformed escape, as it is
        {"page": "lobby", "params": {}},
        {"page": "top", "params": {"pool": None}}, {"page": "top", "params": {"pool": "3-6p"}},
        {"page": "lobby", "params": {}},  # a game needs its id
        {"page": "lobby", "params": {}},  # an address naming nothing: the default page
        {"page": "stats", "params": {}}, {"page": "top", "params": {"pool": None}}]


def test_the_route_table_names_each_page_once_and_the_lobby_last() -> None:
    table = run()["table"]
    assert [name for name, _ in table] == [
        "admin", "game", "watch", "replay", "sign-in", "register", "account", "tokens", "top",
        "stats", "profile", "lobby"]
    assert len({path for _, path in table}) == len(table)
    assert table[-1] == ["lobby", "#/"]  # the default


def test_a_pattern_names_its_parts_and_matches_the_whole_address() -> None:
    assert run()["matched"] == [
        ["one", {"x": "1", "y": None}], ["one", {"x": "1", "y": "2"}],
        ["path", {"x": " "}],  # the hash names nothing: the path does
        ["one", {"x": "1", "y": "2"}],  # the hash wins
        ["default", {}],  # a pattern's dot is a dot, not any character
        ["default", {}]]  # the whole address, not its start


def test_every_route_loads_its_module_and_makes_its_pages_controller() -> None:
    assert run()["made"] == [
        ["admin", "AdminPage", "function", "function"],
        ["game", "GamePage", "function", "function"],  # a seat held here: playing it
        ["game", "TablePage", "function", "function"],  # none: the table, to join or watch
        ["watch", "GamePage", "function", "function"],
        ["replay", "ReplayPage", "function", "function"],
        ["sign-in", "SignInPage", "function", "function"],
        ["register", "SignInPage", "function", "function"],
        ["account", "AccountPage", "function", "function"],
        ["tokens", "TokensPage", "function", "function"],
        ["top", "LeaderboardPage", "function", "function"],
        ["stats", "StatsPage", "function", "function"],
        ["profile", "ProfilePage", "function", "function"],
        ["lobby", "LobbyPage", "function", "function"]]
