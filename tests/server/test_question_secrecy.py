"""No viewer learns a hidden card from which questions are asked (docs/RULES.md,
"Hidden and public information": only the timing of an answer may differ).

Each case builds two games that differ only in cards hidden from every viewer but their
owner (a hand's card against a deck's, say), answers both alike as far as anyone else
can see, and checks that every other seat and a spectator receive byte-identical frames
in protocol versions 1 and 2: the snapshot, then each change's frames, made by the
server's own `server/play/frames.py`. The owner must see a difference, or the case would
prove nothing. The randomised test swaps a hand's card with a deck's in random games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from dominion.bots import NoTable, make_strategy
from dominion.server.engine import (
    Decision,
    Event,
    Game,
    IllegalAnswer,
    Setup,
    replay,
    visible_event,
)
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.frames import Audience, change_frames, snapshot_frame
from tests.engine.scenario import pick, scenario

GAME_ID = "g-secrecy"
VERSIONS = (1, 2)

Picks = tuple[Any, ...]
"""One answer, as `pick` takes it: option ids, card ids or (kind, card) pairs."""


@dataclass(frozen=True)
class Per:
    """An answer that the two games give differently (with the same public effect)."""

    a: Picks
    b: Picks


FORCED = None
"""The question must be forced in both games (and is answered as a client would)."""

Step = Picks | Per | None
END = (("end_phase", None),)
ALL = (("play_all_treasures", None),)


@dataclass(frozen=True)
class Case:
    name: str
    card: str | None
    """The Kingdom card whose questions the case is about (None: the turn itself)."""
    kingdom: tuple[str, ...]
    a: dict[str, Any]
    b: dict[str, Any]
    """Each game's zones (`scenario` keywords) where they differ."""
    script: tuple[Step, ...]
    owner: int = 0
    """The seat whose hidden cards differ: the one viewer allowed to tell the games apart."""
    common: dict[str, Any] = field(default_factory=dict)
    """`scenario` keywords both games share."""


BASE = ("cellar", "chapel", "village", "workshop", "smithy", "market", "laboratory",
        "festival", "moat", "witch")


def kingdom(*cards: str, edition: int = 2) -> tuple[str, ...]:
    """`cards` and enough others of the edition to make ten."""
    fill = [c for c in BASE if c not in cards and c in kingdom_cards(edition)]
    fill += [c for c in kingdom_cards(edition) if c not in cards and c not in fill]
    return (*cards, *fill)[:10]


C, E, S = "copper", "estate", "silver"

