"""Text that other people wrote (player names, chat, names in a replay file), made safe to
show: `peer` is the only way such text reaches the screen.

A name or a chat line may hold terminal control sequences (a clear-screen, a window
title, a hyperlink), bidirectional overrides that turn the rest of a line around, NUL,
or zero-width characters that make two names look alike. `peer` shows each such
character as a visible escape (`\\x1b`, `\\u202e`) instead, so what is printed is
exactly what was typed, and nothing else can happen on the screen.
"""

from __future__ import annotations

import unicodedata

MAX_SHOWN = 200
"""Longer peer text is cut (the server's limits are lower; a replay file has none)."""

# Control (Cc), format (Cf: bidi controls, zero-width, soft hyphen), surrogates (Cs),
# private use (Co), unassigned (Cn) and line or paragraph separators (Zl, Zp).
_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def peer(text: object) -> str:
    """`text` as it may be shown: every unsafe character escaped, at most MAX_SHOWN long."""
    value = text if isinstance(text, str) else str(text)
    shown = "".join(_escape(c) if unicodedata.category(c) in _UNSAFE else c
                    for c in value[:MAX_SHOWN])
    return shown + ("…" if len(value) > MAX_SHOWN else "")


__all__ = ["MAX_SHOWN", "peer"]
