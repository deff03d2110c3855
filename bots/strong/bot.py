"""The strong bot: a money strategy chosen for the Kingdom, played with care.

It reads only a seat's view (`SeatView`), so it cannot use another player's hidden cards
or the order of any deck (docs/BOTS.md).
"""

from __future__ import annotations

from ..strategies import DecisionLike, Table, sensible_choice
from .actions import play_order
from .answers import ANSWERS, fate
from .buying import priority
from .cards import bot_card
from .plans import DEFAULT_LEVEL, Level, Plan, choose_plan
from .position import Position
from .table import SeatView, seat_view


class StrongBot:
    name = "strong"
    """The bot at its default level; `strong:1` to `strong:3` name a level."""

    def __init__(self, plan: Plan | None = None, level: Level = DEFAULT_LEVEL) -> None:
        self.level = level
        self.plan = plan
        """Chosen at the first decision, from the Kingdom and the level, unless given."""
        self._own_card_next = False
        """The next card whose fate a Spy asks is from the bot's own deck (it asks of
        every deck, the bot's first: `fates_every_deck` in cards.py)."""

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        options = decision.options
        if decision.min == decision.max == len(options) and decision.kind != "order":
            return list(range(len(options)))  # one answer: all
        view = seat_view(table)
        plan = self.plan
        if plan is None:
            plan = self.plan = choose_plan(view.kingdom, view.seats, self.level,
                                           view.catalogue.is_attack)
        kind = decision.kind
        if kind == "buy":
            return self._buy(decision, view, plan)
        if kind == "play_action":
            return self._play_action(decision, Position(view))
        if kind == "choose_fate":
            return fate(decision, Position(view), self._own_card(decision.source))
        answer = ANSWERS.get(kind)
        if answer is None:
            return sensible_choice(decision)
        return answer(decision, Position(view), plan)

    def _buy(self, decision: DecisionLike, view: SeatView, plan: Plan) -> list[int]:
        options = decision.options
        buys: dict[str | None, int] = {}
        for i, option in enumerate(options):
            if option.kind == "play_all_treasures":
                return [i]
            if option.kind == "buy":
                buys[option.card] = i
        for card in priority(plan, Position(view), view.coins):
            if card in buys:
                return [buys[card]]
        return [len(options) - 1]  # end_phase is last

    def _play_action(self, decision: DecisionLike, position: Position) -> list[int]:
        options = decision.options
        playable = {option.card: i for i, option in enumerate(options) if option.kind == "play"}
        view = position.view
        ordered = play_order([card for card in playable if card is not None], view.hand(),
                             position)
        if not ordered:
            return [len(options) - 1]  # end_phase is last
        if bot_card(ordered[0]).fates_every_deck:
            self._own_card_next = True
        return [playable[ordered[0]]]

    def _own_card(self, source: str | None) -> bool:
        """Whether the card whose fate `source` asks is from the bot's own deck."""
        if not bot_card(source).fates_every_deck:
            return True  # Sentry: only the bot's own
        own, self._own_card_next = self._own_card_next, False
        return own
