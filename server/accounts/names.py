"""Account names: what may be registered, and the one key that says two names are the same.

Two names are the same when they look the same: the key is the name in NFKC, case-folded,
with the letters of other scripts that look like Latin ones (Cyrillic `\\u0430`, Greek `\\u03bf`)
mapped to them. A name mixes no scripts (a Latin name with one Cyrillic letter is a
look-alike made on purpose), holds no spaces, controls or format characters, and is not
reserved (the server's own words and its bots' strategies).
"""

from __future__ import annotations

import unicodedata

from dominion.bots import STRATEGIES
from dominion.protocol import ErrorCode

from ..refusal import Refusal

MIN_LENGTH, MAX_LENGTH = 2, 20
PUNCTUATION = frozenset("_-.")
"""The only characters a name may hold besides letters, marks and numbers."""
RESERVED = frozenset({"admin", "administrator", "bot", "guest", "moderator", "mod", "root",
                      "server", "system", "dominion", "anonymous", "deleted", "nobody",
                      *STRATEGIES})
"""Keys no one may register: they would pass for the server speaking, or for its bots."""
SCRIPTS_THAT_GO_TOGETHER = frozenset({"CJK", "HIRAGANA", "KATAKANA"})
"""Scripts one language writes together (Japanese): one name may mix these."""
LOOK_ALIKES = str.maketrans(
    # Cyrillic (written as escapes: they are drawn like the Latin letters they map to)
    "\u0430\u0432\u0435\u0451\u0456\u0457\u0458\u043a\u043c\u043d\u043e"
    "\u0440\u0441\u0455\u0442\u0443\u0445\u0501\u051b\u051d\u04bb\u04cf"
    # Greek
    "\u03b1\u03b2\u03b5\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03b3",
    "abeeiijkmhopcstyxdqwhl"
    "abeikvoptuxy")
"""Letters of other scripts drawn like a Latin letter (after case folding)."""


def check_account_name(raw: object) -> tuple[str, str]:
    """A name that may be registered, in NFC as typed, and its key; a typed error
    otherwise: `bad_account_name`, `mixed_scripts` or `name_reserved`."""
    if not isinstance(raw, str):
        raise Refusal(ErrorCode.BAD_ACCOUNT_NAME, "a name is a string")
    name = unicodedata.normalize("NFC", raw)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise Refusal(ErrorCode.BAD_ACCOUNT_NAME,
                        f"a name is {MIN_LENGTH} to {MAX_LENGTH} characters")
    for character in name:
        category = unicodedata.category(character)[0]
        if character not in PUNCTUATION and category not in "LMN":
            raise Refusal(ErrorCode.BAD_ACCOUNT_NAME,
                            "a name holds only letters, numbers, '_', '-' and '.', not "
                            f"U+{ord(character):04X}")
    if unicodedata.category(name[0])[0] == "M":
        raise Refusal(ErrorCode.BAD_ACCOUNT_NAME, "a name may not start with a combining mark")
    if all(character in PUNCTUATION for character in name):  # `..`: /@/.. is not a page
        raise Refusal(ErrorCode.BAD_ACCOUNT_NAME, "a name holds a letter or a number")
    scripts = {script for character in unicodedata.normalize("NFKC", name)
               if (script := _script(character)) is not None}
    if len(scripts) > 1 and not scripts <= SCRIPTS_THAT_GO_TOGETHER:
        raise Refusal(ErrorCode.MIXED_SCRIPTS,
                        f"a name is written in one script, not {', '.join(sorted(scripts))}")
    key = name_key(name)
    if key in RESERVED or key.replace("-", "_") in RESERVED:
        raise Refusal(ErrorCode.NAME_RESERVED, f"{name!r} is reserved")
    return name, key


def name_key(name: str) -> str:
    """The key two names share when they look alike (any string has one; a guest's
    name is looked up by it)."""
    return unicodedata.normalize(
        "NFKC", unicodedata.normalize("NFKC", name).casefold()).translate(LOOK_ALIKES)


def _script(character: str) -> str | None:
    """The script a letter is written in, by the first word of its Unicode name (None for
    digits, marks and punctuation, which every script shares)."""
    if unicodedata.category(character)[0] != "L":
        return None
    return unicodedata.name(character, "UNKNOWN").split()[0]