CASES = (
    Case("the Action phase, an Action card in hand or in the deck", None, kingdom(),
         a={"hands": {0: ["village", C, C, C, E]}, "decks": {0: [C, C, C, C, E]}},
         b={"hands": {0: [E, C, C, C, E]}, "decks": {0: [C, C, C, C, "village"]}},
         script=(END, ALL, END)),
    Case("the Buy phase with nothing to buy, a Treasure in hand or in the deck", None,
         kingdom(), common={"supply": {C: 0, "curse": 0}},
         a={"hands": {0: [E] * 5}, "decks": {0: [S]}},
         b={"hands": {0: [S, E, E, E, E]}, "decks": {0: [E]}},
         script=(END,)),
    Case("Moat in hand or in the deck", "moat", kingdom("moat", "witch"), owner=1,
         a={"hands": {0: ["witch"], 1: ["moat", C, C, C, E]}, "decks": {0: [C, C], 1: [E]}},
         b={"hands": {0: ["witch"], 1: [E, C, C, C, E]}, "decks": {0: [C, C], 1: ["moat"]}},
         script=((("play", "witch"),), Per((("no", "moat"),), FORCED), ALL, END)),
    Case("Militia against a hand of one card kind", "militia", kingdom("militia"), owner=1,
         common={"players": 3},
         a={"hands": {0: ["militia"], 1: [C] * 5, 2: [C] * 3}, "decks": {1: [E]}},
         b={"hands": {0: ["militia"], 1: [C, C, C, C, E], 2: [C] * 3}, "decks": {1: [C]}},
         script=((("play", "militia"),), Per(FORCED, (C, C)), END)),
    Case("Bureaucrat against one kind of Victory card, or two", "bureaucrat",
         kingdom("bureaucrat"), owner=1,
         a={"hands": {0: ["bureaucrat"], 1: [E, C, C, C, C]}, "decks": {1: ["duchy"]}},
         b={"hands": {0: ["bureaucrat"], 1: [E, "duchy", C, C, C]}, "decks": {1: [C]}},
         script=((("play", "bureaucrat"),), Per(FORCED, (E,)), END)),
    Case("Bureaucrat against a hand without Victory cards", "bureaucrat",
         kingdom("bureaucrat"), owner=1,
         a={"hands": {0: ["bureaucrat"], 1: [C] * 5}, "decks": {1: [E]}},
         b={"hands": {0: ["bureaucrat"], 1: [C, C, C, C, E]}, "decks": {1: [C]}},
         script=((("play", "bureaucrat"),),)),  # the answer reveals the hand
    Case("Moneylender with a Copper in hand or not", "moneylender", kingdom("moneylender"),
         a={"hands": {0: ["moneylender", C, E, E, E]}, "decks": {0: [E]}},
         b={"hands": {0: ["moneylender", E, E, E, E]}, "decks": {0: [C]}},
         script=((("play", "moneylender"),), Per((("no", C),), FORCED), END)),
    Case("Throne Room with an Action card to play twice, or none", "throne_room",
         kingdom("throne_room"),
         a={"hands": {0: ["throne_room", "smithy", C, C, C]}, "decks": {0: [E, E, E]}},
         b={"hands": {0: ["throne_room", E, C, C, C]}, "decks": {0: [E, E, "smithy"]}},
         script=((("play", "throne_room"),), Per((), FORCED), ALL, END)),
    Case("first-edition Throne Room with one kind of Action card, or two", "throne_room",
         kingdom("throne_room", edition=1), common={"edition": 1},
         a={"hands": {0: ["throne_room", "smithy", E, C, C]},
            "decks": {0: ["village", E, E, E, E, E]}},
         b={"hands": {0: ["throne_room", "smithy", "village", C, C]},
            "decks": {0: [E, E, E, E, E, E]}},
         script=((("play", "throne_room"),), Per(FORCED, ("smithy",)))),
    Case("Mine with a Treasure to trash, or none", "mine", kingdom("mine"),
         a={"hands": {0: ["mine", E, E, E, E]}, "decks": {0: [S]}},
         b={"hands": {0: ["mine", S, E, E, E]}, "decks": {0: [E]}},
         script=((("play", "mine"),), Per(FORCED, ()), END)),
    Case("first-edition Mine with one kind of Treasure, or two", "mine",
         kingdom("mine", edition=1), common={"edition": 1},
         a={"hands": {0: ["mine", S, S, E, E]}, "decks": {0: [C]}},
         b={"hands": {0: ["mine", S, C, E, E]}, "decks": {0: [S]}},
         script=((("play", "mine"),), Per(FORCED, (S,)), ("gold",))),
    Case("Remodel with a hand of one card kind", "remodel", kingdom("remodel"),
         a={"hands": {0: ["remodel", "gold", "gold"]}, "decks": {0: [E]}},
         b={"hands": {0: ["remodel", "gold", E]}, "decks": {0: ["gold"]}},
         script=((("play", "remodel"),), Per(FORCED, ("gold",)), ("province",))),
    Case("Library drawing an Action card, or not", "library", kingdom("library", "village"),
         a={"hands": {0: ["library", C, C, C, C]}, "decks": {0: [C, C, E, "village"]}},
         b={"hands": {0: ["library", C, C, C, C]}, "decks": {0: ["village", C, C, E]}},
         script=((("play", "library"),), Per((("no", "village"),), FORCED), FORCED,
                 FORCED, END)),
    Case("Sentry putting back two identical cards, or two different", "sentry",
         kingdom("sentry"),
         a={"hands": {0: ["sentry"]}, "decks": {0: ["gold", C, C, S]}},
         b={"hands": {0: ["sentry"]}, "decks": {0: [C, C, "gold", S]}},
         script=((("play", "sentry"),), Per((("keep", C),), (("keep", "gold"),)),
                 (("keep", C),), Per(FORCED, (0, 1)))),
    Case("Poacher discarding from a hand of one card kind", "poacher", kingdom("poacher"),
         common={"supply": {"cellar": 0}},
         a={"hands": {0: ["poacher", C, C]}, "decks": {0: [E, C]}},
         b={"hands": {0: ["poacher", C, E]}, "decks": {0: [C, C]}},
         script=((("play", "poacher"),), Per(FORCED, (C,)))),
    Case("Artisan putting back from a hand of one card kind", "artisan", kingdom("artisan"),
         a={"hands": {0: ["artisan", S]}, "decks": {0: [E]}},
         b={"hands": {0: ["artisan", E]}, "decks": {0: [S]}},
         script=((("play", "artisan"),), (S,), Per(FORCED, (E,)))),
    Case("Chancellor with an empty deck, or not", "chancellor",
         kingdom("chancellor", edition=1), common={"edition": 1},
         a={"hands": {0: ["chancellor", C, C]}, "discards": {0: [E, C]}},
         b={"hands": {0: ["chancellor", C, C]}, "decks": {0: [E]}, "discards": {0: [C]}},
         script=((("play", "chancellor"),), Per(FORCED, (("no", None),)))),
)

