"""The strong bot's judgement of each card, one entry per card: the whole of what it
knows of a card beyond the catalogue. Adding a card to the bot is adding its entry here.

What a card *is* (its cost, the coins a Treasure makes, its points, its types: Action,
Attack, Victory...) is not here: the bot reads it from the catalogue the server publishes
(knowledge.py), never from a copy. The catalogue does not publish an Action's "+" bonuses,
so whether an Action uses up the turn's action (terminal) or replaces it is the entry's
`role`, which also orders the Action phase. The rest is the bot's own judgement: what a card
is worth in hand, when to trash it, the plan built around it and its place in the plans'
rankings, and the card's own tactics: when playing it does good, and its answers to the
questions it asks that the bot does not answer alike for every card (tactics.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..strategies import DecisionLike
from . import tactics
from .money_plan import Plan
from .roles import Role, Thinning

if TYPE_CHECKING:
    from .position import Position


Worth = Callable[[Sequence[str], "Position"], bool]
"""Whether playing a card helps, given the rest of the hand."""
Answer = Callable[[DecisionLike, "Position", Plan], list[int]]
"""A card's own answer to a question it asks."""

OTHER_HAND_VALUE: Final = 1.5
"""What a card without a value of its own is worth in hand, roughly in coins."""


@dataclass(frozen=True, slots=True)
class BotCard:
    """The strong bot's judgement of one card (`id`: the catalogue's)."""

    id: str
    role: Role | None = None
    """For an Action: what it does to the turn's actions (None: not one the bot plays)."""
    play_rank: int = 0
    """Its place among the Actions of its role in the Action phase: 1 plays first."""
    repeat_rank: int | None = None
    """Its place among the cards Throne Room should play twice: 1 first (None: only if
    nothing ranked is offered)."""
    hand_value: float = OTHER_HAND_VALUE
    """What it is worth in hand to the turn, roughly in coins, when deciding what to
    discard, put back or keep (a Victory card or Curse: from the catalogue, 0 or -1)."""
    thinning: Thinning = Thinning.NEVER
    plan: Plan | None = None
    """The plan built around it, for a card worth one (measured: docs/BOTS.md)."""
    rank_two_players: int | None = None
    """Its plan's place in the ranking for 2 (and 3) players: 1 is chosen first."""
    rank_four_players: int | None = None
    """Its plan's place in the ranking for 4 (and 5 and 6) players."""
    support_rank: int | None = None
    """A non-terminal bought beside a plan around a terminal: 1 is preferred."""
    worth_playing: Worth | None = None
    """None: playing it always helps."""
    on_gain: Answer | None = None
    on_trash: Answer | None = None
    on_discard: Answer | None = None
    on_topdeck: Answer | None = None
    """Its own answer to the question of that kind it asks (None: the bot's answer for
    every card, answers.py)."""
    fates_every_deck: bool = False
    """It asks the fate of a card from every deck, the bot's own first (Spy)."""

    @property
    def terminal(self) -> bool:
        return self.role is Role.TERMINAL

    @property
    def thinned_any_time(self) -> bool:
        """Worth trashing whatever the stage of the game (the worst to be made to gain)."""
        return self.thinning in (Thinning.ALWAYS, Thinning.SPARE)


MORE, THRONE, CANTRIP, TERMINAL = Role.MORE_ACTIONS, Role.THRONE, Role.CANTRIP, Role.TERMINAL

