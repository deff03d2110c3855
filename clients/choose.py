"""What a person types, read as an answer to a decision (docs/PROTOCOL.md, section 9.2).

`parse_input` is a pure function: a line of text and the decision map (with its
`options`) in, the chosen option ids (or a command: help, quit, resign) out, or an
`InputError` that says what was wrong and what is allowed. The screen numbers the
options from 1 (`option_label` names them); option ids are positions from 0.

Accepted, case-insensitively:

- numbers: `3`, `1 4 5`, `1,4`;
- card names, a unique prefix is enough (`sil`), in the language of the names shown,
  separated by commas for several (`copper, copper, estate`); a verb picks among
  options for the same card (`buy silver`, `play silver`, `trash copper`);
- `all` (play all Treasures; or every option when the decision allows choosing all),
  `end` / `done` (end the phase or turn), `yes` / `no`;
- empty, `none` or `-`: choose nothing, when `min` is 0;
- `help` / `?`, `quit` / `exit`, `resign`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CardName = Callable[[str | None], str]

HELP = {
    "play_action": "Play an Action card from your hand (it uses one Action), or 'end' to go "
                   "on to your Buy phase.",
    "buy": "Play Treasures ('all' plays every one), buy a card you can afford, or 'end' "
           "your turn.",
    "discard": "Choose cards from your hand to discard.",
    "trash": "Choose cards to trash (they leave the game).",
    "gain": "Choose a card to gain from the Supply.",
    "topdeck": "Choose cards to put onto your deck.",
    "play": "Choose a card to play (or say whether to play it).",
    "react": "Reveal a Reaction (Moat) to defend against the Attack, or choose nothing.",
    "yes_no": "Answer yes or no.",
    "set_aside": "Choose cards to set aside.",
    "choose_fate": "Say what happens to this card: trash it, discard it, or keep it.",
    "order": "Put the cards back onto your deck in order: the first one you name ends on "
             "top.",
}
COMMANDS = {"help": "help", "?": "help", "quit": "quit", "exit": "quit", "resign": "resign"}
NOTHING = {"", "none", "-", "nothing", "nic"}
END_WORDS = {"end", "done", "koniec"}
ALL_WORDS = {"all", "wszystkie"}
VERBS = {"play": "play", "buy": "buy", "trash": "trash", "discard": "discard",
         "keep": "keep"}


class InputError(ValueError):
    """The line cannot be an answer: the message says why and what is allowed."""


@dataclass(frozen=True)
class Parsed:
    """`command` is "answer" (with `options`, option ids in the order given), "help",
    "quit" or "resign"."""

    command: str
    options: tuple[int, ...] = ()


def _plain(text: str) -> str:
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
        return f"Play {shown}"
    if kind == "buy":
        cost = (costs or {}).get(card or "")
        return f"Buy {shown}" + (f" (${cost})" if cost is not None else "")
    if kind == "play_all_treasures":
        return "Play all Treasures"
    if kind == "end_phase":
        return "End turn" if decision.get("kind") == "buy" else "End Action phase"
    if kind in ("yes", "no"):
        return str(kind).capitalize()
    if kind in ("trash", "discard", "keep"):
        return f"{str(kind).capitalize()} {shown}".strip()
    return f"{kind} {shown}".strip()


def _aliases(option: Mapping[str, Any], decision: Mapping[str, Any], name: CardName
             ) -> tuple[list[str], str | None]:
    """The names an option answers to, and the verb that may precede its card."""
    kind = option.get("kind")
    card = option.get("card")
    label = _plain(option_label(option, decision, name))  # as shown (and completed)
    names = [_plain(name(card)), _plain(card), label] if card else [label]
    if kind in ("yes", "no"):
        return [str(kind), str(kind)[0], "tak" if kind == "yes" else "nie"], None
    if kind in ("trash", "discard", "keep"):
        return [str(kind), label], str(kind)
    if kind == "play_all_treasures":
        return ["all", "play all", label], None
    if kind == "end_phase":
        return ["end", "done", "end phase", label], None
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
    first, _, rest = phrase.partition(" ")
    if not found and first in VERBS and rest:
        found = _match_names(rest, VERBS[first], options, decision, name)
    return found


def _match_names(phrase: str, verb: str | None, options: Sequence[Mapping[str, Any]],
                 decision: Mapping[str, Any], name: CardName) -> list[int]:
    exact: list[int] = []
    prefix: list[int] = []
    for index, option in enumerate(options):
        names, option_verb = _aliases(option, decision, name)
        if verb is not None and option_verb not in (verb, None):
            continue
        if verb is not None and option.get("kind") in ("trash", "discard", "keep"):
            names = [_plain(name(option.get("card")))] if option.get("card") else []
        if phrase in names:
            exact.append(index)
        elif any(n.startswith(phrase) for n in names):
            prefix.append(index)
    return exact or prefix


def _describe(ids: Sequence[int], options: Sequence[Mapping[str, Any]],
              decision: Mapping[str, Any], name: CardName) -> str:
    parts = [f"{i + 1} ({option_label(options[i], decision, name)})" for i in ids]
    return ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else "".join(parts)


def allowed(decision: Mapping[str, Any]) -> str:
    """One sentence: how many options may be chosen, and how to name them."""
    low, high = decision.get("min", 1), decision.get("max", 1)
    count = len(decision.get("options", ()))
    if low == high:
        how_many = f"exactly {low}"
    elif low == 0:
        how_many = f"up to {high}"
    else:
        how_many = f"{low} to {high}"
    text = f"choose {how_many} of the options 1-{count}, by number or card name"
    if low == 0:
        text += " ('none' or an empty line for nothing)"
    return text


def parse_input(text: str, decision: Mapping[str, Any], name: CardName = lambda c: c or "-"
                ) -> Parsed:
    """A line typed by a person, read as an answer to `decision` (see the module doc)."""
    options: Sequence[Mapping[str, Any]] = decision.get("options", ())
    low, high = int(decision.get("min", 1)), int(decision.get("max", 1))
    line = _plain(text)
    if line in COMMANDS:
        return Parsed(COMMANDS[line])
    kinds = [o.get("kind") for o in options]
    if line in NOTHING:
        if low > 0:
            raise InputError(f"you must choose something: {allowed(decision)}")
        return Parsed("answer")
    if line in END_WORDS:
        if "end_phase" in kinds:
            return Parsed("answer", (kinds.index("end_phase"),))
        if low == 0:
            return Parsed("answer")
        raise InputError(f"there is no ending here: {allowed(decision)}")
    if line in ALL_WORDS:
        if "play_all_treasures" in kinds:
            return Parsed("answer", (kinds.index("play_all_treasures"),))
        if low <= len(options) <= high:
            return Parsed("answer", tuple(range(len(options))))
        raise InputError(f"'all' is not allowed here: {allowed(decision)}")

    chosen: list[int] = []

    def take(phrase: str) -> bool:
        """Add the option `phrase` names (the first not yet chosen); False if none."""
        if phrase.isdigit():
            number = int(phrase)
            if not 1 <= number <= len(options):
                raise InputError(f"there is no option {number}: "
                                 f"the options are numbered 1 to {len(options)}")
            if number - 1 in chosen:
                raise InputError(f"option {number} is chosen twice; each option counts "
                                 "once (several copies of a card are separate options)")
            chosen.append(number - 1)
            return True
        ids = _match(phrase, options, decision, name)
        if not ids:
            return False
        meanings = {_meaning(options[i]) for i in ids}
        if len(meanings) > 1:
            firsts = [next(i for i in ids if _meaning(options[i]) == m) for m in meanings]
            could = _describe(sorted(firsts), options, decision, name)
            raise InputError(f"'{phrase}' could be {could}: type more of the name, a verb "
                             "('buy …', 'play …') or the number")
        free = [i for i in ids if i not in chosen]
        if not free:
            raise InputError(f"'{phrase}' is chosen more times than there are such options")
        chosen.append(free[0])
        return True

    # "buy silver ($3)", as completed from a label shown with its cost
    parts = (re.sub(r"\s*\(\$?\d+\)$", "", p.strip()) for p in line.split(","))
    for part in parts:
        if not part:
            continue
        if take(part):
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
        raise InputError(f"'{part}' is not an option here; {allowed(decision)}")

    if not low <= len(chosen) <= high:
        raise InputError(f"you chose {len(chosen)}; {allowed(decision)}")
    return Parsed("answer", tuple(chosen))


__all__ = ["HELP", "InputError", "Parsed", "allowed", "option_label", "parse_input"]
