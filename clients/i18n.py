"""Every string a person reads, in English or Polish, from one gettext catalogue.

The Polish catalogue is `clients/locale/pl/LC_MESSAGES/dominion.po` (its game words are
the Polish rulebook's: Zasoby, dodaj, odrzuć, wyrzuć na Śmietnisko, faza akcji, ...);
`dominion.mo` next to it is compiled from it (`python tools/catalogues.py`, which
uses Babel) and ships in the wheel. `tests/clients/test_i18n.py` fails when a string
of the client has no Polish translation, or when the `.mo` is older than the `.po`.

The language is chosen once per process with `use(lang)`; `_` and `ngettext` then
translate. English is the source language: it needs no catalogue.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "dominion"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "pl")

_translation: gettext.NullTranslations = gettext.NullTranslations()


def use(lang: str) -> None:
    """Translate from now on into `lang` ("en" or "pl"): our words, and argparse's own."""
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
    """"pl" when the environment's locale is Polish (LC_ALL, LC_MESSAGES, LANG)."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return "pl" if value.lower().startswith("pl") else None
    return None


__all__ = ["ARGPARSE_WORDS", "LANGUAGES", "LOCALE_DIR", "N_", "_", "from_locale", "language",
           "ngettext", "use"]
