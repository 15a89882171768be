"""Draw the app's PNG icons from the SVG drawings, with the Chromium the tests use.

    .venv/bin/python tools/render_icons.py

Writes scorekeeper/static/scorekeeper/icons/*.png (committed: run again after changing an SVG).
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "static" / "scorekeeper" / "icons"
# (source drawing, size in px, output file); the rounded drawing keeps transparent corners.
RENDERS = [
    ("icon.svg", 32, "favicon-32.png"),
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        for source, size, output in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            data = base64.b64encode((ICONS / source).read_bytes()).decode()
            page.set_content(
                '<html><body style="margin:0;background:transparent">'
                f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}">'
                "</body></html>"
            )
            page.locator("img").screenshot(path=str(ICONS / output), omit_background=True)
            page.close()
            print(output)
        browser.close()


if __name__ == "__main__":
    main()
