"""The account and profile pages' pure parts under Node (clients/web/js/account_words.js,
account.js, profile.js, passkeys.js): typed refusals in the page's language with the plural
a count takes, what each account action ends and the password change form in both
languages, a seat's name linking to its profile only when an account took it, and
WebAuthn's bytes to and from the server's base64url JSON."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

SCRIPT = """
import { addWords, I18n } from "%(i18n)s";
import { ACCOUNT_COUNTED, ACCOUNT_WORDS, errorText } from "%(account_words)s";
import { gameLink, gameRow, outcome } from "%(profile)s";
import { passwordChangeForm, revokesNote } from "%(account)s";
import { nameList } from "%(names)s";
import { creationOptions, credentialJson, fromBase64url, requestOptions, toBase64url }
  from "%(passkeys)s";
addWords(ACCOUNT_WORDS, ACCOUNT_COUNTED);
const out = {};
for (const lang of ["en", "pl"]) {
  const i18n = new I18n(null, [lang]);
  out[lang] = {
    waits: [1000, 2500, 5000, 22000].map((ms) => errorText(i18n,
      { code: "rate_limited", message: "server's", retryAfterMs: ms })),
    wrong: errorText(i18n, { code: "wrong_credentials", message: "server's" }),
    unknown: errorText(i18n, { code: "some_new_code", message: "the server's words" }),
    games: [1, 2, 5, 22].map((n) => i18n.count(n, "games")),
    revokes: Object.fromEntries(["sign_out", "sign_out_everywhere", "password", "delete",
      "token"].map((action) => [action, revokesNote(i18n, action)])),
    password: passwordChangeForm(i18n, { message: "", done: "", onsubmit: () => {} }),
    wrongOld: passwordChangeForm(i18n, { done: "", onsubmit: () => {},
      message: errorText(i18n, { code: "wrong_old_password", message: "server's" }) }),
    changed: i18n.t("password_changed", { count: 2 }),
    bots: nameList([{ name: "Bot 2 (strong)", bot: "strong", account: false },
      { name: "Robo", account: true, bot_account: true }], i18n),
  };
}
out.names = nameList([{ name: "Ada", account: true }, { name: "Guest", account: false },
  { name: "Zoë", account: true }], new I18n(null, ["en"]));
out.links = [
  gameLink({ id: "g-1", state: "finished" }, null), gameLink({ id: "g-2", state: "playing" }, null),
  gameLink({ id: "g-3", state: "playing" }, { seat: 0, token: "x" }),
  gameLink({ id: "g-4", state: "abandoned" }, null)];
const text = (node) => (node === null || node === false || node === undefined ? ""
  : typeof node === "string" ? node : Array.isArray(node) ? node.map(text).join("")
    : node.children.map(text).join(""));
const links = (node) => (node && typeof node === "object" ? (Array.isArray(node)
  ? node.flatMap(links) : [...(node.tag === "a" ? [node.props.href] : []),
    ...node.children.flatMap(links)]) : []);
const played = (winners, extra = {}) => ({ id: "g-5", state: "finished", edition: 2,
  created_at: "2026-11-30T09:00:00Z", finished_at: "2026-12-01T10:00:00Z",
  kingdom: ["cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
    "village", "workshop"], kingdom_name: null,
  seats: [{ seat: 0, name: "Ada", account: true }, { seat: 1, name: "Bob", account: true },
    { seat: 2, name: "Bot 3 (big_money)", bot: "big_money", account: false }],
  result: { winners, scores: [1, 2, 3], turns: [9, 9, 9] }, ...extra });
out.outcomes = [outcome(played([0]), "Ada"), outcome(played([1]), "Ada"),
  outcome(played([0, 1]), "Ada"), outcome(played([0], { state: "playing" }), "Ada"),
  outcome(played([0]), "Cy")];
