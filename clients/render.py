"""Games and replays as readable text in the chosen language: card names and texts from
the catalogue, log lines, turn headings, results, replays turn by turn.

Every player name passes through `safe.peer` here (`who`): names are other people's text.
Sentences name cards after a colon in Polish ("Ann kupuje: Kuźnia"), so that a card's
name never has to be declined.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .i18n import LANGUAGES, N_, _, ngettext
from .safe import peer
from .state import ReplayHands

TYPE_WORDS = ("treasure", "victory", "curse", "action", "attack", "reaction")
NAME_FIELDS = tuple("name" if lang == "en" else f"name_{lang}" for lang in LANGUAGES)
"""The catalogue's name of a card in each language the client speaks."""


def type_word(kind: str) -> str:
    words = {"treasure": _("Treasure"), "victory": _("Victory"), "curse": _("Curse"),
             "action": _("Action"), "attack": _("Attack"), "reaction": _("Reaction")}
    return words.get(kind, kind)


def phase_name(phase: str | None) -> str:
    names = {"action": _("Action phase"), "buy": _("Buy phase"), "cleanup": _("Clean-up"),
             "game_over": _("the game is over")}
    return names.get(str(phase), str(phase))


def state_name(state: object) -> str:
    """A table's state (`open`, `playing`, `finished`, `abandoned`) in the chosen language."""
    names = {"open": _("open"), "playing": _("playing"), "finished": _("finished"),
             "abandoned": _("abandoned")}
    return names.get(str(state), str(state))


class Names:
    """The card catalogue in the chosen language: names, costs, types and texts.

    Built from `GET /api/v1/cards` or the `catalogue` request; without one, card ids
    are title-cased and texts are unknown.
    """

    def __init__(self, catalogue: Iterable[Mapping[str, Any]] = (), lang: str = "en") -> None:
        self.lang = lang
        self._names: dict[str, str] = {}
        self.entries: dict[str, list[Mapping[str, Any]]] = {}
        self.spellings: dict[str, str] = {}
        """Every name, in every language, lower case -> card id (for 'did you mean')."""
        self.costs: dict[str, int] = {}
        """Card id -> cost, as the server's catalogue says (unknown without one)."""
        key = "name" if lang == "en" else f"name_{lang}"
        for entry in catalogue:
            card = entry.get("id")
            if not isinstance(card, str):
                continue
            known = self.entries.setdefault(card, [])
            if entry in known:
                continue  # the same card in both editions' lists: its text once
            known.append(entry)
            if isinstance(entry.get("cost"), int):
                self.costs.setdefault(card, int(entry["cost"]))
            name = entry.get(key) or entry.get("name")
            if isinstance(name, str):
                self._names.setdefault(card, name)
            for spelling in (*(entry.get(f) for f in NAME_FIELDS), card):
                if isinstance(spelling, str):
                    self.spellings.setdefault(spelling.casefold(), card)

    @classmethod
    def from_cards_endpoint(cls, body: Mapping[str, Any], lang: str = "en") -> Names:
        """From `GET /api/v1/cards` (`{"editions": {"1": [...], "2": [...]}}`)."""
        entries = [entry for edition in sorted(body.get("editions", {}), reverse=True)
                   for entry in body["editions"][edition]]
        return cls(entries, lang)

    def __call__(self, card: str | None) -> str:
        if card is None:
            return "-"
        return self._names.get(card) or card.replace("_", " ").title()

    def many(self, cards: Iterable[str]) -> str:
        return ", ".join(self(c) for c in cards) or _("nothing")

    def counted(self, cards: Iterable[str]) -> str:
        """`3× Copper, 2× Estate, Smithy` in first-seen order."""
        counts = Counter(cards)
        return ", ".join(f"{n}× {self(c)}" if n > 1 else self(c) for c, n in counts.items()) \
            or _("nothing")

    def cost(self, card: str) -> int | None:
        return self.costs.get(card)

    def types(self, card: str) -> list[str]:
        for entry in self.entries.get(card, ()):
            return [str(t) for t in entry.get("types", ())]
        return []

    def describe_card(self, card: str) -> list[str]:
        """`help CARD`: name, cost and types, then its text (each edition's, if they differ)."""
        entries = self.entries.get(card, [])
        types = " – ".join(type_word(t) for t in self.types(card))
        cost = self.cost(card)
        head = self(card) + (f" · ${cost}" if cost is not None else "") + \
            (f" · {types}" if types else "")
        key = "text" if self.lang == "en" else f"text_{self.lang}"
        texts = [(entry.get(key) or entry.get("text"), entry.get("editions", [])) for entry in
                 entries]
        lines = [head]
        if not texts:
            return [*lines, _("(the server sent no text for this card)")]
        for text, editions in texts:
            if len(texts) > 1:
                label = ngettext("edition {editions}", "editions {editions}", len(editions))
                lines.append(f"{label.format(editions=', '.join(map(str, editions)))}: {text}")
            else:
                lines.append(str(text))
        return lines


