"""Watching the others play, under Node without a browser (clients/web/js/watch.js,
animate.js's pure part, board.js's chips): the sentence an Attack aimed at you is said in,
in English and Polish, from the events alone, and how long it is said; the others' cards
in play as cards; and which card each event sets flying from where to where."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { I18n } = await import("%(i18n)s");
const watch = await import("%(watch)s");
const { copyLabel, movesOf, MOST_MOVES } = await import("%(animate)s");
const { GameState } = await import("%(state)s");
const { playersView } = await import("%(board)s");

const card = (id, name, name_pl, types) => ({ id, name, name_pl, types, cost: 0, text: "" });
const catalogue = { editions: { 2: [
  card("witch", "Witch", "Wiedźma", ["action", "attack"]),
  card("militia", "Militia", "Milicja", ["action", "attack"]),
  card("smithy", "Smithy", "Kowal", ["action"]),
  card("curse", "Curse", "Klątwa", ["curse"]),
  card("copper", "Copper", "Miedź", ["treasure"]),
  card("moat", "Moat", "Fosa", ["action", "reaction"]),
] } };
const en = new I18n(null, ["en"]);
const pl = new I18n(null, ["pl"]);
en.setCatalogue(catalogue, 2);
pl.setCatalogue(catalogue, 2);
const names = ["Ann", "Bot 1"];
const said = (events, viewer, i18n) => watch.attacksOnYou(events, viewer, i18n)
  .map((notice) => watch.attackSentence(notice, names, i18n));

const witch = [
  { kind: "played", player: 1, cards: ["witch"], zone: "hand" },
  { kind: "drew", player: 1, count: 2, source: "witch" },
  { kind: "gained", player: 0, cards: ["curse"], zone: "discard", source: "witch" },
];
const militia = [{ kind: "played", player: 1, cards: ["militia"], zone: "hand" }];
const moat = [
  { kind: "played", player: 1, cards: ["witch"], zone: "hand" },
  { kind: "reacted", player: 0, cards: ["moat"], source: "witch" },
];
const notAttack = [
  { kind: "played", player: 1, cards: ["smithy"], zone: "hand" },
  { kind: "drew", player: 1, count: 3, source: "smithy" },
];
const mine = [
  { kind: "played", player: 0, cards: ["witch"], zone: "hand" },
  { kind: "gained", player: 1, cards: ["curse"], zone: "discard", source: "witch" },
];

const turn = [
  { kind: "played", player: 1, cards: ["smithy"], zone: "hand" },
  { kind: "played", player: 1, cards: ["copper", "copper"], zone: "hand" },
  { kind: "bought", player: 1, cards: ["witch"], zone: "discard" },
  { kind: "gained", player: 0, cards: ["curse"], zone: "discard", source: "witch" },
  { kind: "gained", player: 0, cards: ["copper"], zone: "hand", data: { from: "trash" } },
  { kind: "trashed", player: 1, cards: ["copper"], zone: "hand" },
  { kind: "trashed", player: 1, cards: ["witch"], zone: "in_play" },
  { kind: "played", player: 1, cards: ["witch"], zone: "in_play" },
  { kind: "drew", player: 1, count: 2 },
  { kind: "discarded", player: 1, count: 5, top: "copper", zone: "cleanup" },
];
const many = Array.from({ length: 20 }, (_, index) => (
  { kind: "played", player: 1, cards: [index === 19 ? "witch" : `card${index}`], zone: "hand" }));
const treasures = [
  { kind: "played", player: 1, cards: ["copper", "copper"], zone: "hand" },
  { kind: "played", player: 1, cards: ["silver"], zone: "hand" },
  { kind: "played", player: 1, cards: ["copper"], zone: "hand" },
];

const turnOf = (player) => ({ kind: "turn_started", player, data: { turn: 1, player_turn: 1 } });
const texts = (state) => state.notices.map((notice) => watch.attackSentence(notice, names, en));
let state = { notices: [], yours: false };
const round = [];
state = watch.attacksSaid(state, [turnOf(1), ...witch], 0, en);
round.push(texts(state));
state = watch.attacksSaid(state, militia, 0, en); // the same turn: both said
round.push(texts(state));
const drew = [{ kind: "drew", player: 1, count: 1 }];
const unchanged = watch.attacksSaid(state, drew, 0, en) === state;
state = watch.attacksSaid(state, [turnOf(0)], 0, en); // your turn: still said
round.push(texts(state));
state = watch.attacksSaid(state, [turnOf(1)], 0, en); // the next player's: gone
round.push(texts(state));
state = watch.attacksSaid(state, [turnOf(0), turnOf(1), ...witch], 0, en); // in one update
round.push(texts(state));

// the chips: the others' play areas as cards, yours under your hand only
const game = new GameState(0);
game.applySnapshot(3, {
  edition: 2, kingdom: [], supply: {}, trash: [], result: null,
  turn: { number: 2, player: 1, player_turn: 1, phase: "buy", actions: 0, buys: 1, coins: 2 },
  players: [0, 1].map((seat) => ({
    seat, name: names[seat], hand_size: 5, in_play: seat ? ["witch", "copper"] : ["smithy"],
    set_aside: [], deck_size: 5, discard_top: null, turns: 1, resigned: false, points: 3,
    ...(seat ? {} : { hand: ["copper"], looking: [] }),
  })),
});
const chipCards = [];
const walk = (node, seat) => {
  if (typeof node !== "object" || node === null) return;
  const at = node.props?.dataset?.seat ?? seat;
  if (node.props?.dataset?.card) chipCards.push([Number(at), node.props.dataset.card, node.tag]);
  for (const child of node.children) walk(child, at);
};
walk(playersView(game, en), undefined);

console.log(JSON.stringify({
  chipCards,
  round, unchanged,
  witch: [said(witch, 0, en), said(witch, 0, pl)],
  militia: [said(militia, 0, en), said(militia, 0, pl)],
  moat: said(moat, 0, en),
  notAttack: said(notAttack, 0, en),
  mine: said(mine, 0, en),
  spectator: said(witch, null, en),
  moves: [...movesOf(turn.slice(0, 3)), ...movesOf(turn.slice(3))],
  many: movesOf(many),
  treasures: movesOf(treasures),
  labels: [copyLabel("Copper", 3), copyLabel("Miedź", 1)],
  most: MOST_MOVES,
}));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(
        SCRIPT, modules=("i18n", "watch", "animate", "state", "board"))
    return result


def test_an_attack_on_you_is_said_with_what_it_did_to_you() -> None:
    english, polish = run()["witch"]
    assert english == ["Bot 1 plays Witch: you gain Curse."]
    assert polish == ["Bot 1 zagrywa: Wiedźma — dodajesz: Klątwa."]


def test_an_attack_whose_effect_is_still_to_come_is_said_aimed_at_you() -> None:
    english, polish = run()["militia"]
    assert english == ["Bot 1 plays Militia: it is aimed at you."]
    assert polish == ["Bot 1 zagrywa: Milicja — atak jest wymierzony w ciebie."]


def test_a_reaction_is_said_as_yours() -> None:
    assert run()["moat"] == ["Bot 1 plays Witch: you reveal Moat against it."]


def test_nothing_is_said_of_other_cards_your_own_attacks_or_to_a_spectator() -> None:
    out = run()
    assert out["notAttack"] == out["mine"] == out["spectator"] == []


def test_attacks_are_said_until_the_turn_after_yours_starts() -> None:
    witch = "Bot 1 plays Witch: you gain Curse."
    militia = "Bot 1 plays Militia: it is aimed at you."
    assert run()["round"] == [[witch], [witch, militia], [witch, militia], [], [witch]]
    assert run()["unchanged"] is True  # the same object: nothing to draw again


def test_the_others_cards_in_play_are_cards_in_their_chips() -> None:
    assert run()["chipCards"] == [[1, "witch", "button"], [1, "copper", "button"]]


def test_plays_buys_gains_and_trashings_fly_from_their_source_to_their_destination() -> None:
    hand = {"place": "hand", "seat": 1}
    play = {"place": "play", "seat": 1}
    assert run()["moves"] == [  # the turn in two updates, each under MOST_MOVES copies
        {"card": "smithy", "from": hand, "to": play, "count": 1},
        {"card": "copper", "from": hand, "to": play, "count": 2},
        {"card": "witch", "from": {"place": "supply"}, "to": {"place": "seat", "seat": 1},
         "count": 1},
        {"card": "curse", "from": {"place": "supply"}, "to": {"place": "seat", "seat": 0},
         "count": 1},
        {"card": "copper", "from": {"place": "trash"}, "to": {"place": "hand", "seat": 0},
         "count": 1},
        {"card": "copper", "from": hand, "to": {"place": "trash"}, "count": 1},
        {"card": "witch", "from": play, "to": {"place": "trash"}, "count": 1},
    ]  # a Throne Room's second play stays put; hidden cards and discards do not fly


def test_a_long_turn_flies_only_its_last_cards() -> None:
    out = run()
    assert len(out["many"]) == out["most"] == 4
    assert out["many"][-1]["card"] == "witch"


def test_the_same_card_between_the_same_places_flies_as_one_copy() -> None:
    hand_to_play = {"from": {"place": "hand", "seat": 1}, "to": {"place": "play", "seat": 1}}
    assert run()["treasures"] == [{"card": "copper", **hand_to_play, "count": 3},
                                  {"card": "silver", **hand_to_play, "count": 1}]
    assert run()["labels"] == ["Copper ×3", "Miedź"]  # the copy says how many it stands for
