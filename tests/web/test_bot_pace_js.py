"""The create form's bots' pace in the web client, under Node without a browser
(clients/web/js/bot_pace.js and the lobby's form): the server's pace chosen (named as the
server publishes it) and sending none, the four paces offered, the body sent with the pace
chosen, and their words in Polish."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { I18n } = await import("%(i18n)s");
const pace = await import("%(bot_pace)s");
const { createBody, createView } = await import("%(lobby)s");

const find = (node, test, found = []) => {
  if (typeof node !== "object" || node === null) return found;
  if (test(node)) found.push(node);
  for (const child of node.children) find(child, test, found);
  return found;
};
const text = (node) => (typeof node === "object"
  ? node.children.map(text).join("") : String(node));
const en = new I18n(null, ["en"]);
const pl = new I18n(null, ["pl"]);
const formOf = (server) => createView({ i18n: en, account: null, server,
  cards: { editions: { 2: [] }, kingdoms: { 2: {} } } }, { seats: 2, edition: "2",
  mode: "recommended", chosen: new Set(), rated: false, timeControl: null, message: "" },
{ choose: () => {}, pick: () => {}, create: () => {} });
const optionsOf = (form) => find(find(form, (n) => n.tag === "select"
  && n.props.name === "bot-pace")[0], (n) => n.tag === "option");
const app = { i18n: en, account: null };
const options = optionsOf(formOf({ bot_strategies: ["big_money"], bot_pace: "fast" }));
const unpublished = optionsOf(formOf({ bot_strategies: ["big_money"] }));
const sent = (value) => createBody(app, { seats: 2, edition: "2", timeControl: null },
  { elements: { rated: { checked: false }, "bot-pace": value === undefined ? undefined
    : { value } } }, { name: "Ada", kingdom: null, bots: {} });
console.log(JSON.stringify({
  values: options.map((o) => o.props.value),
  labels: options.map(text),
  selected: options.filter((o) => o.props.selected).map((o) => o.props.value),
  unpublished: text(unpublished[0]),
  serversPace: "bot_pace" in sent(""),
  slow: sent("slow").bot_pace,
  instant: sent("instant").bot_pace,
  withoutField: "bot_pace" in sent(undefined),
  polish: Object.keys(pace.BOT_PACE_WORDS).map((key) => pl.t(key)),
  untranslated: Object.keys(pace.BOT_PACE_WORDS).filter((key) => pl.t(key) === en.t(key)),
}));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(SCRIPT, modules=("i18n", "bot_pace", "lobby"))
    return result


def test_the_create_form_offers_the_servers_pace_chosen_then_the_four() -> None:
    out = run()
    assert out["values"] == ["", "instant", "fast", "normal", "slow"]
    assert out["labels"] == ["Server default (Fast)", "Instant", "Fast", "Normal", "Slow"]
    assert out["selected"] == [""]
    assert out["unpublished"] == "Server default"  # a server that does not say its pace


def test_the_create_body_sends_the_pace_chosen_and_none_for_the_servers() -> None:
    out = run()
    assert out["serversPace"] is False  # the host's bot_pace holds
    assert (out["slow"], out["instant"]) == ("slow", "instant")
    assert out["withoutField"] is False  # no field: the server's default


def test_the_paces_are_said_in_polish() -> None:
    out = run()
    assert out["untranslated"] == []
    assert out["polish"] == ["Tempo botów", "Natychmiast", "Szybko", "Normalnie", "Wolno",
                             "Domyślne serwera"]