def who(players: Sequence[str], seat: object) -> str:
    """A seat's player name, safe to show."""
    if isinstance(seat, int) and 0 <= seat < len(players):
        return shown_name(players[seat], players)
    return _("seat {seat}").format(seat=seat) if seat is not None else "?"


def _with_cards(kind: str, name: str, what: str, zone: object) -> str | None:
    """`kind`'s sentence when the cards are seen (gains by where they go)."""
    templates = {
        "drew": _("{who} draws {cards}"), "played": _("{who} plays {cards}"),
        "bought": _("{who} buys {cards}"), "trashed": _("{who} trashes {cards}"),
        "discarded": _("{who} discards {cards}"), "revealed": _("{who} reveals {cards}"),
        "looked_at": _("{who} looks at {cards}"),
        "put_on_deck": _("{who} puts {cards} onto their deck"),
        "put_in_hand": _("{who} puts {cards} into their hand"),
        "set_aside": _("{who} sets aside {cards}"),
        "gained": {"deck": _("{who} gains {cards} onto their deck"),
                   "hand": _("{who} gains {cards} into their hand")}.get(
            str(zone), _("{who} gains {cards}")),
    }
    template = templates.get(kind)
    return template.format(who=name, cards=what) if template else None


def _with_count(kind: str, name: str, count: int) -> str | None:
    """`kind`'s sentence when only how many cards is seen."""
    if kind == "drew":
        return ngettext("{who} draws {n} card", "{who} draws {n} cards", count).format(
            who=name, n=count)
    if kind == "shuffled":
        return _("{who} shuffles their discard pile into a new deck").format(who=name)
    if kind == "discarded":
        return ngettext("{who} discards {n} card", "{who} discards {n} cards", count).format(
            who=name, n=count)
    if kind == "looked_at":
        return ngettext("{who} looks at {n} card", "{who} looks at {n} cards", count).format(
            who=name, n=count)
    if kind == "put_on_deck":
        return ngettext("{who} puts {n} card onto their deck",
                        "{who} puts {n} cards onto their deck", count).format(who=name, n=count)
    if kind == "deck_to_discard":
        return _("{who} puts their deck into their discard pile").format(who=name)
    return None


def describe(event: Mapping[str, Any], players: Sequence[str], names: Names) -> str | None:
    """One event as a sentence, or None for the ones a log leaves out (turn headings,
    the Action phase and Clean-up starting, the Clean-up discard)."""
    kind = str(event.get("kind", "?"))
    name = who(players, event.get("player"))
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    assert isinstance(data, dict)
    source = event.get("source")
    because = f" ({names(source)})" if isinstance(source, str) else ""
    zone = event.get("zone")
    if kind == "game_started":
        shown = ", ".join(peer(p) for p in data.get("players", players))
        return _("The game starts: {players}. Edition {edition}; Kingdom: {kingdom}.").format(
            players=shown, edition=data.get("edition", "?"),
            kingdom=names.many(data.get("kingdom", [])))
    if kind == "turn_started" or (kind == "discarded" and zone == "cleanup"):
        return None  # a heading; the Clean-up discard is every turn's end
    if kind == "phase":
        return _("{who} starts the Buy phase.").format(who=name) if zone == "buy" else None
    if kind == "resigned":  # the clock's resignation says so (docs/PROTOCOL.md: `reason`)
        if data.get("reason") == "timed_out":
            return _("{who} is out of time and resigns.").format(who=name)
        return _("{who} resigns.").format(who=name)
    if kind == "game_ended":
        return result_line(data, players)
    if kind == "reacted":
        return _("{who} reveals {cards} against {attack}.").format(
            who=name, cards=names.many(event.get("cards") or []), attack=names(source))
    cards = event.get("cards")
    count = event.get("count")
    sentence = None
    if isinstance(cards, list) and kind != "shuffled":
        sentence = _with_cards(kind, name, names.many(cards), zone)
    elif isinstance(count, int) or kind in ("shuffled", "deck_to_discard"):
        sentence = _with_count(kind, name, count if isinstance(count, int) else 0)
    if sentence is None:
        return f"{name}: {kind}{because}."
    top = event.get("top")
    if isinstance(top, str) and not isinstance(cards, list):
        sentence += ", " + _("{card} on top").format(card=names(top))
    return f"{sentence}{because}."


