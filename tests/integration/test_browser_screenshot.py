"""The README's Browser screenshot comes from a real headless Chromium: the script still runs."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None,
                       reason="needs Python playwright (pip install playwright)"),
    pytest.mark.skipif(not (Path("/usr/bin/chromium").exists() or shutil.which("chromium")),
                       reason="needs Chromium (apt-get install chromium)"),
]


def test_browser_screenshot_script_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "browser_screenshot.py"),
                           "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a graph, not a blank frame