for (const lang of ["en", "pl"]) {
  const i18n = new I18n(null, [lang]);
  const row = gameRow(played([0], { rated: true, rating_change:
    { seat: 0, before: 1500, after: 1484, provisional: true } }), "Ada", i18n);
  out[lang].row = text(row);
  out[lang].rowLinks = links(row);
  out[lang].namedRow = text(gameRow(played([0], { kingdom_name: "First Game" }), "Ada", i18n));
}
const bytes = Uint8Array.from([0, 250, 251, 252, 253, 254, 255, 62, 63]);
const made = creationOptions({ challenge: "AAEC", rp: { id: "localhost" },
  user: { id: "AAAAAAAAAAE", name: "Ada" },
  excludeCredentials: [{ id: "-_8", type: "public-key" }] });
const asked = requestOptions({ challenge: "_w", rpId: "localhost" });
out.passkeys = {
  text: toBase64url(bytes), back: [...fromBase64url(toBase64url(bytes))],
  view: toBase64url(bytes.subarray(1, 3)), buffer: toBase64url(bytes.buffer),
  challenge: [...made.publicKey.challenge], user: [...made.publicKey.user.id],
  excluded: [...made.publicKey.excludeCredentials[0].id], rpId: made.publicKey.rp.id,
  asked: [...asked.publicKey.challenge], allowed: asked.publicKey.allowCredentials,
  json: credentialJson({ id: "AQI", rawId: Uint8Array.from([1, 2]).buffer, type: "public-key",
    authenticatorAttachment: "platform", getClientExtensionResults: () => ({}),
    response: { clientDataJSON: Uint8Array.from([123]).buffer, signature: Uint8Array.from([9]),
      authenticatorData: Uint8Array.from([7]).buffer, userHandle: null } }),
};
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    result: dict[str, Any] = run_module(SCRIPT, modules=(
        "i18n", "account_words", "profile", "names", "passkeys", "account"))
    return result


pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules


def test_refusals_are_said_in_the_pages_language_with_their_counts() -> None:
    words = run()
    assert words["en"]["waits"] == [
        "Too many attempts: try again in 1 second.", "Too many attempts: try again in 3 seconds.",
        "Too many attempts: try again in 5 seconds.",
        "Too many attempts: try again in 22 seconds."]
    assert words["pl"]["waits"] == [
        "Zbyt wiele prób: spróbuj ponownie za 1 sekundę.",
        "Zbyt wiele prób: spróbuj ponownie za 3 sekundy.",
        "Zbyt wiele prób: spróbuj ponownie za 5 sekund.",
        "Zbyt wiele prób: spróbuj ponownie za 22 sekundy."]
    assert words["pl"]["wrong"] == "Nie ma konta o tej nazwie i haśle."
    assert words["en"]["unknown"] == words["pl"]["unknown"] == "the server's words"
    assert words["pl"]["games"] == ["1 gra", "2 gry", "5 gier", "22 gry"]


def test_an_accounts_name_links_to_its_profile_and_a_guests_does_not() -> None:
    names = run()["names"]
    assert names[0] == {"tag": "a", "props": {"class": "player", "href": "/@/Ada"},
                        "children": ["Ada"]}
    assert names[1:4] == [", ", "Guest", ", "]
    assert names[4]["props"]["href"] == "/@/Zo%C3%AB"


def test_a_bots_name_is_marked_bot_with_an_accessible_name() -> None:
    words = run()
    for lang, strong in (("en", "Expert bot"), ("pl", "Ekspercki bot")):
        in_server, account, = words[lang]["bots"][0], words[lang]["bots"][2]
        # an in-server bot: its name (its level's), then the mark, named by it
        assert in_server["children"][0] == strong
        mark = in_server["children"][2]
        assert mark["children"] == ["BOT"]
        assert mark["props"]["role"] == "img" and mark["props"]["aria-label"] == strong
        # a bot account's name links to its profile and is marked too
        link, mark = account["children"][0], account["children"][2]
        assert link["props"]["href"] == "/@/Robo" and link["children"] == ["Robo"]
        assert mark["children"] == ["BOT"] and mark["props"]["aria-label"] == "bot"


def test_a_listed_game_leads_to_its_replay_or_to_watching_it() -> None:
    assert run()["links"] == [
        {"href": "/#/replay/g-1", "label": "replay"}, {"href": "/#/watch/g-2", "label": "watch"},
        {"href": "/#/game/g-3", "label": "resume"}, {"href": "/#/replay/g-4", "label": "replay"}]


