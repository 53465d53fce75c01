"""Colours the pages put white text on must be dark enough to read (WCAG AA: 4.5:1 for text of normal size).
The browser tests' axe-core check sees a toast only while it is on screen; this sees the colours always."""

from __future__ import annotations

import re
from pathlib import Path

STYLE = Path(__file__).resolve().parent.parent / "companion" / "table" / "web" / "static" / "style.css"


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(first: str, second: str) -> float:
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_toasts_white_text_is_readable_on_both_of_their_colours():
    css = STYLE.read_text()
    ok = re.search(r"--ok:\s*(#[0-9a-fA-F]{6})", css).group(1)
    error = re.search(r"\.toast \{[^}]*background:\s*(#[0-9a-fA-F]{6})", css).group(1)
    assert re.search(r"\.toast\.ok \{ background: var\(--ok\)", css)
    for background in (ok, error):
        assert _contrast("#ffffff", background) >= 4.5, background
