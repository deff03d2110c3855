"""One catalogue for every string a person reads: the Polish one is complete, its
placeholders agree with the English, and the compiled `.mo` (what ships in the wheel and
what the client reads) says what the `.po` says."""

from __future__ import annotations

import gettext
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from dominion.clients import i18n

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
PO = i18n.LOCALE_DIR / "pl" / "LC_MESSAGES" / "dominion.po"
MO = PO.with_suffix(".mo")
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def client_messages() -> set[str | tuple[str, str]]:
    """Every string the client passes to `_` or `ngettext`, as Babel extracts them."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            CLIENTS, keywords={"_": None, "ngettext": (1, 2)}):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def test_every_string_of_the_client_has_a_polish_translation() -> None:
    with PO.open("rb") as source:
        catalog = read_po(source)
    missing, untranslated, placeholders = [], [], []
    messages = client_messages()
    assert len(messages) > 150
    for message in messages:
        key = message if isinstance(message, str) else message[0]
        entry = catalog.get(key)
        if entry is None:
            missing.append(key)
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(forms) or len(forms) != (3 if isinstance(message, tuple)
                                                           else 1):
            untranslated.append(key)
        english = set(PLACEHOLDER.findall(key))
        placeholders += [key for form in forms if set(PLACEHOLDER.findall(form)) != english]
    assert not missing, f"not in {PO.name}: {missing}"
    assert not untranslated, f"not translated in {PO.name}: {untranslated}"
    assert not placeholders, f"placeholders differ: {placeholders}"


def test_the_compiled_catalogue_says_what_its_source_says() -> None:
    with PO.open("rb") as source:
        catalog = read_po(source)
    with MO.open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    for entry in catalog:
        if not entry.id:
            continue
        if isinstance(entry.id, tuple):
            for n, form in ((1, 0), (3, 1), (5, 2)):
                assert translations.ngettext(*entry.id, n) == entry.string[form], (
                    "run: python -m dominion.clients.i18n")
        else:
            assert translations.gettext(entry.id) == entry.string, (
                "run: python -m dominion.clients.i18n")


def test_the_compiled_catalogue_ships_in_the_wheel() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = settings["package-data"]["dominion.clients"]
    assert any(MO.relative_to(CLIENTS).match(pattern) for pattern in shipped)


@pytest.mark.parametrize(("variable", "value", "expected"), [
    ("LANG", "pl_PL.UTF-8", "pl"), ("LC_ALL", "pl_PL", "pl"), ("LANG", "en_GB.UTF-8", None),
])
def test_the_language_comes_from_the_locale(monkeypatch: pytest.MonkeyPatch, variable: str,
                                            value: str, expected: str | None) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, value)
    assert i18n.from_locale() == expected
