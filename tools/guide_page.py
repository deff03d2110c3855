"""The player's guide as a page of the web client: docs/PLAYING.md rendered into
clients/web/guide.html, which the server hands out with the page's other files (the
header's "How to play" and the game's shortcut list link it). docs/ is not in the
installed package; clients/web/ is, so the page is written here and committed.

    python tools/guide_page.py            # write clients/web/guide.html
    python tools/guide_page.py --check    # exit 1 when it is not PLAYING.md's rendering

markdown-it-py renders it: rich, a dependency of the server, already brings it.
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "PLAYING.md"
PAGE = ROOT / "clients" / "web" / "guide.html"

TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
</head>
<body>
<!-- Written by tools/guide_page.py from docs/PLAYING.md: edit that, then run the tool. -->
<header class="top"><a class="brand" href="/#/">Dominion</a></header>
<main class="guide">
{body}</main>
</body>
</html>
"""
"""The page around the guide; it sits beside app.css, under the assets' versioned path."""


def render(markdown: str) -> str:
    """The whole page for the guide's Markdown; its title is the first heading's."""
    title = next(line[2:] for line in markdown.splitlines() if line.startswith("# "))
    body = MarkdownIt("commonmark").enable("table").render(markdown)
    return TEMPLATE.format(title=html.escape(title), body=body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when the page is out of date")
    args = parser.parse_args(argv)
    page = render(GUIDE.read_text(encoding="utf-8"))
    if args.check:
        if PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE.relative_to(ROOT)} is not {GUIDE.relative_to(ROOT)}'s rendering: "
                  "run python tools/guide_page.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
