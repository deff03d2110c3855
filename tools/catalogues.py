"""Compile the terminal client's translations: every `.po` into the `.mo` beside it.

    python tools/catalogues.py

A developer's step after editing `clients/locale/*/LC_MESSAGES/dominion.po` (Babel, a
development dependency, reads and writes them); the `.mo` files are committed and ship in
the wheel. It lives here, not in the client, so that nothing the installed package
imports needs Babel.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from dominion.clients.i18n import DOMAIN, LOCALE_DIR

SOURCE_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""The creation date written into every `.mo` (Babel's default is the moment it runs), so
that the compiled file depends on its source alone and compiling again changes nothing."""


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write each catalogue's `.mo`; return the files written."""
    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with po.open("rb") as source:
            catalog = read_po(source)
        catalog.creation_date = SOURCE_DATE
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)
        written.append(po.with_suffix(".mo"))
    return written


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"wrote {path}")
