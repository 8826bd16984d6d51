"""The first page load: its weight (uncompressed and as sent) and the time to the first full render.

Starts ``bonanza serve`` on a free loopback port with a fresh database, then
loads the table ``--loads`` times in headless Chromium (``/usr/bin/chromium``),
each time in a new browser context (so nothing is cached, and each load is a
new player's, whose page carries their first deal), on a desktop-sized and a
phone-sized screen. It prints:

- the bytes of every file of the first load (HTML, JS, CSS, card art), decoded
  and as sent on the wire (gzip; the page comes in chunks, with no length), against
  the budget of 150 KB uncompressed;
- the time from navigation to the first full render (the page marks its body
  ``data-ready`` once the table is drawn), median and max, against 300 ms.

    python benchmarks/page.py --loads 15
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
BUDGET_BYTES = 150 * 1024
RENDER_BUDGET_MS = 300.0
NEW_PLAYERS_PER_MINUTE = 1000
"""The server's new games a minute from one address: every load is a new player from here."""
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
READY_MESSAGE = "bonanza-benchmark-ready"
READY_SCRIPT = f"""
new MutationObserver((_, observer) => {{
  if (document.body && document.body.hasAttribute("data-ready")) {{
    window.__readyAt = performance.now();
    observer.disconnect();
    console.debug("{READY_MESSAGE}");
  }}
}}).observe(document, {{attributes: true, subtree: true, attributeFilter: ["data-ready"]}});
"""
"""Notes the moment the page marks itself ready, and says so on the console: waiting
for that message runs nothing in the page, whereas Playwright's selector waits run
its own script there, on the same thread as the page's, while the page loads."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server() -> Iterator[str]:
    """A fresh ``bonanza serve`` on loopback, stopped afterwards."""
    port = free_port()
    folder = tempfile.mkdtemp()
    command = [sys.executable, "-m", "bonanza", "serve", "--port", str(port)]
    command += ["--db", f"{folder}/b.db", "--new-games-per-minute", str(NEW_PLAYERS_PER_MINUTE)]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def one_load(browser: Any, url: str, screen: dict[str, int]) -> tuple[float, int, int]:
    """(ms to the first full render, bytes decoded, bytes sent) of one cold load."""
    context = browser.new_context(viewport=screen)
    context.add_init_script(READY_SCRIPT)
    page = context.new_page()
    sizes: list[tuple[int, int]] = []

    def counted(response: Any) -> None:
        if response.url.startswith(url) and "/api/" not in response.url:
            body = response.body()
            sizes.append((len(body), response.request.sizes()["responseBodySize"]))

    page.on("response", counted)
    with page.expect_console_message(lambda message: message.text == READY_MESSAGE):
        page.goto(url + "/", wait_until="commit")
    ready = float(page.evaluate("window.__readyAt"))
    page.wait_for_load_state("networkidle")
    context.close()
    return ready, sum(s[0] for s in sizes), sum(s[1] for s in sizes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=15, help="cold loads per screen (1-200)")
    args = parser.parse_args(argv)
    if not 1 <= args.loads <= 200:
        parser.error("--loads must be from 1 to 200")
    with server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        one_load(browser, url, SCREENS["desktop"])  # warm the server (imports, caches)
        for name, screen in SCREENS.items():
            loads = [one_load(browser, url, screen) for _ in range(args.loads)]
            times = [t for t, _, _ in loads]
            decoded, sent = loads[-1][1], loads[-1][2]
            print(
                f"{name}: first page load {decoded / 1024:.1f} KB uncompressed "
                f"(budget {BUDGET_BYTES / 1024:.0f} KB), {sent / 1024:.1f} KB sent; "
                f"first full render median {statistics.median(times):.0f} ms, "
                f"max {max(times):.0f} ms over {len(times)} loads "
                f"(budget {RENDER_BUDGET_MS:.0f} ms)"
            )
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
