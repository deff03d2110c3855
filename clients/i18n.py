"""Every string a person reads, in English or Polish, from one gettext catalogue.

The Polish catalogue is `clients/locale/pl/LC_MESSAGES/dominion.po` (its game words are
the Polish rulebook's: Zasoby, dodaj, odrzuć, wyrzuć na Śmietnisko, faza akcji, ...);
`dominion.mo` next to it is compiled from it (`python -m dominion.clients.i18n`, which
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
    """Translate from now on into `lang` ("en" or "pl")."""
    global _translation  # noqa: PLW0603 - one language per process, chosen at start
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def from_locale() -> str | None:
    """"pl" when the environment's locale is Polish (LC_ALL, LC_MESSAGES, LANG)."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return "pl" if value.lower().startswith("pl") else None
    return None


def compile_catalogues() -> list[Path]:
    """Compile every `.po` into its `.mo` (a developer's step; needs Babel)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with po.open("rb") as source:
            catalog = read_po(source)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)
        written.append(po.with_suffix(".mo"))
    return written


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"wrote {path}")


__all__ = ["LANGUAGES", "LOCALE_DIR", "_", "compile_catalogues", "from_locale", "ngettext",
           "use"]
