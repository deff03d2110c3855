"""What a game screen shows, as plain text: the same parts for the full screen
(`clients.tui`) and the line mode (`clients.plain`).

`Board` is everything a screen needs at one moment; the functions below turn it into
lines (the status, the Supply, the players, your hand, the decision with numbered
options). Nothing here writes to a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .choose import allowed, option_keys, option_label
from .i18n import _
from .render import Names, bot_mark, phase_name, seat_rating, turn_title, who
from .safe import peer
from .state import GameState
from .words import question, waiting_for


@dataclass
class Board:
    """One game as a screen shows it now."""

    game: str
    names: Names
    state: GameState
    log: list[str] = field(default_factory=list)
    decision: dict[str, Any] | None = None
    """Ours to answer now (with options), or None."""
    note: list[str] = field(default_factory=list)
    """Lines for the message area: a refusal explained, help, a card's text."""
    ask: str | None = None
    """A confirmation waiting for yes or no."""
    waiting: str | None = None
    """Before the start: who is seated, who is awaited."""
    seats: list[dict[str, Any]] = field(default_factory=list)
    """The table's seats as the lobby's summary says them: who is a bot."""
    hint: str = ""
    over: bool = False


def status_line(board: Board) -> str:
    """"Dominion g-1 · Ann's turn 3 (you) · Buy phase" (the counters are next to the hand)."""
    state = board.state
    parts = [f"Dominion {board.game}"]
    if board.waiting is not None:
        return " · ".join([*parts, _("waiting for players")])
    if state.abandoned is not None:
        return " · ".join([*parts, _("abandoned with no result")])
    if state.over:
        return " · ".join([*parts, _("the game is over")])
    if state.turn_player is not None:
        heading = turn_title(state.names(), state.turn_player, state.player_turn)
        if state.turn_player == state.seat:
            heading += " " + _("(you)")
        parts += [heading, phase_name(state.phase)]
    return " · ".join(parts)


def counters(state: GameState) -> str:
    return _("Actions {actions} · Buys {buys} · ${coins}").format(
        actions=state.actions, buys=state.buys, coins=state.coins)


def supply_lines(state: GameState, names: Names, columns: int = 2) -> list[str]:
    """The Supply: the base piles in the server's order, then the Kingdom by cost, each
    "Name $cost left" (costs from the server's catalogue)."""
    base = [c for c in state.supply if c not in state.kingdom]
    kingdom = sorted((c for c in state.supply if c in state.kingdom),
                     key=lambda c: (names.costs.get(c, 0), names(c)))
    cells = []
    width = max((len(names(c)) for c in state.supply), default=8)
    for card in (*base, *kingdom):
        cost = f"${names.costs.get(card, '?')}"
        cells.append(f"{names(card):<{width}} {cost:<2}{state.supply.get(card, 0):>3}")
    if columns <= 1:
        return [_("Supply"), *cells]
    rows = (len(cells) + columns - 1) // columns
    lines = []
    for row in range(rows):
        lines.append("  ".join(cells[row + rows * col] for col in range(columns)
                               if row + rows * col < len(cells)))
    return [_("Supply"), *lines]


LOW_TIME_MS = 30_000
"""Below this, your own clock is shown with a warning."""


def clock_text(ms: int) -> str:
    """A clock's time left: "9:58", "1:02:03" from an hour."""
    seconds = (ms + 999) // 1000  # 0:00 only once it has run out
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def low_time_line(state: GameState, now: float | None = None) -> str | None:
    """The warning when your own clock has less than 30 seconds left (None: it has
    more, you watch, the table has no clock or the game is over)."""
    if state.seat is None or state.over:
        return None
    left = state.remaining_ms(state.seat, now)
    if left is None or left >= LOW_TIME_MS:
        return None
    return _("Hurry: your clock has {time} left; at 0:00 you lose the game.").format(
        time=clock_text(left))


def clock_line(state: GameState, now: float | None = None) -> str | None:
    """Every player's time left on one line, for the line mode (None: no clock)."""
    times = [(player.seat, state.remaining_ms(player.seat, now)) for player in state.players]
    if state.clocks is None or not times:
        return None
    shown = state.names()
    return _("Clocks: {clocks}").format(clocks=" · ".join(
        f"{who(shown, seat)} {clock_text(left)}" for seat, left in times if left is not None))


def fit(text: str, width: int) -> str:
    """`text` cut to `width` columns, an ellipsis ending what was cut."""
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


DISCARD_COLUMNS = 8
"""The least the discard pile's column keeps when the players panel is narrow."""


