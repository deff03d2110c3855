"""The game: zones, the turn, and the one pending decision.

The flow of a whole game is one generator. It yields a `Decision` whenever a
player must choose, and receives the accepted option ids back; `answer` checks
an answer against the pending decision before anything changes.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Generator, Iterator
from functools import lru_cache
from typing import Any, Final, TypeVar

from dominion.protocol.buy_menu import BuyMenu
from dominion.protocol.errors import ErrorCode

from .cards import BASE_CARDS, Card, catalogue
from .choices import yes_no
from .decisions import (
    Answer,
    Decision,
    DecisionKind,
    IllegalAnswer,
    Option,
    OptionKind,
    Resignation,
    ResignReason,
    check_choices,
    new_answer,
)
from .effects import EFFECTS
from .events import Event, EventKind, Secrecy
from .options import option
from .rng import Rng, new_seed
from .scoring import Result, count_cards, empty_piles_to_end, holding_points, score_game
from .setup import Setup
from .state import Phase, PlayerState, TurnState

T = TypeVar("T")
Flow = Generator[Decision, tuple[int, ...], T]
"""A step of the game that may stop for decisions and finally returns a T."""

# Module constants are Final: compiled, a Final one is a C static, any other a lookup in
# the module's dict each time it is read.
HAND_SIZE: Final = 5
STARTING_DECK: Final = ("copper",) * 7 + ("estate",) * 3
_STARTING_HOLDINGS: Final = count_cards(list(STARTING_DECK))
"""Every player's `holdings` after the deal, shared: a player's map is replaced, never
changed (counting each player's deck cost about 10,000 instructions)."""

_END_ACTIONS: Final = option(OptionKind.END_PHASE)
_PLAY_ALL: Final = option(OptionKind.PLAY_ALL_TREASURES)
_END: Final = (_END_ACTIONS,)
BUY_CACHE_SIZE: Final = 4096


class _Tables:
    """Hot-path tables that depend only on the edition and the Supply's cards, shared by
    every game with the same ones (a server holds thousands of games: memory). Cheap to
    build: with a random Kingdom per game, most games build their own."""

    __slots__ = ("actions", "buy_options", "buy_upto", "by_total", "effects", "treasures")

    def __init__(self, edition: int, supply_order: tuple[str, ...]) -> None:
        cards = catalogue(edition)
        by_cost = sorted(supply_order, key=lambda c: (cards[c].cost, c))
        costs = [cards[c].cost for c in by_cost]
        buys = tuple(_buy_option(c) for c in by_cost)
        # Sorted by cost, what some coins afford is a prefix: one slice per coin value.
        self.buy_upto = tuple(buys[:bisect_right(costs, coins)]
                              for coins in range(costs[-1] + 1))
        """By coins (up to the dearest card's cost): the Buy options they afford, cheapest
        first, as if no pile were empty."""
        self.buy_options: dict[tuple[tuple[str, ...], int, tuple[str, ...]],
                               tuple[tuple[Option, ...], BuyMenu]] = {}
        """Buy-phase options, and their menu, by (playable Treasures, coins, empty piles)."""
        self.treasures, self.actions = _card_kinds(edition)
        self.by_total = _by_total(edition)
        self.effects = EFFECTS[edition]
        """Card id -> what it does beyond its "+" bonuses."""


@lru_cache(maxsize=256)
def _treasure_options(playable: tuple[str, ...]) -> tuple[Option, ...]:
    """The Buy phase's options to play these Treasures, one by one or all (options are
    immutable: every game, of every Kingdom, shares them)."""
    return (*(option(OptionKind.PLAY, c) for c in playable), _PLAY_ALL)


@lru_cache(maxsize=64)
def _buy_option(card: str) -> Option:
    """The option to buy this card (shared by every game, like `_treasure_options`)."""
    return option(OptionKind.BUY, card)


@lru_cache(maxsize=2)
def _card_kinds(edition: int) -> tuple[frozenset[str], frozenset[str]]:
    """The edition's Treasures and Actions."""
    cards = catalogue(edition)
    return (frozenset(c for c, card in cards.items() if card.is_treasure),
            frozenset(c for c, card in cards.items() if card.is_action))


@lru_cache(maxsize=2)
def _by_total(edition: int) -> tuple[tuple[str, int], ...]:
    """The edition's cards worth points by their owner's number of cards (Gardens), with
    that number: (card, `vp_per_cards`)."""
    return tuple((c, card.vp_per_cards) for c, card in catalogue(edition).items()
                 if card.vp_per_cards)


@lru_cache(maxsize=32)
def _tables(edition: int, supply_order: tuple[str, ...]) -> _Tables:
    """Shared by the games of one Kingdom while they run (each game holds its own); kept
    afterwards for the recommended sets and a few more: a random Kingdom's tables are
    rarely met again, and every table kept is more for the garbage collector to walk."""
    return _Tables(edition, supply_order)

# Enum members read on every turn, bound once: on Python 3.11 each attribute lookup on
# an Enum class goes through EnumType.__getattr__, which costs as much as a call.
_TURN_STARTED: Final = EventKind.TURN_STARTED
_PHASE: Final = EventKind.PHASE
_BOUGHT: Final = EventKind.BOUGHT
_PLAYED: Final = EventKind.PLAYED
_DREW: Final = EventKind.DREW
_SHUFFLED: Final = EventKind.SHUFFLED
_DISCARDED: Final = EventKind.DISCARDED
_PUBLIC: Final = Secrecy.PUBLIC
_OWNER: Final = Secrecy.OWNER
_OWNER_TOP: Final = Secrecy.OWNER_TOP
_HIDDEN: Final = Secrecy.HIDDEN
_BUY: Final = OptionKind.BUY
_PLAY: Final = OptionKind.PLAY
_PLAY_ALL_TREASURES: Final = OptionKind.PLAY_ALL_TREASURES
_BUY_PHASE: Final = Phase.BUY
_CLEANUP_PHASE: Final = Phase.CLEANUP
_BUY_DECISION: Final = DecisionKind.BUY
_MOAT: Final = frozenset({"moat"})

__all__ = ["Flow", "Game", "Phase", "PlayContext"]


class PlayContext:
    """One play of a card (shared by both resolutions when Throne Room plays it twice)."""

    __slots__ = ("card", "in_play", "victims")

    def __init__(self, card: str) -> None:
        self.card = card
        self.in_play = True
        """False once the card has left play (Feast trashing itself)."""
        self.victims: list[PlayerState] = []
        """For an Attack: the other players it hits, in turn order (Moat may shield some)."""


class Game:
    """A game of Dominion from set-up to scores. Create one, then answer `pending`."""

    # slots: a server holds thousands of games
    __slots__ = ("_actions", "_empty_piles", "_empty_piles_to_end", "_events_forgotten", "_flow",
                 "_last_decision", "_rng", "_skip_forced", "_tables", "_treasures",
                 "answer_count", "answers", "cards", "events", "first_player", "history",
                 "ownership_changes", "pending", "players", "resigned", "resigned_after",
                 "result", "seed", "setup", "supply", "supply_order", "timed_out", "trash",
                 "turn")

    def __init__(self, setup: Setup, seed: int | None = None, *, history: bool = True) -> None:
        """`history=False` keeps only the latest change's events and no answers (a server
        that stores the answers elsewhere and can replay them saves the memory);
        `event_count` and `answer_count` count everything either way."""
        self.setup = setup
        self.history = history
        self.seed = new_seed() if seed is None else seed
        self.cards: dict[str, Card] = catalogue(setup.edition)
        self._rng = Rng(self.seed)
        base = list(BASE_CARDS)
        kingdom = sorted(setup.kingdom, key=lambda c: (self.cards[c].cost, c))
        self.supply_order: tuple[str, ...] = (*base, *kingdom)
        piles = setup.supply()
        # in the Supply's order: a view copies it as it is
        self.supply = {card: piles[card] for card in self.supply_order}
        tables = self._tables = _tables(setup.edition, self.supply_order)
        self._treasures, self._actions = tables.treasures, tables.actions
        self._empty_piles: tuple[str, ...] = ()
        self.trash: list[str] = []
        self.players = [PlayerState(seat, name) for seat, name in enumerate(setup.players)]
        self.turn = TurnState()
        self.events: list[Event] = []
        """Every event in order (only the latest change's without `history`)."""
        self.answers: list[Answer | Resignation] = []
        """Everything the players said, in order: with the set-up and seed, the whole game
        (empty without `history`)."""
        self.answer_count = 0
        self._events_forgotten = 0
        self.ownership_changes = 0
        """Gains and trashes so far (the only events that change what a player owns): a
        view's `Ownership` that has seen this many need not read the latest events."""
        self.resigned: list[int] = []
        self.timed_out: list[int] = []
        """The seats the server resigned because their clocks ran out."""
        self.resigned_after: dict[int, int] = {}
        """A seat that resigned -> the turns it had begun by then (its own: others play on
        for it)."""
        self.result: Result | None = None
        self._empty_piles_to_end = empty_piles_to_end(len(self.players))
        self._last_decision = 0
        self._skip_forced = not setup.secret_questions
        drawn = self._rng.below(len(self.players))  # drawn either way: the same shuffles
        self.first_player = drawn if setup.first_player is None else setup.first_player
        self._deal(piles)
        self._flow = self.play_turns(self.first_player)
        self.pending: Decision | None = self._run(None)

    # -- answering ----------------------------------------------------------

    def answer(self, player: int, decision: int, choices: object) -> list[Event]:
        """Apply an answer to the pending decision and run to the next one.

        Returns the events it produced. Raises `IllegalAnswer` (and changes
        nothing) unless the answer is legal for the pending decision.
        """
        picked = self.check_answer(player, decision, choices)
        # without `history` no Answer is built (one a turn's question: measurable)
        start = self._record(new_answer((player, decision, picked)) if self.history
                             else None)
        self.pending = self._run(picked)
        return self.events[start:]

    def apply(self, entry: Answer | Resignation) -> list[Event]:
        """Apply one entry of a game's log, an answer or a resignation (as `answer` or
        `resign` does); its events."""
        if isinstance(entry, Resignation):
            return self.resign(entry.player, entry.reason)
        return self.answer(entry.player, entry.decision, entry.choices)

    def _run(self, picked: tuple[int, ...] | None) -> Decision | None:
        """Send the flow an answer (None to start it); the next question, or None at the end."""
        flow = self._flow
        try:
            decision = next(flow) if picked is None else flow.send(picked)
            while decision.forced and self._skip_forced:  # a game from before secret questions
                decision = flow.send(tuple(range(len(decision.options))))
        except StopIteration:
            return None
        return decision

    def check_answer(self, player: int, decision: int, choices: object) -> tuple[int, ...]:
        """The answer's option ids if `answer` would accept it; else `IllegalAnswer`.

        Changes nothing, so a server can make an answer durable before applying it.
        """
        pending = self.pending
        if pending is None:
            raise IllegalAnswer(ErrorCode.GAME_OVER, "the game is over")
        if decision != pending.id:
            raise IllegalAnswer(
                ErrorCode.STALE_DECISION,
                f"decision {decision} is not pending (decision {pending.id} is)"
            )
        if player != pending.player:
            raise IllegalAnswer(
                ErrorCode.NOT_YOUR_DECISION, f"decision {pending.id} is for player {pending.player}"
            )
        return check_choices(pending, choices)

    def check_resign(self, player: object) -> None:
        """Raise `IllegalAnswer` unless `resign(player)` would be accepted."""
        self._resigning_seat(player)

    def _resigning_seat(self, player: object) -> int:
        # `object`, not `int`: compiled by mypyc, an `int` parameter turns True into 1
        if self.pending is None:
            raise IllegalAnswer(ErrorCode.GAME_OVER, "the game is over")
        if type(player) is not int or not 0 <= player < len(self.players):
            raise IllegalAnswer(ErrorCode.BAD_PLAYER, f"no seat {player!r}")
        if player in self.resigned:
            raise IllegalAnswer(ErrorCode.ALREADY_RESIGNED,
                                f"seat {player} has already resigned")
        return player

    def resign(self, player: object, reason: ResignReason | None = None) -> list[Event]:
        """`player` (a seat number) gives up: they can no longer win, and others answer
        for their seat. `reason` (their clock ran out) is told in the event's data.

        The game ends at once when fewer than two players are left in it. Raises
        `IllegalAnswer` (changing nothing) when the game is over, the seat does not
        exist (True is not seat 1) or has already resigned.
        """
        seat = self._resigning_seat(player)
        start = self._record(Resignation(seat, reason) if self.history else None)
        self.resigned.append(seat)
        self.resigned_after[seat] = self.players[seat].turns
        if reason is None:
            self.events.append(Event(EventKind.RESIGNED, seat))
        else:
            self.timed_out.append(seat)
            self.events.append(Event(EventKind.RESIGNED, seat, data={"reason": reason.value}))
        if len(self.players) - len(self.resigned) < 2:
            self._flow.close()
            self.pending = None
            self._finish()
        return self.events[start:]

    def _record(self, entry: Answer | Resignation | None) -> int:
        """Count an accepted entry and keep it (None without `history`: nothing kept, and
        the last change's events forgotten); where its events will start."""
        self.answer_count += 1
        if entry is not None:
            self.answers.append(entry)
        else:
            self._events_forgotten += len(self.events)
            self.events.clear()
        return len(self.events)

    @property
    def event_count(self) -> int:
        """Events so far, kept or not: the sequence number of the latest one."""
        return self._events_forgotten + len(self.events)

    def own_turns(self, seat: int) -> int:
        """The turns `seat` began itself: until it resigned, if it did."""
        return self.resigned_after.get(seat, self.players[seat].turns)

    @property
    def over(self) -> bool:
        return self.pending is None

    def decide(
        self,
        player: int,
        kind: DecisionKind,
        prompt: str,
        source: str | None,
        options: tuple[Option, ...],
        min_count: int = 1,
        max_count: int = 1,
        *,
        ordered: bool = False,
        forced: bool = False,
        menu: BuyMenu | None = None,
    ) -> Decision:
        """A new decision with the next id, for a flow to yield.

        A `forced` one has a single answer: all its `options`, in order (the bounds are
        set to match). A game from before secret questions answers it by itself, without
        giving it an id (see `_run`)."""
        if forced:
            min_count = max_count = len(options)
            if self._skip_forced:
                return Decision(0, player, kind, prompt, source, options, min_count,
                                max_count, ordered, forced, menu)
        self._last_decision += 1
        return Decision(self._last_decision, player, kind, prompt, source, options,
                        min_count, max_count, ordered, forced, menu)

    # -- the flow of the game -----------------------------------------------

    def _deal(self, piles: dict[str, int]) -> None:
        """Deal the starting decks; `piles`: the Supply in the set-up's order, as the
        start's event has always told it."""
        self.events.append(Event(EventKind.GAME_STARTED, data={
            **self.setup.to_dict(),
            "first_player": self.first_player,
            "supply": piles,
        }))
        for p in self.players:
            p.discard.extend(STARTING_DECK)
            p.holdings = _STARTING_HOLDINGS
            p.fixed_points = sum(count * self.cards[card].vp
                                 for card, count in _STARTING_HOLDINGS.items())
            self._shuffle(p)
            self.draw(p, HAND_SIZE)

    def play_turns(self, seat: int) -> Flow[None]:
        """Turns in seat order from `seat` until the game ends, then the scores.

        Tests start here, with zones they laid out themselves.
        """
        # One flow for the turn and its Buy phase, where most questions are: an answer
        # resumes every generator between the question and the game, one per `yield from`.
        count = len(self.players)
        turn = self.turn
        while True:
            p = self.players[seat]
            self._start_turn(p)
            if self._may_play_action(p):  # no flow to create for a turn without Actions
                yield from self._action_phase(p)
            self._enter_phase(p, _BUY_PHASE)
            while turn.buys > 0:
                options, menu = self._buy_options(p)
                # Only "end" left: nothing to buy and no Treasure to play. Skipped when
                # everyone can tell (no Treasure playable, or none held); asked otherwise.
                forced = len(options) == 1
                if forced and (turn.bought or not self.may_hold(p, self._treasures)):
                    break
                (choice,) = yield self.decide(
                    p.seat, _BUY_DECISION,
                    "Play Treasures, buy a card, or end your turn.", None, options,
                    forced=forced, menu=menu,
                )
                if not self._take_buy_option(p, options[choice]):
                    break
            self._enter_phase(p, _CLEANUP_PHASE)
            self._clean_up(p)
            if self._ended():
                break
            seat = (seat + 1) % count
        self._finish()

    def _finish(self) -> None:
        self.turn.phase = Phase.GAME_OVER
        self.result = score_game(self)
        self.events.append(Event(EventKind.GAME_ENDED, data=self.result.to_dict()))

    def _ended(self) -> bool:
        """Whether the Supply ends the game (`end_reason` is not None), from the piles
        emptied so far rather than a count of every pile's cards each turn."""
        return (self.supply["province"] == 0
                or len(self._empty_piles) >= self._empty_piles_to_end)

    def _start_turn(self, p: PlayerState) -> None:
        turn = self.turn
        turn.start(p.seat)
        p.turns += 1
        self.events.append(Event(_TURN_STARTED, p.seat, (), _PUBLIC, None, None,
                                      {"turn": turn.number, "player_turn": p.turns}))

    def _enter_phase(self, p: PlayerState, phase: Phase) -> None:
        self.turn.phase = phase
        self.events.append(Event(_PHASE, p.seat, (), _PUBLIC, None, phase, None))

    def _may_play_action(self, p: PlayerState) -> bool:
        """Whether the Action phase asks (again): while the player may hold an Action card
        as far as the others can tell (forced when none is in hand): asked only for a hand
        with one, it would show it."""
        return self.turn.actions > 0 and self.may_hold(p, self._actions)

    def _action_phase(self, p: PlayerState) -> Flow[None]:
        turn = self.turn
        actions = self._actions
        while self._may_play_action(p):
            playable = _distinct([c for c in p.hand if c in actions])
            options = (*(option(OptionKind.PLAY, c) for c in playable), _END_ACTIONS)
            (choice,) = yield self.decide(
                p.seat, DecisionKind.PLAY_ACTION,
                "Play an Action card, or end your Action phase.", None, options,
                forced=not playable,
            )
            chosen = options[choice]
            if chosen.card is None:
                return
            turn.actions -= 1
            yield from self.play_from_hand(p, chosen.card)

    def _take_buy_option(self, p: PlayerState, chosen: Option) -> bool:
        """Do what a Buy-phase option says; False for the one that ends the turn."""
        kind = chosen.kind
        if kind is _BUY:
            self._buy(p, chosen.card)  # type: ignore[arg-type]
        elif kind is _PLAY:
            self.play_treasures(p, [chosen.card])  # type: ignore[list-item]
        elif kind is _PLAY_ALL_TREASURES:
            treasures = self._treasures
            self.play_treasures(p, [c for c in p.hand if c in treasures])
        else:
            return False
        return True

    def _buy_options(self, p: PlayerState) -> tuple[tuple[Option, ...], BuyMenu]:
        turn = self.turn
        if turn.bought:
            playable: tuple[str, ...] = ()
        else:
            treasures = self._treasures
            playable = tuple(_distinct([c for c in p.hand if c in treasures]))
        # The options depend only on these three things.
        key = (playable, turn.coins, self._empty_piles)
        cache = self._tables.buy_options
        entry = cache.get(key)
        if entry is None:
            if len(cache) >= BUY_CACHE_SIZE:
                cache.clear()
            entry = cache[key] = self._make_buy_options(playable, turn.coins)
        return entry

    def _make_buy_options(self, playable: tuple[str, ...],
                          coins: int) -> tuple[tuple[Option, ...], BuyMenu]:
        """The options, in order: a Treasure's play each and all of them played (while
        some are playable), the cards the coins buy, cheapest first, and the end."""
        upto = self._tables.buy_upto
        buys = upto[min(coins, len(upto) - 1)]
        if self._empty_piles:
            supply = self.supply
            buys = tuple(buy for buy in buys if supply[buy.card])  # type: ignore[index]
        first = len(playable) + 1 if playable else 0
        menu = BuyMenu({buy.card: first + i for i, buy in enumerate(buys)},  # type: ignore[misc]
                       len(playable) if playable else None)
        if not playable:
            return buys + _END, menu
        return _treasure_options(playable) + buys + _END, menu

    def _buy(self, p: PlayerState, card: str) -> None:
        turn = self.turn
        turn.bought = True
        turn.buys -= 1
        turn.coins -= self.cards[card].cost
        self._take_from_supply(card)
        p.discard.append(card)
        p.discard_top_hidden = False
        self._count(p, (card,), 1)
        self.ownership_changes += 1
        self.events.append(Event(_BOUGHT, p.seat, (card,), _PUBLIC, None, "discard", None))

    def play_treasures(self, p: PlayerState, treasures: list[str]) -> None:
        turn = self.turn
        cards = self.cards
        hand = p.hand
        for card in treasures:
            hand.remove(card)
            turn.coins += cards[card].coins
            if card == "silver" and not turn.silver_played:
                turn.silver_played = True
                turn.coins += turn.merchants
        p.in_play.extend(treasures)
        self.events.append(Event(_PLAYED, p.seat, tuple(treasures), _PUBLIC, None, "hand",
                                      None))

    def _clean_up(self, p: PlayerState) -> None:
        # Hand first, then play: the card left on top was in play and so is already public.
        cards = p.hand + p.in_play
        p.hand.clear()
        p.in_play.clear()
        if cards:
            self.to_discard(p, cards, zone="cleanup")
        self.draw(p, HAND_SIZE)

    # -- playing Action cards -----------------------------------------------

    def play_from_hand(self, p: PlayerState, card: str, *, source: str | None = None,
                       times: int = 1) -> Flow[None]:
        p.hand.remove(card)
        p.in_play.append(card)
        yield from self.play(p, card, zone="hand", source=source, times=times)

    def play(self, p: PlayerState, card: str, *, zone: str, source: str | None = None,
             times: int = 1, data: dict[str, Any] | None = None) -> Flow[None]:
        """Resolve a card already moved into play, `times` times (Throne Room: twice);
        `data` goes with the first play's event."""
        spec = self.cards[card]
        context = PlayContext(card)
        for time in range(times):
            self.events.append(Event(EventKind.PLAYED, p.seat, (card,), source=source,
                                     zone=zone if time == 0 else "in_play",
                                     data=data if time == 0 else None))
            yield from self._resolve(p, spec, context)

    def _resolve(self, p: PlayerState, spec: Card, context: PlayContext) -> Flow[None]:
        if spec.is_attack:
            context.victims = yield from self._reactions(p, spec.id)
        if spec.cards:
            self.draw(p, spec.cards, source=spec.id)
        turn = self.turn
        turn.actions += spec.actions
        turn.buys += spec.buys
        turn.coins += spec.coins
        effect = self._tables.effects.get(spec.id)
        if effect is not None:
            steps = effect(self, p, context)
            if steps is not None:
                yield from steps

    def _reactions(self, attacker: PlayerState, attack: str) -> Flow[list[PlayerState]]:
        """Ask each other player who may hold a Moat, in turn order; return those the Attack
        hits. Whoever owns a Moat out of sight is asked, Moat in hand or not, so that being
        asked shows nothing (docs/RULES.md: a player without a Moat still pauses)."""
        victims = []
        for other in self.others(attacker):
            if self.may_hold(other, _MOAT):
                revealed = yield from yes_no(
                    self, other, DecisionKind.REACT,
                    "Reveal Moat to be unaffected by this Attack?", attack, "moat",
                    possible="moat" in other.hand,
                )
                if revealed:
                    self.events.append(Event(EventKind.REACTED, other.seat, ("moat",),
                                             source=attack, zone="hand"))
                    continue
            victims.append(other)
        return victims

    def may_hold(self, p: PlayerState, cards: frozenset[str]) -> bool:
        """Whether one of `cards` is among `p`'s cards out of the others' sight (hand, deck,
        discard pile, cards looked at). Anyone who followed the game can tell: every card
        gained or trashed is public, and so is everything in play or set aside. Questions
        whose existence the hidden cards would otherwise decide are asked on this. Read
        from the player's `holdings` (a few kinds of card) less what is in play or set
        aside: cheaper than looking through every zone."""
        for card, held in p.holdings.items():
            if card in cards and held > p.in_play.count(card) + p.set_aside.count(card):
                return True
        return False

    def points(self, p: PlayerState) -> int:
        """The points `p`'s cards score now (docs/RULES.md), from their `holdings`."""
        return holding_points(p, self._tables.by_total)

    @property
    def action_cards(self) -> frozenset[str]:
        """The ids of this edition's Action cards."""
        return self._actions

    # -- moving cards -------------------------------------------------------

    def others(self, p: PlayerState) -> Iterator[PlayerState]:
        """The other players in turn order, starting from the one after `p`."""
        players = self.players
        count = len(players)
        for step in range(1, count):
            yield players[(p.seat + step) % count]

    def draw(self, p: PlayerState, count: int, source: str | None = None) -> int:
        """Draw up to `count` cards, shuffling when the deck runs out; return how many."""
        deck = p.deck
        if len(deck) >= count:
            if count:
                self._draw_top(p, count, source)
            return count
        drawn = len(deck)
        if drawn:
            self._draw_top(p, drawn, source)
        if p.discard:
            self._shuffle(p)
            more = min(count - drawn, len(p.deck))
            self._draw_top(p, more, source)
            drawn += more
        return drawn

    def _draw_top(self, p: PlayerState, count: int, source: str | None) -> None:
        deck = p.deck
        drawn = deck[-count:]
        del deck[-count:]
        drawn.reverse()
        p.hand.extend(drawn)
        self.events.append(Event(_DREW, p.seat, tuple(drawn), _OWNER, source, None, None))

    def take_top(self, p: PlayerState) -> str | None:
        """Take the top card of the deck (shuffling first if it is empty), or None."""
        if not p.deck:
            if not p.discard:
                return None
            self._shuffle(p)
        return p.deck.pop()

    def _shuffle(self, p: PlayerState) -> None:
        cards = p.discard
        p.discard = []
        p.discard_top_hidden = False
        self._rng.shuffle(cards)
        p.deck[:0] = cards
        self.events.append(Event(_SHUFFLED, p.seat, tuple(cards), _HIDDEN, None, None, None))

    def gain(self, p: PlayerState, card: str, *, to: str = "discard",
             source: str | None = None) -> bool:
        """Gain a card from the Supply to the discard pile, deck or hand; False if none left."""
        if self.supply.get(card, 0) <= 0:
            return False
        self._take_from_supply(card)
        self._place(p, card, to)
        self._count(p, (card,), 1)
        self.ownership_changes += 1
        self.events.append(Event(EventKind.GAINED, p.seat, (card,), source=source, zone=to))
        return True

    def _count(self, p: PlayerState, cards: tuple[str, ...] | list[str], step: int) -> None:
        """Count `cards` into `p`'s `holdings` and `fixed_points`: gained (`step` 1) or
        trashed (-1). The holdings are a new map, by card id (views share the old one)."""
        holdings = dict(p.holdings)
        new_card = False
        specs = self.cards
        points = p.fixed_points
        for card in cards:
            before = holdings.get(card, 0)
            if before + step:
                new_card = new_card or not before
                holdings[card] = before + step
            else:  # the last one trashed
                del holdings[card]
            points += step * specs[card].vp
        p.holdings = dict(sorted(holdings.items())) if new_card else holdings
        p.fixed_points = points

    def _take_from_supply(self, card: str) -> None:
        left = self.supply[card] - 1
        self.supply[card] = left
        if not left:
            self._empty_piles = (*self._empty_piles, card)

    def gain_from_trash(self, p: PlayerState, card: str, *, source: str) -> None:
        self.trash.remove(card)
        self._place(p, card, "discard")
        self._count(p, (card,), 1)
        self.ownership_changes += 1
        self.events.append(Event(EventKind.GAINED, p.seat, (card,), source=source,
                                 zone="discard", data={"from": "trash"}))

    def reveal_from_deck(self, p: PlayerState, count: int, *, source: str) -> list[str]:
        """Reveal up to `count` cards from the top of the deck into `set_aside`."""
        revealed = []
        for _ in range(count):
            card = self.take_top(p)
            if card is None:
                break
            revealed.append(card)
        p.set_aside.extend(revealed)
        if revealed:
            self.events.append(Event(EventKind.REVEALED, p.seat, tuple(revealed),
                                     source=source, zone="deck"))
        return revealed

    def _place(self, p: PlayerState, card: str, to: str) -> None:
        if to == "discard":
            p.discard.append(card)
            p.discard_top_hidden = False
        elif to == "deck":
            p.deck.append(card)
        else:
            p.hand.append(card)

    def discard_from(self, p: PlayerState, zone: list[str], cards: list[str], *,
                     source: str | None = None, zone_name: str = "hand",
                     public: bool = False) -> None:
        """Discard `cards` from one of `p`'s zones (a list), in the given order."""
        for card in cards:
            zone.remove(card)
        self.to_discard(p, cards, source=source, zone=zone_name, public=public)

    def to_discard(self, p: PlayerState, cards: list[str], *, source: str | None = None,
                   zone: str, public: bool = False) -> None:
        """Put cards that are in no zone any more onto the discard pile, the last on top."""
        if not cards:
            return
        p.discard.extend(cards)
        p.discard_top_hidden = False
        # Several cards discarded at once: only how many and the one on top are public.
        secrecy = _PUBLIC if public or len(cards) == 1 else _OWNER_TOP
        self.events.append(Event(_DISCARDED, p.seat, tuple(cards), secrecy, source, zone,
                                      None))

    def trash_from(self, p: PlayerState, zone: list[str], cards: list[str], *,
                   source: str | None = None, zone_name: str = "hand") -> None:
        for card in cards:
            zone.remove(card)
        self.trash.extend(cards)
        self._count(p, cards, -1)
        self.ownership_changes += 1
        self.events.append(Event(EventKind.TRASHED, p.seat, tuple(cards), source=source,
                                 zone=zone_name))

    def put_on_deck(self, p: PlayerState, zone: list[str], cards: list[str], *,
                    source: str | None, zone_name: str, public: bool = False) -> None:
        """Put cards from a zone onto the deck; the last one ends on top."""
        for card in cards:
            zone.remove(card)
        p.deck.extend(cards)
        secrecy = Secrecy.PUBLIC if public else Secrecy.OWNER
        self.events.append(Event(EventKind.PUT_ON_DECK, p.seat, tuple(cards), secrecy, source,
                                 zone_name))

    def log(self, event: Event) -> None:
        """Record an event that an effect produced without one of the moves above."""
        self.events.append(event)

    # -- for tests and tools ------------------------------------------------

    def count_holdings(self) -> None:
        """Count every player's `holdings` and `fixed_points` from their zones again, for
        a test that laid the zones out itself (the game keeps them as cards come and go)."""
        cards = self.cards
        for p in self.players:
            p.holdings = count_cards(p.owned())
            p.fixed_points = sum(count * cards[card].vp for card, count in p.holdings.items())

    def card_total(self) -> int:
        """Every card in the game, wherever it is (constant from start to end)."""
        return (sum(self.supply.values()) + len(self.trash)
                + sum(len(zone) for p in self.players for zone in p.zones()))

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, hidden parts included (never for a client)."""
        return {
            "supply": dict(self.supply),
            "trash": list(self.trash),
            "players": [{zone: list(getattr(p, zone)) for zone in
                         ("deck", "discard", "hand", "in_play", "set_aside", "looking")}
                        | {"turns": p.turns} for p in self.players],
            "turn": {"number": self.turn.number, "player": self.turn.player,
                     "phase": self.turn.phase.value, "actions": self.turn.actions,
                     "buys": self.turn.buys, "coins": self.turn.coins},
        }


def _distinct(cards: list[str]) -> list[str]:
    """Card ids in order of first appearance, each once (for a hand's few cards: compiled,
    this loop is much cheaper than `dict.fromkeys`)."""
    distinct: list[str] = []
    for card in cards:
        if card not in distinct:
            distinct.append(card)
    return distinct
