"""The installed packages: every package folder below `server/`, `protocol/` and `clients/`.

The top-level folders show the architecture; installed, they live under one distinctive
import name (`dominion.server`, `dominion.protocol`, `dominion.clients`). Listing the
packages by hand once lost `dominion.server.storage` (the server crashed on start after
`pip install .`), so they are found here, and a new subpackage cannot be forgotten.
Everything else is in pyproject.toml.
"""

from __future__ import annotations

from setuptools import find_packages, setup

ROOTS = {"dominion.server": "server", "dominion.protocol": "protocol",
         "dominion.clients": "clients"}
"""Installed name -> folder in the repository."""

setup(
    package_dir=ROOTS,
    packages=[f"{name}.{sub}" if sub else name
              for name, folder in ROOTS.items()
              for sub in ["", *find_packages(folder)]],
)