def result_line(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """The final scores, the winners, who resigned, and whether the game was abandoned."""
    scores = result.get("scores", [])
    parts = ", ".join(f"{who(players, seat)} {score}" for seat, score in enumerate(scores))
    lines = [_("Scores: {scores}.").format(scores=parts)]
    # the clock's resignations (`timed_out`) are said apart from the players' own
    timed_out = result.get("timed_out", []) or []
    resigned = [who(players, seat) for seat in result.get("resigned", []) or []
                if seat not in timed_out]
    if resigned:
        lines.append(ngettext("{names} resigned.", "{names} resigned.", len(resigned)).format(
            names=", ".join(resigned)))
    if timed_out:
        lines.append(_("Out of time, so resigned: {names}.").format(
            names=", ".join(who(players, seat) for seat in timed_out)))
    if result.get("abandoned"):
        lines.append(_("The game was abandoned: nobody wins."))
    else:
        winners = [who(players, seat) for seat in result.get("winners", [])]
        lines.append(ngettext("Winner: {names}.", "Winners: {names}.", len(winners)).format(
            names=_(" and ").join(winners) or _("nobody")))
    return " ".join(lines)


def signed(change: int) -> str:
    """A rating change as it is said: "+16", "\u221212" (a minus sign, U+2212), "±0"."""
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"


UNRATED = {"too_short": N_("Unrated: a player resigned before the game was far enough "
                           "along to count."),
           "pair_limit": N_("Unrated: these players have played today's counted rated "
                            "games against each other.")}
"""Why a rated table's game changed no rating (`rating_changed`'s `unrated`)."""


def rating_line(changes: Sequence[Any], unrated: str | None, players: Sequence[str]) -> str:
    """What a rated game did to its players' ratings (`rating_changed`): "Ratings: Ann
    1516? (+16), Bob 1198 (\u221212).", or why it is unrated."""
    said = ", ".join(f"{who(players, change.seat)} {change.after}"
                     f"{'?' if change.provisional else ''} "
                     f"({signed(change.after - change.before)})" for change in changes)
    if unrated is not None:
        why = _(UNRATED[unrated]) if unrated in UNRATED else _("Unrated.")
        return f"{why} ({said})" if said else why
    return _("Ratings: {changes}.").format(changes=said)


def turn_title(players: Sequence[str], seat: object, number: object) -> str:
    """"Ann's turn 3": a turn is named by its player's own count, as the end table, the
    players table and the text replay count it (never by the table's count)."""
    return _("{who}'s turn {n}").format(who=who(players, seat), n=number)


def turn_heading(event: Mapping[str, Any], players: Sequence[str]) -> str:
    """A `turn_started` event's heading: "Ann's turn 3"."""
    data = event.get("data") or {}
    return turn_title(players, event.get("player"), data.get("player_turn", "?"))


def log_lines(events: Iterable[Mapping[str, Any]], players: Sequence[str],
              names: Names) -> Iterator[str]:
    """Events as log lines: a heading per turn, a sentence per event worth one."""
    for event in events:
        if event.get("kind") == "turn_started":
            yield f"── {turn_heading(event, players)} ──"
            continue
        line = describe(event, players, names)
        if line:
            yield line


# -- replays, turn by turn ----------------------------------------------------------


@dataclass
class Turn:
    """One turn of a replay: who, the hands at its start, and what happened."""

    number: int
    player: int | None
    heading: str
    hands: list[list[str]]
    lines: list[str] = field(default_factory=list)


def replay_players(replay: Mapping[str, Any]) -> list[str]:
    setup = replay.get("setup") or {}
    players = setup.get("players") or [
        p.get("name", _("seat {seat}").format(seat=p.get("seat")))
        for p in replay.get("players", [])]
    return [str(p) for p in players]


def replay_turns(replay: Mapping[str, Any], names: Names) -> Iterator[Turn]:
    """The replay's events grouped by turn, each with everyone's hand at its start.

    A complete replay (a finished game) holds every event's cards, so every hand is
    known; a running game's replay shows only what a spectator saw (hands unknown).
    """
    players = replay_players(replay)
    hands = ReplayHands()
    complete = bool(replay.get("complete"))
    turn = Turn(0, None, _("Before the first turn"), [[] for _seat in players])
    for seq, event in enumerate(replay.get("events", []), start=1):
        hands.apply(seq, event)
        if event.get("kind") == "turn_started":
            if turn.lines or turn.number:
                yield turn
            data = event.get("data") or {}
            known = [hands.hand(seat) if complete else [] for seat in range(len(players))]
            turn = Turn(data.get("turn", turn.number + 1), event.get("player"),
                        turn_heading(event, players), known)
            continue
        line = describe(event, players, names)
        if line:
            turn.lines.append(line)
    yield turn


def format_turn(turn: Turn, players: Sequence[str], names: Names, complete: bool) -> str:
    out = [turn.heading]
    if turn.number and complete:
        for seat, hand in enumerate(turn.hands):
            marker = "*" if seat == turn.player else " "
            out.append(f" {marker} " + _("{who}'s hand: {cards}").format(
                who=who(players, seat), cards=names.many(hand)))
    out.extend(f"   {line}" for line in turn.lines)
    return "\n".join(out)


def replay_header(replay: Mapping[str, Any], names: Names) -> str:
    game = replay.get("game") or {}
    setup = replay.get("setup") or {}
    kingdom = game.get("kingdom") or setup.get("kingdom") or []
    state = _("complete") if replay.get("complete") else _("running (a spectator's view)")
    players = replay_players(replay)
    return "\n".join([
        _("Dominion, edition {edition}, game {game} ({state})").format(
            edition=game.get("edition", setup.get("edition", "?")),
            game=peer(game.get("id", "?")), state=state),
        _("Players: {names}").format(names=", ".join(who(players, s)
                                                     for s in range(len(players)))),
        _("Kingdom: {cards}").format(cards=names.many(kingdom)),
    ])


LEVEL_LABELS = {
    "random": N_("Beginner bot"),
    "big_money": N_("Easy bot"),
    "strong:1": N_("Steady bot"),
    "smithy_big_money": N_("Casual bot"),
    "strong:2": N_("Strong bot"),
    "strong": N_("Expert bot"),
    "strong:3": N_("Expert bot"),
}
"""The in-server bots by their strategies (the server's names), named by their levels as
the web lobby names them (clients/web/js/bot_words.js; `strong:3` is `strong`)."""


def strategy_label(strategy: str) -> str:
    """"Easy bot", "Łatwy bot": an in-server bot by its level; a strategy that is no level
    by its name."""
    known = LEVEL_LABELS.get(strategy)
    return _(known) if known else _("{strategy} bot").format(strategy=peer(strategy))


BOT_SEAT = re.compile(r"Bot (\d+) \(([\w:]+)\)")
"""The name the server gives an in-server bot's seat: "Bot 2 (strong:1)"."""


def shown_name(name: str, table: Sequence[str] = ()) -> str:
    """A player's name, safe to show; an in-server bot's seat ("Bot 2 (big_money)", the
    server's) by its level in the person's language, "Easy bot", and its seat's number
    when another bot at the table (`table`: its seats' names) has the same: "Easy bot 3"."""
    bot = BOT_SEAT.fullmatch(name)
    if bot is None:
        return peer(name)
    shown = strategy_label(bot[2])
    twins = [other for other in table if (seat := BOT_SEAT.fullmatch(other))
             and strategy_label(seat[2]) == shown]
    return f"{shown} {bot[1]}" if len(twins) > 1 else shown


def bot_mark(seat: Mapping[str, Any]) -> str | None:
    """"[bot]" for a seat a program plays (an in-server bot's, a bot account's: a
    summary's); None when a person plays it."""
    return _("[bot]") if seat.get("bot") or seat.get("bot_account") else None


def seat_rating(seat: Mapping[str, Any]) -> str | None:
    """A rated table's account's rating as it sat down (a summary's seat `rating`): "1523",
    "1523?" while provisional; None elsewhere."""
    rating = seat.get("rating")
    if not isinstance(rating, Mapping) or not isinstance(rating.get("rating"), int):
        return None
    return f"{rating['rating']}{'?' if rating.get('provisional') else ''}"


def left_mark(seat: Mapping[str, Any]) -> str | None:
    """"[resigned]" or "[left]" for a person a bot played on for (a summary's `left`)."""
    left = seat.get("left")
    if left == "resigned":
        return _("[resigned]")
    return _("[left]") if left == "taken_over" else None


def seat_name(seat: Mapping[str, Any]) -> str:
    """A seat's name, marked when a program sits there (an in-server bot, a bot account),
    or when its person left (resigned, or a bot took the seat over)."""
    name = shown_name(seat["name"])
    mark = bot_mark(seat) or left_mark(seat)
    return f"{name} {mark}" if mark else name


def summary_line(summary: Mapping[str, Any], names: Names) -> str:
    """One row of `dominion list`."""
    seats = summary.get("seats", [])
    taken = [s for s in seats if s.get("name")]
    people = ", ".join(seat_name(s) for s in taken) or "-"
    # the table's count of turns, everyone's: a count, never a turn's name ("Ann's turn 3")
    played = summary.get("turn")
    played = played if isinstance(played, int) else 0
    turn = ngettext("{n} turn played", "{n} turns played", played).format(n=played)
    state = state_name(summary.get("state"))
    edition = _("ed{edition}").format(edition=summary.get("edition"))
    return (f"{peer(summary.get('id'))}  {state:<10}  {len(taken)}/{len(seats)}"
            f"  {edition}  {turn:<15}  {people}")
