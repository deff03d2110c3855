"""What text the server takes from strangers: names, chat lines and seat tokens.

Names and chat lines are shown to other people, often in a terminal, so text that could
steer a screen (escape sequences, other control characters), reorder it (bidirectional
overrides) or hide itself (zero-width characters: every one in names, the invisible ones
in chat) is refused with a typed
error before the lobby or a room takes it (chat: by the connection, with these rules).
So is text SQLite cannot store (lone surrogates, which JSON's `\\ud800` escapes can
produce). Clients still print a peer's text escaped: the server's rules are one layer,
not the only one.
"""

from __future__ import annotations

import re
import unicodedata

from dominion.protocol import ErrorCode

from ..refusal import Refusal

MAX_NAME_LENGTH = 40
NAME_CATEGORIES = frozenset({"L", "M", "N", "P", "S"})
"""A name's characters: letters, marks, numbers, punctuation, symbols, and the plain
space (the `Zs` category's other spaces, `Zl`, `Zp` and every `C` category are refused:
controls, format characters such as zero-width ones and bidi overrides, surrogates,
private use and unassigned code points)."""
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them (Unicode's bidirectional controls)."""
CHAT_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""In chat: control characters (newlines and tabs too: a chat line is one line),
surrogates and line or paragraph separators. Other format characters stay allowed (the
zero-width joiner builds emoji, the non-joiner Persian and Indic words, tag characters
flags), except the bidi controls and INVISIBLE."""
INVISIBLE = frozenset("\u180e\u200b\u2060\u2061\u2062\u2063\u2064\ufeff")
"""Characters that draw nothing and join nothing (zero-width space, word joiner, the
invisible operators, the byte order mark): in chat they only hide or split words, so
that a line shown to an admin or a filter reads as something it is not."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""The shape of every token the server hands out (URL-safe base64), with room to spare."""


def check_name(name: object) -> str:
    """A display name, stripped of surrounding spaces and in NFC; `bad_name` otherwise."""
    if not isinstance(name, str):
        raise Refusal(ErrorCode.BAD_NAME, "a name is a string")
    name = unicodedata.normalize("NFC", _checked_storable(name, ErrorCode.BAD_NAME).strip())
    if not name or len(name) > MAX_NAME_LENGTH:
        raise Refusal(ErrorCode.BAD_NAME, f"a name is 1 to {MAX_NAME_LENGTH} characters")
    for character in name:
        if character != " " and unicodedata.category(character)[0] not in NAME_CATEGORIES:
            raise Refusal(ErrorCode.BAD_NAME, f"a name may not hold the character "
                                        f"U+{ord(character):04X}")
    if unicodedata.category(name[0])[0] == "M":
        raise Refusal(ErrorCode.BAD_NAME, "a name may not start with a combining mark")
    if not any(unicodedata.category(character)[0] in "LN" for character in name):
        raise Refusal(ErrorCode.BAD_NAME, "a name holds a letter or a number")
    return name


def check_chat(text: str, limit: int) -> str:
    """A chat line of at most `limit` characters; `too_long` or `bad_text` otherwise."""
    if len(text) > limit:
        raise Refusal(ErrorCode.TOO_LONG, f"chat messages are at most {limit} characters")
    _checked_storable(text, ErrorCode.BAD_TEXT)
    for character in text:
        if character in BIDI_CONTROLS or character in INVISIBLE \
                or unicodedata.category(character) in CHAT_REFUSED_CATEGORIES:
            raise Refusal(ErrorCode.BAD_TEXT, f"chat may not hold the character "
                                        f"U+{ord(character):04X}")
    return text


def check_token(token: object) -> str:
    """A token of the shape the server hands out; `bad_token` otherwise (no token of
    another shape can hold a seat, and it could not even be hashed if not UTF-8)."""
    if not isinstance(token, str) or TOKEN.fullmatch(token) is None:
        raise Refusal(ErrorCode.BAD_TOKEN, "this token holds no seat in this game")
    return token


def _checked_storable(text: str, code: ErrorCode) -> str:
    """`text`, if it is valid Unicode that UTF-8 (and so SQLite) can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal(code, "the text holds a lone surrogate; send valid UTF-8") from None
    return text