def test_passkey_options_and_credentials_turn_to_bytes_and_back() -> None:
    passkeys = run()["passkeys"]
    assert passkeys["text"] == "APr7_P3-_z4_"  # URL-safe, unpadded
    assert passkeys["back"] == [0, 250, 251, 252, 253, 254, 255, 62, 63]
    assert passkeys["view"] == "-vs" and passkeys["buffer"] == passkeys["text"]
    assert passkeys["challenge"] == [0, 1, 2] and passkeys["user"] == [0] * 7 + [1]
    assert passkeys["excluded"] == [251, 255] and passkeys["rpId"] == "localhost"
    assert passkeys["asked"] == [255] and passkeys["allowed"] == []
    assert passkeys["json"] == {
        "id": "AQI", "rawId": "AQI", "type": "public-key", "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
        "response": {"clientDataJSON": "ew", "authenticatorData": "Bw", "signature": "CQ"}}


def texts(node: Any) -> list[str]:
    """The text of a drawn node and its children, in order."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [text for child in node for text in texts(child)]
    if isinstance(node, dict):
        return texts(node.get("children", []))
    return []


def test_each_account_action_says_what_it_ends_in_both_languages() -> None:
    words = run()
    for lang in ("en", "pl"):
        for action, note in words[lang]["revokes"].items():
            assert note["props"]["id"] == f"revokes-{action}"  # the button's aria-describedby
            [text] = texts(note)
            assert text and not text.startswith("revokes_"), (lang, action)
    english, polish = words["en"]["revokes"], words["pl"]["revokes"]
    assert "every access token" in texts(english["sign_out_everywhere"])[0]
    assert "access tokens keep working" in texts(english["password"])[0]
    assert "wszystkie tokeny dostępu" in texts(polish["sign_out_everywhere"])[0]
    assert all(texts(english[action]) != texts(polish[action]) for action in english)


def test_the_password_change_form_asks_for_the_old_and_new_password() -> None:
    words = run()
    for lang, label in (("en", "Change password"), ("pl", "Zmień hasło")):
        form = words[lang]["password"]
        drawn = texts(form)
        assert drawn[0] == label and words[lang]["revokes"]["password"]["children"][0] in drawn
        inputs = [child["children"][2]["props"] for child in form["children"][0]["children"]
                  if isinstance(child, dict) and child["tag"] == "label"]
        assert [(field["name"], field["autocomplete"]) for field in inputs] == [
            ("old_password", "current-password"), ("new_password", "new-password")]
        assert all(field["type"] == "password" for field in inputs)
    assert words["en"]["changed"] == "Password changed; sessions ended elsewhere: 2."


def test_a_players_game_says_how_it_went_when_its_kingdom_whom_and_the_rating_change() -> None:
    words = run()
    assert words["outcomes"] == ["won", "lost", "shared", None, None]
    assert words["en"]["row"] == (
        "Won · 2026-12-01 · g-5 · finished · 3 of 3 seats · Edition 2 · Kingdom: Cellar, "
        "Market, Merchant, Militia, Mine, Moat, Remodel, Smithy, Village, Workshop · against Bob, "
        "Easy bot BOT · Rating 1484? (\u221216) Replay")
    assert words["pl"]["row"].startswith("Wygrana · 2026-12-01 · ")
    assert "przeciw Bob" in words["pl"]["row"]
    # the Kingdom, compact: a recommended set by its name
    assert " · Kingdom: First Game · " in words["en"]["namedRow"]
    assert " · Królestwo: First Game · " in words["pl"]["namedRow"]
    assert words["en"]["rowLinks"] == ["/@/Bob", "/#/replay/g-5"]  # the opponent, linked


def test_a_wrong_old_password_is_said_as_such_on_the_password_form() -> None:
    words = run()
    for lang, said in (("en", "That is not your current password: nothing changed."),
                       ("pl", "To nie jest twoje obecne hasło: nic nie zmieniono.")):
        assert said in texts(words[lang]["wrongOld"])
        assert "konta o tej nazwie" not in said and "No account" not in said
