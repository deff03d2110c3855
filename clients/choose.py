"""What a person types, read as an answer to a decision (docs/PROTOCOL.md, section 9.2).

`parse_input` is a pure function: a line of text and the decision map (with its
`options`) in, the chosen option ids (or a command: help, info, quit, resign) out, or an
`InputError` that says, in the player's words, what was wrong: with the game's state
(`Situation`) it gives the reason the rules give (a card's cost against the coins,
Treasures not played yet, the wrong phase, an empty pile) and a near-miss name ("did
you mean Silver?"). The screen numbers the options from 1 (`option_label` names them);
option ids are positions from 0.

Accepted, case-insensitively and with or without Polish diacritics:

- numbers: `3`, `1 4 5`, `1,4` (the listed cards and options; the fixed actions have
  letters instead, the same in every phase: `e` ends the phase, `t` plays all Treasures);
- card names in any language the client speaks, a unique prefix is enough (`sil`),
  separated by commas for several (`copper, copper, estate`); a verb picks among options
  for the same card (`buy silver`, `play silver`, `trash copper`; `kup`, `zagraj`,
  `zahraj`, `pirk`, ...);
- in the Buy phase, a card to buy that the options do not offer yet (`buy province`, or
  `province`), while "Play all Treasures" is offered: that option first, and the buy
  once the server offers it (`Parsed.command` "buy_after_treasures": the session does the
  rest; what the Treasures make and what may be bought is the server's to say);
- `all` (play all Treasures; or every option when the decision allows choosing all),
  `end` / `done` (end the phase or turn), `yes` / `no`;
- empty, `none` or `-`: choose nothing, when `min` is 0;
- `help` / `?`, `help CARD` / `info CARD`, `quit` / `exit`, `resign`.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from .i18n import _, ngettext

CardName = Callable[[str | None], str]

COMMANDS = {"help": "help", "?": "help", "pomoc": "help", "info": "help", "quit": "quit",
            "exit": "quit", "wyjdz": "quit", "resign": "resign", "poddaj": "resign",
            "poddaj sie": "resign"}
NOTHING = {"", "none", "-", "nothing", "nic"}
# the words a person may type, in each language (as `plain` leaves them: no diacritics)
END_WORDS = {"end", "done", "koniec", "pabaiga"}
ALL_WORDS = {"all", "wszystkie", "vsetky", "visus"}
VERBS = {"play": "play", "zagraj": "play", "zahraj": "play", "zaisk": "play",
         "buy": "buy", "kup": "buy", "pirk": "buy",
         "trash": "trash", "wyrzuc": "trash", "zahod": "trash", "mesk": "trash",
         "discard": "discard", "odrzuc": "discard", "odhod": "discard", "ismesk": "discard",
         "keep": "keep", "zostaw": "keep", "nechaj": "keep", "palik": "keep"}
YES, NO = {"yes", "y", "tak", "ano", "taip"}, {"no", "n", "nie", "ne"}
LABEL_COST = re.compile(r"\s*\(\$?\d+\)$")
"""A label's cost, as completed from one shown with it: "buy silver ($3)"."""
FIXED_KEYS = {"end_phase": "e", "play_all_treasures": "t"}
"""The fixed actions' keys, the same in every phase and language: a number is only ever
a listed card or option, so typing ahead never lands on something else ("t" is
therefore no "tak" here)."""


