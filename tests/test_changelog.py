"""CHANGELOG.md and the package's version tell the same story."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^## (\d+\.\d+\.\d+) \((unreleased|\d{4}-\d{2}-\d{2})\)$", re.MULTILINE)


def releases() -> list[tuple[Version, str]]:
    return [(Version(number), when) for number, when in
            HEADING.findall((ROOT / "CHANGELOG.md").read_text())]


def test_the_newest_entry_is_the_packages_version() -> None:
    version = Version(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])
    (newest, when), *_ = releases()
    assert Version(version.base_version) == newest
    # a version under work is a development release until its entry has a date
    assert version.is_devrelease is (when == "unreleased"), (version, when)


def test_releases_are_listed_newest_first_and_once() -> None:
    numbers = [number for number, _ in releases()]
    assert len(numbers) >= 2
    assert numbers == sorted(set(numbers), reverse=True)
    assert [when for _, when in releases()][1:].count("unreleased") == 0