_CARDS: Final = (
    # Base cards
    BotCard("copper", hand_value=1.0, thinning=Thinning.SPARE),
    BotCard("silver", hand_value=2.0),
    BotCard("gold", hand_value=3.0, thinning=Thinning.LATE),
    BotCard("estate", thinning=Thinning.EARLY),
    BotCard("duchy"),
    BotCard("province"),
    BotCard("curse", thinning=Thinning.ALWAYS),
    # Kingdom cards
    BotCard("gardens"),
    BotCard("village", MORE, 1, repeat_rank=9, hand_value=1.6),
    BotCard("festival", MORE, 2, repeat_rank=6, hand_value=2.4, plan=Plan("festival", 3),
            rank_two_players=11, rank_four_players=12),
    BotCard("throne_room", THRONE, 1, worth_playing=tactics.another_action),
    BotCard("laboratory", CANTRIP, 1, repeat_rank=2, hand_value=3.4,
            plan=Plan("laboratory", 10, province_money=15), rank_two_players=9,
            rank_four_players=7, support_rank=1),
    BotCard("market", CANTRIP, 2, repeat_rank=5, hand_value=3.0, plan=Plan("market", 8),
            rank_two_players=7, rank_four_players=8, support_rank=2),
    BotCard("sentry", CANTRIP, 3, repeat_rank=11, hand_value=2.2, plan=Plan("sentry", 2, 6),
            rank_two_players=10, rank_four_players=6),
    BotCard("spy", CANTRIP, 4, fates_every_deck=True),
    BotCard("merchant", CANTRIP, 5),
    BotCard("harbinger", CANTRIP, 6, on_topdeck=tactics.harbinger_topdeck),
    BotCard("poacher", CANTRIP, 7, plan=Plan("poacher", 2, 4), rank_two_players=15,
            rank_four_players=11),
    BotCard("cellar", CANTRIP, 8, worth_playing=tactics.junk_in_hand,
            on_discard=tactics.cellar_discard),
    BotCard("witch", TERMINAL, 1, repeat_rank=1, hand_value=3.6,
            plan=Plan("witch", 2, over_gold=True, province_money=15, duchy_at=5),
            rank_two_players=1, rank_four_players=1),
    BotCard("council_room", TERMINAL, 2, repeat_rank=4, hand_value=3.2,
            plan=Plan("council_room", 1, province_money=15), rank_two_players=4,
            rank_four_players=5),
    BotCard("library", TERMINAL, 3, repeat_rank=10, hand_value=3.0,
            plan=Plan("library", 2, 6, province_money=15), rank_two_players=6,
            rank_four_players=4, worth_playing=tactics.hand_not_full),
    BotCard("smithy", TERMINAL, 4, repeat_rank=3, hand_value=3.0,
            plan=Plan("smithy", 2, 6, province_money=15), rank_two_players=2,
            rank_four_players=2),
    BotCard("bandit", TERMINAL, 5, repeat_rank=8, hand_value=2.6, plan=Plan("bandit", 2, 6),
            rank_two_players=5, rank_four_players=14, on_trash=tactics.bandit_trash),
    BotCard("militia", TERMINAL, 6, repeat_rank=7, hand_value=2.4, plan=Plan("militia", 2, 6),
            rank_two_players=3, rank_four_players=3),
    BotCard("moneylender", TERMINAL, 7, repeat_rank=12, hand_value=1.8,
            plan=Plan("moneylender", 1), rank_two_players=13, rank_four_players=9,
            worth_playing=tactics.copper_in_hand, on_trash=tactics.moneylender_trash),
    BotCard("bureaucrat", TERMINAL, 8, plan=Plan("bureaucrat", 2, 6), rank_two_players=8,
            rank_four_players=15),
    BotCard("mine", TERMINAL, 9, plan=Plan("mine", 1), rank_two_players=14,
            worth_playing=tactics.treasure_to_mine, on_trash=tactics.mine_trash),
    BotCard("artisan", TERMINAL, 10, on_topdeck=tactics.artisan_topdeck),
    BotCard("remodel", TERMINAL, 11, plan=Plan("remodel", 1), rank_two_players=16,
            rank_four_players=16, worth_playing=tactics.card_to_remodel,
            on_trash=tactics.remodel_trash),
    BotCard("moat", TERMINAL, 12),
    BotCard("adventurer", TERMINAL, 13),
    BotCard("woodcutter", TERMINAL, 14, plan=Plan("woodcutter", 2, 6), rank_two_players=17,
            rank_four_players=13),
    BotCard("chancellor", TERMINAL, 15, plan=Plan("chancellor", 1), rank_two_players=12,
            rank_four_players=10),
    BotCard("vassal", TERMINAL, 16),
    BotCard("workshop", TERMINAL, 17),
    BotCard("feast", TERMINAL, 18),
    BotCard("chapel", TERMINAL, 19, worth_playing=tactics.junk_to_chapel,
            on_trash=tactics.chapel_trash),
    BotCard("thief", TERMINAL, 20, on_gain=tactics.thief_gain, on_trash=tactics.thief_trash),
)

CARDS: Final[Mapping[str, BotCard]] = {card.id: card for card in _CARDS}
"""Every card the bot knows, by id."""
UNKNOWN: Final = BotCard("")
"""A card without an entry: played never, worth `OTHER_HAND_VALUE` in hand."""


def bot_card(card: str | None) -> BotCard:
    return CARDS.get(card or "", UNKNOWN)
