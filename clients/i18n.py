"""Every string a person reads, in English, Polish, Slovak or Lithuanian, from gettext
catalogues.

Each language's catalogue is `clients/locale/LANG/LC_MESSAGES/dominion.po` (the Polish
one's game words are the Polish rulebook's: Zasoby, dodaj, odrzuć, wyrzuć na Śmietnisko,
...; the Slovak and Lithuanian ones' the rules summaries': docs/CLIENTS.md); `dominion.mo`
next to it is compiled from it (`python tools/catalogues.py`, which uses Babel) and ships
in the wheel. `tests/clients/test_i18n.py` fails when a string of the client has no
translation in some language, when a plural lacks one of the language's forms (Babel's
CLDR rules), or when a `.mo` says other than its `.po`.

The language is chosen once per process with `use(lang)`; `_` and `ngettext` then
translate. English is the source language: it needs no catalogue.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "dominion"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "pl", "sk", "lt")

_translation: gettext.NullTranslations = gettext.NullTranslations()


def use(lang: str) -> None:
    """Translate from now on into `lang` (one of `LANGUAGES`): our words, and argparse's
    own."""
    global _translation  # noqa: PLW0603 - one language per process, chosen at start
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)
    # argparse says "usage:", "options" and its errors through gettext's global domain,
    # whose language comes from LANGUAGE: point both at this catalogue and language
    gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = lang


def N_(message: str) -> str:
    """A message for the catalogue that someone else translates (argparse, below)."""
    return message


ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"), N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("not allowed with argument %s"), N_("ignored explicit argument %r"),
)
"""What argparse tells a person of the command line (Python 3.11's words); the
catalogue translates them, and `use` makes argparse read them from it."""


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def language() -> str:
    """The language being spoken: its catalogue's (`Language:`), English without one."""
    return str(_translation.info().get("language", "en"))


def from_locale() -> str | None:
    """The environment's locale's language when the client speaks it ("sk" for sk_SK.UTF-8;
    LC_ALL, LC_MESSAGES, LANG), else None."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            lang = value[:2].lower()
            return lang if lang in LANGUAGES[1:] else None
    return None


__all__ = ["ARGPARSE_WORDS", "LANGUAGES", "LOCALE_DIR", "N_", "_", "from_locale", "language",
           "ngettext", "use"]
