"""One catalogue per language for every string a person reads: the Polish, Slovak and
Lithuanian ones are complete, each plural has exactly its language's forms (Babel's CLDR
rules: none missing, none never used), placeholders agree with the English, and each
compiled `.mo` (what ships in the wheel and what the client reads) says what its `.po`
says."""

from __future__ import annotations

import ast
import gettext
import re
import runpy
import shutil
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from dominion.clients import i18n

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
TRANSLATED = i18n.LANGUAGES[1:]
"""The languages with a catalogue (English is the source)."""
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def client_messages() -> set[str | tuple[str, str]]:
    """Every string the client passes to `_` or `ngettext` (or marks with `N_` for
    argparse), as Babel extracts them."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            CLIENTS, keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def po_of(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "dominion.po"


def read_catalogue(lang: str) -> Catalog:
    with po_of(lang).open("rb") as source:
        return read_po(source)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_of_the_client_is_translated(lang: str) -> None:
    catalog = read_catalogue(lang)
    forms_wanted = get_plural(lang).num_plurals
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
        if entry.fuzzy or not all(forms) or len(forms) != (
                forms_wanted if isinstance(message, tuple) else 1):
            untranslated.append(key)
        english = set(PLACEHOLDER.findall(key))
        placeholders += [key for form in forms if set(PLACEHOLDER.findall(form)) != english]
    assert not missing, f"not in {lang}'s catalogue: {missing}"
    assert not untranslated, f"not translated (or not in {forms_wanted} plural forms) in " \
        f"{lang}'s catalogue: {untranslated}"
    assert not placeholders, f"placeholders differ: {placeholders}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plurals_follow_the_languages_cldr_rules(lang: str) -> None:
    """The catalogue's Plural-Forms are Babel's (CLDR's) for its language, so that every
    form a plural gives is one some count takes."""
    catalog, cldr = read_catalogue(lang), get_plural(lang)
    assert catalog.num_plurals == cldr.num_plurals
    given, wanted = gettext.c2py(catalog.plural_expr), gettext.c2py(cldr.plural_expr)
    assert [given(n) for n in range(200)] == [wanted(n) for n in range(200)]
    with po_of(lang).with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    used = {translations.ngettext("{n} game", "{n} games", n) for n in range(0, 200)}
    assert len(used) == get_plural(lang).num_plurals, used


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_says_what_its_source_says(lang: str) -> None:
    catalog = read_catalogue(lang)
    with po_of(lang).with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    # a count for each plural form: 1, a few, many (Polish and Slovak 5, Lithuanian 10)
    counts = {"lt": (1, 3, 10)}.get(lang, (1, 3, 5))
    for entry in catalog:
        if not entry.id:
            continue
        if isinstance(entry.id, tuple):
            for n, form in zip(counts, range(3), strict=True):
                assert translations.ngettext(*entry.id, n) == entry.string[form], (
                    "run: python tools/catalogues.py")
        else:
            assert translations.gettext(entry.id) == entry.string, (
                "run: python tools/catalogues.py")


def test_compiling_the_catalogues_again_gives_the_same_bytes(tmp_path: Path) -> None:
    catalogues = runpy.run_path(str(ROOT / "tools" / "catalogues.py"))
    for lang in TRANSLATED:
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(po_of(lang), folder)
    catalogues["compile_catalogues"](tmp_path)
    for lang in TRANSLATED:
        compiled = (tmp_path / lang / "LC_MESSAGES" / po_of(lang).name).with_suffix(".mo")
        assert compiled.read_bytes() == po_of(lang).with_suffix(".mo").read_bytes(), (
            "run: python tools/catalogues.py")


def test_the_compiled_catalogue_ships_in_the_wheel() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = settings["package-data"]["dominion.clients"]
    for lang in TRANSLATED:
        mo = po_of(lang).with_suffix(".mo")
        assert any(mo.relative_to(CLIENTS).match(pattern) for pattern in shipped)


@pytest.mark.parametrize(("variable", "value", "expected"), [
    ("LANG", "pl_PL.UTF-8", "pl"), ("LC_ALL", "pl_PL", "pl"), ("LANG", "en_GB.UTF-8", None),
    ("LANG", "sk_SK.UTF-8", "sk"), ("LC_MESSAGES", "lt_LT", "lt"), ("LANG", "de_DE", None),
])
def test_the_language_comes_from_the_locale(monkeypatch: pytest.MonkeyPatch, variable: str,
                                            value: str, expected: str | None) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, value)
    assert i18n.from_locale() == expected


# -- text that reaches the screen without passing through the catalogue -----------------

SHOWN_BY = {"print", "say", "show_note"}
"""Calls whose arguments a person reads (`console.print` too)."""
HELP_KEYWORDS = {"help", "description"}
"""argparse's texts for `--help`."""
UNTRANSLATED_MODULES = {"i18n.py"}
"""A developer's tool (compiling the catalogue), not the client's screen."""
WORD = re.compile(r"[^\W\d_]{2,}")


def _literal_words(node: ast.AST) -> list[str]:
    """Words written in `node` as literal text: what `_` or `ngettext` would have to
    translate. Text produced by another call is that call's business."""
    if isinstance(node, ast.Constant):
        return WORD.findall(node.value) if isinstance(node.value, str) else []
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
            return []
        if isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return _literal_words(node.func.value)  # "...".format() is literal text too
        return []
    if isinstance(node, ast.JoinedStr | ast.BinOp | ast.IfExp | ast.BoolOp | ast.Tuple
                  | ast.List):
        return [word for child in ast.iter_child_nodes(node) for word in _literal_words(child)]
    if isinstance(node, ast.FormattedValue):
        return _literal_words(node.value)
    return []


def _shown_texts(tree: ast.AST) -> list[tuple[int, ast.AST]]:
    """What the module prints, raises for the command to print, or gives argparse."""
    shown: list[tuple[int, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            shown += [(node.lineno, arg) for arg in node.exc.args]
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name in SHOWN_BY:
            shown += [(node.lineno, arg) for arg in node.args]
        shown += [(node.lineno, keyword.value) for keyword in node.keywords
                  if keyword.arg in HELP_KEYWORDS]
    return shown


def test_no_text_reaches_the_screen_without_the_catalogue() -> None:
    """Every sentence the client prints, raises to be printed, or shows in `--help` is
    written inside `_()` or `ngettext()`, so that `--lang pl` translates it."""
    untranslated = []
    for path in sorted(CLIENTS.rglob("*.py")):
        relative = path.relative_to(CLIENTS)
        if relative.parts[0] in ("examples", "web") or relative.name in UNTRANSLATED_MODULES:
            continue
        for line, node in _shown_texts(ast.parse(path.read_text(encoding="utf-8"))):
            if _literal_words(node):
                untranslated.append(f"{relative}:{line}: {ast.unparse(node)[:70]}")
    assert not untranslated, "text not in the catalogue:\n" + "\n".join(untranslated)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Expert bot", "Strong bot", "Easy bot", "new_one bot"]),
    ("pl", ["Ekspercki bot", "Silny bot", "Łatwy bot", "bot new_one"]),
    ("sk", ["Expertný bot", "Silný bot", "Ľahký bot", "bot new_one"]),
    ("lt", ["Ekspertinis botas", "Stiprus botas", "Lengvas botas", "botas new_one"]),
])
def test_bots_are_named_by_their_levels(monkeypatch: pytest.MonkeyPatch, lang: str,
                                              expected: list[str]) -> None:
    from dominion.clients.render import strategy_label

    # the process's language, and the LANGUAGE `use` sets, come back after the test
    monkeypatch.setattr(i18n, "_translation", i18n._translation)
    monkeypatch.delenv("LANGUAGE", raising=False)
    i18n.use(lang)
    assert [strategy_label(s) for s in ("strong", "strong:2", "big_money",
                                        "new_one")] == expected


def test_an_unknown_strategy_is_told_in_the_persons_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' own text is for programmers (they import nothing of the clients); what a
    person reads about a bot is the client's, through the catalogue."""
    from dominion.clients.args import bot_seats

    monkeypatch.setattr(i18n, "_translation", i18n._translation)
    monkeypatch.delenv("LANGUAGE", raising=False)
    i18n.use("pl")
    with pytest.raises(ValueError, match="nieznana strategia 'genius'; znane: random"):
        bot_seats(["genius"], 2)
