"""What is installed: the package's version and which engine runs (`dominion-server
--version`, the `listening on` log line, `/api/v1/server`)."""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version

from dominion.protocol.loader import describe


def package_version() -> str:
    try:
        return version("dominion-server")
    except PackageNotFoundError:  # running from a checkout without installing
        return "0+unknown"


def version_text() -> str:
    """The version, the engine (compiled or pure Python, and why) and the Python."""
    return (f"dominion-server {package_version()}\n"
            f"engine: {describe()}\n"
            f"python: {platform.python_implementation()} {platform.python_version()}")