def player_lines(state: GameState, names: Names,
                 seats: Sequence[Mapping[str, Any]] = (), now: float | None = None,
                 width: int | None = None) -> list[str]:
    """One line per player: turn marker, name (marked when a bot plays it, as the table's
    `seats` say) with the time left on its clock (the running one counted down to
    `now`), hand size, turns, top of the discard pile. Given a `width`, every line fits
    it: short headings, and a name or card too long cut with an ellipsis."""
    shown = state.names()
    rows = []
    for player in state.players:
        name = who(shown, player.seat)
        left = state.remaining_ms(player.seat, now)
        if left is not None:
            name += f" [{clock_text(left)}]"
        seat = seats[player.seat] if 0 <= player.seat < len(seats) else {}
        for mark in (bot_mark(seat), seat_rating(seat)):
            if mark:
                name += " " + mark
        if player.seat == state.seat:
            name += " " + _("(you)")
        if player.resigned:
            name += " " + _("(resigned)")
        top = names(player.discard_top) if player.discard_top else "-"
        marker = "▶ " if player.seat == state.turn_player and not state.over else "  "
        rows.append((marker, name, player.hand_size, player.turns, top))
    heading, hand, turns, discard = _("Player"), _("Hand"), _("Turns"), _("Discard")
    width_of_name = max([len(row[1]) for row in rows] + [len(heading)])
    widest_top = max([len(row[4]) for row in rows] + [len(discard)])
    if width is not None and 2 + width_of_name + len(hand) + len(turns) + widest_top + 3 \
            > width:
        # a narrow panel: the short headings, then the names cut to what is left
        hand, turns, discard = _("Hd"), _("Tn"), _("Disc.")
        room = width - 2 - len(hand) - len(turns) - 3 - min(widest_top, DISCARD_COLUMNS)
        width_of_name = max(min(width_of_name, room), 1)
    heading = fit(heading, width_of_name)
    lines = [f"  {heading:<{width_of_name}} {hand} {turns} {discard}"]
    lines += [f"{marker}{fit(name, width_of_name):<{width_of_name}} {size:>{len(hand)}} "
              f"{count:>{len(turns)}} {top}"
              for marker, name, size, count, top in rows]
    turn_player = state.turn_player
    if turn_player is not None and 0 <= turn_player < len(state.players) and not state.over \
            and state.players[turn_player].in_play:
        in_play = state.players[turn_player].in_play
        lines.append(_("In play: {cards}").format(cards=names.counted(in_play)))
    return [fit(line, width) for line in lines] if width is not None else lines


def mine_lines(state: GameState, names: Names) -> list[str]:
    """Your hand; on your turn, the counters and what you have in play."""
    seat = state.seat
    if seat is None or not 0 <= seat < len(state.players):
        return []
    me = state.players[seat]
    hand = names.counted(sorted(me.hand or [], key=names)) if me.hand else _("nothing")
    lines = [_("Your hand: {cards}").format(cards=hand)]
    warning = low_time_line(state)
    if warning is not None:
        lines.insert(0, warning)
    if state.turn_player == seat and not state.over:
        line = counters(state)
        if me.in_play:
            line += "  ·  " + _("In play: {cards}").format(cards=names.counted(me.in_play))
        lines.append(line)
    return lines


def option_cells(decision: Mapping[str, Any], state: GameState, names: Names) -> list[str]:
    options = decision.get("options", ())
    return [f"{key:>2}. {option_label(option, decision, names, names.costs)}"
            for key, option in zip(option_keys(options), options, strict=True)]


def in_columns(cells: list[str], width: int) -> list[str]:
    """Cells laid out in as many columns as `width` allows, filled column by column."""
    if not cells:
        return []
    gap = 2
    cell = max(len(c) for c in cells) + gap
    columns = max(1, min(len(cells), (width + gap) // cell))  # no gap after the last
    rows = (len(cells) + columns - 1) // columns
    return ["".join(cells[row + rows * col].ljust(cell) for col in range(columns)
                    if row + rows * col < len(cells)).rstrip() for row in range(rows)]


def decision_lines(board: Board, width: int) -> list[str]:
    """The question, the numbered options in columns, and how many may be chosen."""
    decision = board.decision
    state = board.state
    if board.waiting is not None:
        return [board.waiting]
    if state.abandoned is not None:
        return abandoned_lines(state.abandoned)
    if state.over:
        return [_("The game is over.")]
    if decision is None:
        pending = state.decision
        if pending is None or (state.seat is None and pending.get("player") is None):
            return [""]
        return [_("Waiting for {who}: {what}.").format(
            who=who(state.names(), pending.get("player")),
            what=waiting_for(pending, board.names))]
    lines = [question(decision, board.names)]
    lines += in_columns(option_cells(decision, state, board.names), width)
    extra = allowed(decision)
    if decision.get("ordered"):
        extra += " " + _("The first one you choose ends on top.")
    lines.append(extra)
    return lines


def abandoned_lines(reason: str) -> list[str]:
    """The game ended with no result (an admin ended it, or the server: an open table
    nobody joined in time): that, and why."""
    return [_("The game was abandoned: it ended with no result."),
            _("Why: {reason}").format(reason=peer(reason))]


def hint_line(watching: bool) -> str:
    if watching:
        return _("help CARD: a card's text · PgUp/PgDn: the log · quit: leave")
    return _("help: how to answer · help CARD: a card · PgUp/PgDn: the log · quit: leave")


__all__ = ["Board", "abandoned_lines", "clock_line", "clock_text", "counters",
           "decision_lines", "fit", "hint_line", "in_columns", "low_time_line", "mine_lines",
           "option_cells", "player_lines", "status_line", "supply_lines"]
