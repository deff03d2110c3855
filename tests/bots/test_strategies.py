"""The strategies' own behaviour: how they are made, and Big Money's Buy-phase answers."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dominion.bots import NoTable, make_strategy, strategies
from dominion.bots.wire import WireDecision, WireOption
from dominion.server.engine import Game, Setup
from dominion.server.engine.setup import random_kingdom
from dominion.server.play.bots import seat_table


def test_a_seed_seeds_the_random_bot_like_a_generator() -> None:
    game = Game(Setup.create(2, kingdom="First Game"), seed=4)
    assert game.pending is not None
    from_seed, from_generator = make_strategy("random", 5), make_strategy("random",
                                                                         random.Random(5))
    for _ in range(20):
        assert (from_seed.choose(game.pending, NoTable())
                == from_generator.choose(game.pending, NoTable()))


def test_strategies_without_randomness_make_no_generator(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Counted(random.Random):
        made = 0

        def __init__(self, seed: object = None) -> None:
            Counted.made += 1
            super().__init__(seed)

    monkeypatch.setattr(strategies.random, "Random", Counted)
    for name in ("big_money", "smithy_big_money"):
        make_strategy(name)
        make_strategy(name, 3)
    assert Counted.made == 0
    make_strategy("random", 3)
    assert Counted.made == 1


def test_big_money_answers_shared_and_fresh_options_alike() -> None:
    """The engine hands a Buy decision its menu ready-made; a copy of each decision, with
    options of its own and no menu (as decoded from the wire), gets the same answers."""
    setup = Setup.create(2, kingdom="First Game")
    for seed in range(5):
        bot, reader = make_strategy("big_money"), make_strategy("big_money")
        game = Game(setup, seed=seed)
        while (decision := game.pending) is not None:
            table = seat_table(game, decision.player)
            copy = WireDecision(decision.id, decision.player, decision.kind, decision.source,
                                tuple(WireOption(o.kind, o.card) for o in decision.options),
                                decision.min, decision.max)
            choice = bot.choose(decision, table)
            assert reader.choose(copy, table) == choice
            game.answer(decision.player, decision.id, choice)


def test_the_engines_buy_menu_is_what_the_options_offer() -> None:
    """Every Buy decision's menu names the option playing all Treasures, if any, and the
    option buying each card (piles emptied, Treasures played or not); no other decision
    has one."""
    rng = random.Random(8)
    buys_seen = 0
    for edition in (1, 2):
        game = Game(replace(Setup.create(3, edition=edition),
                            kingdom=random_kingdom(edition, rng)), seed=rng.getrandbits(64))
        bot = make_strategy("random", rng)
        while (decision := game.pending) is not None:
            menu = decision.menu
            if decision.kind != "buy":
                assert menu is None
            else:
                buys_seen += 1
                kinds: list[str] = [option.kind for option in decision.options]
                assert menu is not None and menu.buys == {
                    option.card: i for i, option in enumerate(decision.options)
                    if option.kind == "buy"}
                assert menu.play_all == (kinds.index("play_all_treasures")
                                         if "play_all_treasures" in kinds else None)
            game.answer(decision.player, decision.id, bot.choose(decision, NoTable()))
    assert buys_seen > 100