def option_keys(options: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the screen shows before each option: its fixed key, or its number (from 1,
    counting only the options without a fixed key)."""
    keys, number = [], 0
    for option in options:
        fixed = FIXED_KEYS.get(str(option.get("kind")))
        if fixed is None:
            number += 1
        keys.append(fixed or str(number))
    return keys


class InputError(ValueError):
    """The line cannot be an answer: the message says why and what is allowed."""


@dataclass(frozen=True)
class Parsed:
    """`command` is "answer" (with `options`, option ids in the order given),
    "buy_after_treasures" (`options`: "Play all Treasures"'s id, then `card` to buy),
    "help" (with `card` for `help CARD`), "quit" or "resign"."""

    command: str
    options: tuple[int, ...] = ()
    card: str | None = None


@dataclass(frozen=True)
class Situation:
    """What the explanations of a refusal need to know of the game (all public to the
    decider): coins, the hand, the Supply and what each card costs."""

    coins: int = 0
    hand: Sequence[str] = ()
    supply: Mapping[str, int] = field(default_factory=dict)
    costs: Mapping[str, int] = field(default_factory=dict)
    types: Callable[[str], Sequence[str]] = lambda card: ()
    spellings: Mapping[str, str] = field(default_factory=dict)
    """Every card name (both languages, case-folded) -> card id."""


def plain(text: str) -> str:
    """Case-folded, without diacritics (ł -> l), single spaces, `_` as a space."""
    text = text.replace("ł", "l").replace("Ł", "L").replace("_", " ")
    text = "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))
    return " ".join(text.casefold().split())


def option_label(option: Mapping[str, Any], decision: Mapping[str, Any], name: CardName,
                 costs: Mapping[str, int] | None = None) -> str:
    """How an option is shown: "Buy Silver ($3)", "Play all Treasures", "End turn"..."""
    kind = option.get("kind")
    card = option.get("card")
    shown = name(card) if card else ""
    if kind == "card":
        return shown
    if kind == "play":
        return _("Play {card}").format(card=shown)
    if kind == "buy":
        cost = (costs or {}).get(card or "")
        return _("Buy {card}").format(card=shown) + (f" (${cost})" if cost is not None else "")
    if kind == "play_all_treasures":
        return _("Play all Treasures")
    if kind == "end_phase":
        return _("End turn") if decision.get("kind") == "buy" else _("End Action phase")
    if kind == "yes":
        return _("Yes")
    if kind == "no":
        return _("No")
    if kind == "trash":
        return _("Trash {card}").format(card=shown)
    if kind == "discard":
        return _("Discard {card}").format(card=shown)
    if kind == "keep":
        return _("Put back {card}").format(card=shown)
    return f"{kind} {shown}".strip()


def _aliases(option: Mapping[str, Any], decision: Mapping[str, Any], name: CardName
             ) -> tuple[list[str], str | None]:
    """The names an option answers to, and the verb that may precede its card."""
    kind = option.get("kind")
    card = option.get("card")
    label = plain(option_label(option, decision, name))  # as shown (and completed)
    names = [plain(name(card)), plain(card), label] if card else [label]
    if kind == "yes":
        return [*YES, label], None
    if kind == "no":
        return [*NO, label], None
    if kind in ("trash", "discard", "keep"):
        words = [w for w, meaning in VERBS.items() if meaning == kind]
        return [*words, label], str(kind)
    if kind == "play_all_treasures":
        return [*ALL_WORDS, "play all", label], None
    if kind == "end_phase":
        return [*END_WORDS, "end phase", label], None
    if kind in ("play", "buy"):
        return names, str(kind)
    return names, None


def _meaning(option: Mapping[str, Any]) -> tuple[object, object]:
    return option.get("kind"), option.get("card")


def _match(phrase: str, options: Sequence[Mapping[str, Any]], decision: Mapping[str, Any],
           name: CardName) -> list[int]:
    """The option ids a phrase names: exact names first, else prefixes; the phrase as a
    whole (an option's label, as shown), else a verb and a card name."""
    found = _match_names(phrase, None, options, decision, name)
    verb, rest = _split_verb(phrase)
    if not found and verb is not None and rest:
        found = _match_names(rest, verb, options, decision, name)
    return found


def _split_verb(phrase: str) -> tuple[str | None, str]:
    first, _space, rest = phrase.partition(" ")
    return (VERBS[first], rest) if first in VERBS else (None, phrase)


def _match_names(phrase: str, verb: str | None, options: Sequence[Mapping[str, Any]],
                 decision: Mapping[str, Any], name: CardName) -> list[int]:
    exact: list[int] = []
    prefix: list[int] = []
    for index, option in enumerate(options):
        names, option_verb = _aliases(option, decision, name)
        if verb is not None and option_verb not in (verb, None):
            continue
        if verb is not None and option.get("kind") in ("trash", "discard", "keep"):
            names = [plain(name(option.get("card")))] if option.get("card") else []
        if phrase in names:
            exact.append(index)
        elif any(n.startswith(phrase) for n in names):
            prefix.append(index)
    return exact or prefix


def _describe(ids: Sequence[int], options: Sequence[Mapping[str, Any]],
              decision: Mapping[str, Any], name: CardName) -> str:
    keys = option_keys(options)
    parts = [f"{keys[i]} ({option_label(options[i], decision, name)})" for i in ids]
    return (", ".join(parts[:-1]) + _(" or ") + parts[-1]) if len(parts) > 1 else parts[0]


def allowed(decision: Mapping[str, Any]) -> str:
    """One sentence: how many options may be chosen, and how to name them."""
    low, high = decision.get("min", 1), decision.get("max", 1)
    if low == high == 1:
        text = _("Choose one option, by its number or its name.")
    elif low == high:
        text = _("Choose {n} options, by number or name.").format(n=low)
    elif low == 0:
        text = _("Choose up to {n}, by number or name, or nothing ('none' or an empty "
                 "line).").format(n=high)
    else:
        text = _("Choose {low} to {high}, by number or name.").format(low=low, high=high)
    return text


def forced_answer(decision: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The answer when the decision allows only one (marked `forced`, or: nothing to
    choose from, nothing allowed, or every option the same card and the count fixed)."""
    options = decision.get("options")
    if not isinstance(options, list):
        return None
    low, high = int(decision.get("min", 1)), int(decision.get("max", 1))
    count = len(options)
    if decision.get("forced") and count >= low:
        return tuple(range(low))
    if high == 0 or count == 0:
        return ()
    alike = all(_meaning(a) == _meaning(b) for a, b in pairwise(options))
    if low == high and (alike or (low == count and (count == 1 or not decision.get(
            "ordered")))):
        return tuple(range(low)) if low <= count else None
    return None


# -- explaining a refusal ---------------------------------------------------------------


def _kinds(decision: Mapping[str, Any]) -> set[object]:
    return {o.get("kind") for o in decision.get("options", ())}


def _card_named(phrase: str, situation: Situation) -> str | None:
    """The card a phrase names exactly or by a unique prefix, in either language."""
    spelled = {plain(k): v for k, v in situation.spellings.items()}
    if phrase in spelled:
        return spelled[phrase]
    starts = {card for spelling, card in spelled.items() if spelling.startswith(phrase)}
    return starts.pop() if len(starts) == 1 else None


def _near_miss(phrase: str, situation: Situation, name: CardName) -> str | None:
    """"Did you mean Silver?" for a typo of a card name (either language)."""
    spelled = {plain(k): v for k, v in situation.spellings.items()}
    close = difflib.get_close_matches(phrase, list(spelled), n=1, cutoff=0.7)
    return name(spelled[close[0]]) if close else None


def explain(phrase: str, decision: Mapping[str, Any], name: CardName,
            situation: Situation | None) -> str:
    """Why `phrase` (a part of a line) names no option here, as the rules say it."""
    options = decision.get("options", ())
    verb, rest = _split_verb(phrase)
    situation = situation or Situation()
    card = _card_named(rest, situation)
    kind = decision.get("kind")
    kinds = _kinds(decision)
    if card is None:
        suggestion = _near_miss(rest, situation, name)
        if suggestion:
            return _("'{typed}' is not a card here. Did you mean {card}?").format(
                typed=phrase, card=suggestion)
        return _("'{typed}' is not one of the options.").format(typed=phrase) + " " + \
            allowed(decision)
    shown = name(card)
    types = situation.types(card)
    cost = situation.costs.get(card)
    if kind == "buy":
        in_hand = card in situation.hand
        if verb == "play" or (verb is None and in_hand and "treasure" in types):
            if in_hand and "treasure" in types:
                return _("You have bought this turn: after a buy no more Treasures may "
                         "be played.")
            if "action" in types:
                return _("Action cards are played in the Action phase, which is over.")
            return _("You have no {card} in your hand.").format(card=shown)
        if card not in situation.supply:
            return _("{card} is not in this game's Supply.").format(card=shown)
        if situation.supply.get(card, 0) == 0:
            return _("The {card} pile is empty.").format(card=shown)
        if cost is not None and cost > situation.coins:
            text = _("{card} costs ${cost}; you have ${coins}.").format(
                card=shown, cost=cost, coins=situation.coins)
            if "play_all_treasures" in kinds or "play" in kinds:
                text += " " + _("Play your Treasures first ('all').")
            return text
        return _("{card} cannot be bought now.").format(card=shown)
    if kind == "play_action":
        if verb == "buy" or (verb is None and "action" not in types):
            if "treasure" in types and verb != "buy":
                return _("Treasures are played in the Buy phase: 'end' ends your Action "
                         "phase first.")
            return _("Cards are bought in the Buy phase: 'end' ends your Action phase "
                     "first.")
        if card not in situation.hand:
            return _("You have no {card} in your hand.").format(card=shown)
    if any(o.get("card") == card for o in options):
        return _("'{typed}' does not fit here.").format(typed=phrase) + " " + allowed(decision)
    return _("{card} is not among the cards you can choose here.").format(card=shown) + " " + \
        allowed(decision)


# -- reading a line -----------------------------------------------------------------------


def _buy_after_treasures(line: str, decision: Mapping[str, Any], name: CardName,
                         situation: Situation | None) -> Parsed | None:
    """`buy province` (or `province`, not in the hand) in a Buy phase whose options do not
    offer it yet but offer "Play all Treasures": that option, and the card to buy after."""
    options: Sequence[Mapping[str, Any]] = decision.get("options", ())
    kinds = [o.get("kind") for o in options]
    if decision.get("kind") != "buy" or "play_all_treasures" not in kinds or situation is None:
        return None
    phrase = LABEL_COST.sub("", line)
    if _match(phrase, options, decision, name):
        return None  # an option as it is
    verb, rest = _split_verb(phrase)
    card = _card_named(rest, situation)
    if verb not in (None, "buy") or card is None or situation.supply.get(card, 0) == 0 or (
            verb is None and card in situation.hand):
        return None
    return Parsed("buy_after_treasures", (kinds.index("play_all_treasures"),), card)


def _command(line: str, name: CardName, situation: Situation | None) -> Parsed | None:
    first, _space, rest = line.partition(" ")
    if line in COMMANDS:
        return Parsed(COMMANDS[line])
    if COMMANDS.get(first) == "help" and rest:
        card = _card_named(rest, situation or Situation())
        if card is None:
            suggestion = _near_miss(rest, situation or Situation(), name)
            hint = " " + _("Did you mean {card}?").format(card=suggestion) if suggestion else ""
            raise InputError(_("There is no card called '{typed}'.").format(typed=rest) + hint)
        return Parsed("help", card=card)
    return None


def parse_input(text: str, decision: Mapping[str, Any], name: CardName = lambda c: c or "-",
                situation: Situation | None = None) -> Parsed:
    """A line typed by a person, read as an answer to `decision` (see the module doc)."""
    options: Sequence[Mapping[str, Any]] = decision.get("options", ())
    low, high = int(decision.get("min", 1)), int(decision.get("max", 1))
    line = plain(text)
    command = _command(line, name, situation)
    if command is not None:
        return command
    kinds = [o.get("kind") for o in options]
    keys = option_keys(options)
    if line in FIXED_KEYS.values():
        if line in keys:
            return Parsed("answer", (keys.index(line),))
        raise InputError(_("'{typed}' is not allowed here.").format(typed=line) + " " +
                         allowed(decision))
    numbered = [i for i, key in enumerate(keys) if key.isdigit()]
    if line in NOTHING:
        if low > 0:
            raise InputError(_("You must choose something.") + " " + allowed(decision))
        return Parsed("answer")
    if line in END_WORDS:
        if "end_phase" in kinds:
            return Parsed("answer", (kinds.index("end_phase"),))
        if low == 0:
            return Parsed("answer")
        raise InputError(_("There is nothing to end here.") + " " + allowed(decision))
    buying = _buy_after_treasures(line, decision, name, situation)
    if buying is not None:
        return buying
    if line in ALL_WORDS:
        if "play_all_treasures" in kinds:
            return Parsed("answer", (kinds.index("play_all_treasures"),))
        if low <= len(options) <= high:
            return Parsed("answer", tuple(range(len(options))))
        raise InputError(_("'all' is not allowed here.") + " " + allowed(decision))

    chosen: list[int] = []

    def take(phrase: str) -> bool:
        """Add the option `phrase` names (the first not yet chosen); False if none."""
        if phrase.isdigit():
            number = int(phrase)
            if not 1 <= number <= len(numbered):
                raise InputError(_("There is no option {number}: the options are numbered "
                                   "1 to {count}.").format(number=number, count=len(numbered)))
            if numbered[number - 1] in chosen:
                raise InputError(_("Option {number} is chosen twice; each option counts once "
                                   "(several copies of a card are separate options).").format(
                                       number=number))
            chosen.append(numbered[number - 1])
            return True
        ids = _match(phrase, options, decision, name)
        if not ids:
            return False
        meanings = {_meaning(options[i]) for i in ids}
        if len(meanings) > 1:
            firsts = [next(i for i in ids if _meaning(options[i]) == m) for m in meanings]
            could = _describe(sorted(firsts), options, decision, name)
            raise InputError(_("'{typed}' could be {options}: type more of the name, a verb "
                               "('buy …', 'play …') or the number.").format(
                                   typed=phrase, options=could))
        free = [i for i in ids if i not in chosen]
        if not free:
            raise InputError(_("'{typed}' is chosen more times than there are such "
                               "options.").format(typed=phrase))
        chosen.append(free[0])
        return True

    parts = (LABEL_COST.sub("", p.strip()) for p in line.split(","))
    for part in parts:
        if not part or take(part):
            continue
        words = part.split(" ")
        if len(words) > 1 and all(re.fullmatch(r"\d+", w) for w in words):
            for word in words:
                take(word)
            continue
        # "1 copper" or "copper estate": each word on its own, if every word names one.
        if len(words) > 1:
            saved = list(chosen)
            try:
                if all(take(word) for word in words):
                    continue
            except InputError:
                pass
            chosen[:] = saved
        raise InputError(explain(part, decision, name, situation))

    if len(chosen) < low:
        raise InputError(ngettext("Too few: you chose {n}.", "Too few: you chose {n}.",
                                  len(chosen)).format(n=len(chosen)) + " " + allowed(decision))
    if len(chosen) > high:
        raise InputError(ngettext("Too many: you chose {n}.", "Too many: you chose {n}.",
                                  len(chosen)).format(n=len(chosen)) + " " + allowed(decision))
    return Parsed("answer", tuple(chosen))


__all__ = ["InputError", "Parsed", "Situation", "allowed", "explain", "forced_answer",
           "option_keys", "option_label", "parse_input", "plain"]