WITHOUT_SECRET_QUESTIONS = {
    # Kingdom cards none of whose questions depend on cards hidden from anyone: with
    # the cases above, every Kingdom card of both editions.
    "cellar": "how many to discard: forced only for an empty hand, whose size is public",
    "chapel": "how many to trash: forced only for an empty hand",
    "harbinger": "forced only for an empty discard pile, which shows no top card",
    "vassal": "asked only about an Action card discarded face up",
    "workshop": "a gain from the public Supply",
    "feast": "a gain from the public Supply",
    "bandit": "about revealed cards",
    "spy": "about revealed cards",
    "thief": "about revealed cards",
    "witch": "no question (its victims' Moat: the Moat case)",
    **dict.fromkeys(
        ("merchant", "village", "gardens", "smithy", "council_room", "festival",
         "laboratory", "market", "woodcutter", "adventurer"), "no question"),
    # First-edition Moneylender must trash a Copper if it can, in public: no question.
    # Its second-edition text is a case above.
}


def answer(game: Game, step: Step) -> list[Event]:
    """Answer the pending question as a client would: a forced one at once, with its one
    answer; any other by `step`. The events it caused."""
    decision = game.pending
    assert decision is not None, "the game is over"
    if step is FORCED or decision.forced:
        assert decision.forced, f"{decision} should be forced"
        return game.answer(decision.player, decision.id, list(range(len(decision.options))))
    before = len(game.events)
    pick(game, *step)
    return game.events[before:]


def audiences(players: int) -> list[Audience]:
    return [(viewer, version) for viewer in (None, *range(players)) for version in VERSIONS]


def first_frames(game: Game, heard: Sequence[Audience]) -> dict[Audience, list[bytes]]:
    return {(viewer, version): [snapshot_frame(GAME_ID, game, viewer)]
            for viewer, version in heard}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_viewers_get_the_same_frames_whatever_the_hidden_cards(case: Case) -> None:
    games = [scenario(kingdom=case.kingdom, **case.common, **zones)
             for zones in (case.a, case.b)]
    heard = audiences(len(games[0].players))
    blind = [(viewer, version) for viewer, version in heard if viewer != case.owner]
    frames = [first_frames(game, heard) for game in games]
    for number, step in enumerate((None, *case.script)):
        if number:
            steps = (step.a, step.b) if isinstance(step, Per) else (step, step)
            for game, seen, own in zip(games, frames, steps, strict=True):
                for audience, out in change_frames(GAME_ID, game, answer(game, own),
                                                   heard).items():
                    seen[audience].extend(out)
        for audience in blind:
            assert frames[0][audience] == frames[1][audience], (
                f"{audience} (viewer, version) can tell the games apart "
                f"{'at the start' if not number else f'after answer {number}'}")
    assert all(frames[0][owner] != frames[1][owner]
               for owner in heard if owner[0] == case.owner), "the games do not differ"


def test_every_kingdom_card_is_a_case_or_asks_nothing_secret() -> None:
    every = set(kingdom_cards(1)) | set(kingdom_cards(2))
    cased = {case.card for case in CASES if case.card}
    assert cased.isdisjoint(WITHOUT_SECRET_QUESTIONS)
    assert cased | set(WITHOUT_SECRET_QUESTIONS) == every
    assert len(every) == 32


# -- randomised: a hand's card swapped with a deck's -------------------------------------

RANDOM_GAMES = 60
SWAPS_PER_GAME = 4
STEPS_AFTER_SWAP = 40


def translate(decision: Decision, like: Decision, chosen: Sequence[int]) -> list[int] | None:
    """The answer to `decision` that names the same options (by kind and card) as
    `chosen` names in `like`, if that is legal; else None."""
    if (decision.player, decision.kind, decision.source) != (like.player, like.kind,
                                                             like.source):
        return None
    free = list(range(len(decision.options)))
    ids = []
    for i in chosen:
        match = next((j for j in free if decision.options[j] == like.options[i]), None)
        if match is None:
            return None
        free.remove(match)
        ids.append(match)
    try:
        return list(decision.check(ids))
    except IllegalAnswer:
        return None


