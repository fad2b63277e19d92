"""Screenshot of Neo4j Browser showing the bundled sample with graphmem's style and a ready query.

    python scripts/browser_screenshot.py [--out docs/browser-supersession.png] [--query 1]

Starts a managed Neo4j of its own (a throwaway data dir, free ports), ingests
graphmem/samples/sample.jsonl as user "demo", opens Browser in headless Chromium (Python
playwright driving the system's Chromium: `apt-get install chromium`, `pip install playwright`;
no browser download), drops `graphmem.grass` onto it, runs the ready query as a person
would paste it and saves the result frame as a PNG. Everything
it started is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "graphmem" / "samples" / "sample.jsonl"


def chromium_path() -> str:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    sys.exit("browser_screenshot: no Chromium found; apt-get install chromium (or set CHROMIUM)")


def load_sample(bolt_uri: str) -> None:
    from graphmem.db import Graph
    from graphmem.loaders import load
    from graphmem.memory import Memory
    from graphmem.migrate import apply_schema

    graph = Graph.open(bolt_uri, None, None)
    try:
        apply_schema(graph)
        Memory(graph).ingest(load(SAMPLE))
    finally:
        graph.close()


def run_in_editor(page, text: str) -> None:
    """Type `text` into Browser's editor as a paste (no auto-closed brackets) and run it."""
    editor = page.locator("[data-testid='activeEditor']")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)
    page.locator("[data-testid='editor-Run']").click()


def drop_style(page, grass: str) -> None:
    """Drop graphmem.grass onto Browser, as the README tells a person to (`:style <text>` typed into
    the editor breaks Browser 5's renderer, a dropped file does not)."""
    page.evaluate("""(text) => {
        const target = document.querySelector("[data-testid='main']") || document.body;
        const data = new DataTransfer();
        data.items.add(new File([text], 'graphmem.grass'));
        for (const type of ['dragenter', 'dragover', 'drop']) {
            target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true,
                                                      cancelable: true}));
        }
    }""", grass)


def screenshot(browser_url: str, query_text: str, style: str, out: Path,
               width: int = 1400, height: int = 900) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                    args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height},
                                    device_scale_factor=1.5)
            page.on("pageerror", lambda exc: print(f"browser page error: {exc}", file=sys.stderr))
            page.goto(browser_url)
            try:
                page.get_by_text("Connected to Neo4j").wait_for(timeout=60_000)
                drop_style(page, style)
                page.get_by_text("node.FactEvent").first.wait_for(timeout=30_000)
                run_in_editor(page, ":clear")
                run_in_editor(page, query_text)
                frame = page.locator("[data-testid='frame']").first
                frame.locator("svg .node").first.wait_for(timeout=60_000)
            except Exception:
                failed = out.with_suffix(".failed.png")
                page.screenshot(path=str(failed))
                print(f"browser_screenshot: see {failed}", file=sys.stderr)
                raise
            time.sleep(6)  # let the force layout settle
            out.parent.mkdir(parents=True, exist_ok=True)
            frame.screenshot(path=str(out))
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "browser-supersession.png")
    parser.add_argument("--query", type=int, default=1, help="number of the ready query")
    args = parser.parse_args()

    from graphmem import browser, localneo4j
    from graphmem.config import Settings

    queries = browser.ready_queries()
    if not 1 <= args.query <= len(queries):
        sys.exit(f"browser_screenshot: --query must be 1..{len(queries)}")
    home = Path(tempfile.mkdtemp(prefix="graphmem-shot-"))
    local = replace(Settings.from_env().local, home=home, bolt_port=0, http_port=0)
    try:
        state = localneo4j.start(local, echo=lambda _m: None)
        load_sample(state.bolt_uri)
        screenshot(state.browser_url, queries[args.query - 1].browser_text, browser.style(),
                   args.out)
    finally:
        localneo4j.stop(local)
        shutil.rmtree(home, ignore_errors=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