def swapped(game: Game, rng: random.Random) -> tuple[int, int, int] | None:
    """A seat (not the one deciding) and a card of its hand and one of its deck that differ.

    Within one seat, so that what each player owns (public: every gain and trash is, and
    views show it as `owned` and `points`) stays the same; a swap between two players'
    hidden cards would change what each owns, which the views rightly tell."""
    decider = game.pending.player if game.pending else None
    owners = [p for p in game.players if p.seat != decider and p.hand and p.deck]
    rng.shuffle(owners)
    for p in owners:
        pairs = [(h, d) for h in range(len(p.hand)) for d in range(len(p.deck))
                 if p.hand[h] != p.deck[d]]
        if pairs:
            return (p.seat, *rng.choice(pairs))
    return None


def compare_after_swap(setup: Setup, seed: int, answers: list[Any], rng: random.Random
                       ) -> int:
    """Replay to the same point twice, swap a card of one seat's hand with one of its deck
    in the second game, and answer both alike: a viewer other than that seat must get the
    same frames until the public history parts (the seat plays or reveals a swapped
    card). The swap need not even agree with what the viewer could deduce (a card seen
    put onto the deck, say): a stronger check. The number of changes compared."""
    games = [replay(setup, seed, answers), replay(setup, seed, answers)]
    swap = swapped(games[1], rng)
    if swap is None:
        return 0
    owner, h, d = swap
    p = games[1].players[owner]
    p.hand[h], p.deck[d] = p.deck[d], p.hand[h]
    viewer = rng.choice([v for v in (None, *range(len(setup.players))) if v != owner])
    heard = [(viewer, version) for version in VERSIONS]
    assert snapshot_frame(GAME_ID, games[0], viewer) == snapshot_frame(GAME_ID, games[1],
                                                                       viewer)
    bot = make_strategy("random", random.Random(rng.random()))
    compared = 0
    streams: list[list[dict[str, Any]]] = [[], []]
    """The events as the viewer saw them, since the swap."""
    for _ in range(STEPS_AFTER_SWAP):
        first, second = games[0].pending, games[1].pending
        if first is None or second is None:
            break
        chosen = bot.choose(first, NoTable())
        other = translate(second, first, chosen)
        if other is None:
            break  # the seat cannot answer alike: the public history parts here
        events = (games[0].answer(first.player, first.id, chosen),
                  games[1].answer(second.player, second.id, other))
        for stream, got in zip(streams, events, strict=True):
            stream.extend(visible_event(e, viewer) for e in got)
        shorter, longer = sorted(streams, key=len)
        if longer[:len(shorter)] != shorter:
            break  # the public history parted (a swapped card was played or revealed)
        # One history may run ahead of the other (a question skipped in one game only):
        # the frames below then differ, which is what this test is for.
        changes = [change_frames(GAME_ID, game, got, heard)
                   for game, got in zip(games, events, strict=True)]
        for audience in heard:
            assert changes[0][audience] == changes[1][audience], (
                f"{audience} (viewer, version) tells a swap of seat {owner}'s cards "
                f"from the questions")
        compared += 1
    return compared


SECRETIVE = {
    2: ("artisan", "bureaucrat", "library", "militia", "moat", "moneylender", "poacher",
        "remodel", "sentry", "throne_room", "mine", "village", "smithy", "cellar"),
    1: ("bureaucrat", "chancellor", "library", "militia", "moat", "mine", "remodel",
        "throne_room", "village", "smithy", "feast", "spy"),
}


@pytest.mark.integration  # whole games: over the unit tier's CPU budget
@pytest.mark.parametrize("batch", range(2))
def test_random_swaps_of_hidden_cards_change_no_one_elses_frames(batch: int) -> None:
    compared = 0
    for index in range(batch, RANDOM_GAMES, 2):
        rng = random.Random(index)
        edition = 1 + index % 2
        setup = Setup.create(2 + index % 3, edition=edition,
                             kingdom=rng.sample(SECRETIVE[edition], 10))
        seed = rng.getrandbits(32)
        game = Game(setup, seed)
        bots = [make_strategy("random", random.Random(rng.random())) for _ in setup.players]
        points = set(rng.sample(range(1, 250), SWAPS_PER_GAME))
        while (decision := game.pending) is not None and len(game.answers) < 250:
            if len(game.answers) in points:
                compared += compare_after_swap(setup, seed, list(game.answers), rng)
            seat = decision.player
            game.answer(seat, decision.id, bots[seat].choose(decision, NoTable()))
    assert compared > 100
