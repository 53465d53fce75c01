"""A stand-in ``picamera2`` package (the Pi camera's library) for tests without a Pi: :func:`picamera2_source`
writes its ``Picamera2`` class, each test saying only what its camera does differently, and
:func:`install_fake_picamera2` puts a package of that source on the path."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest


def picamera2_source(
    *,
    init: str = "pass",
    properties: str = "{}",
    controls: str = "{}",
    metadata: str = 'return {"ExposureTime": 8000}',
    set_controls: str = "pass",
    close: str = "pass",
    attributes: str = "",
) -> str:
    """The module's source: a ``Picamera2`` whose ``camera_properties`` and ``camera_controls`` are the
    expressions given, ``__init__`` then runs ``init``, ``capture_metadata`` runs ``metadata``, and
    ``set_controls`` / ``close`` run theirs; ``attributes``: class attributes, one statement a line."""

    def lines(code: str, indent: int) -> str:
        return textwrap.indent(textwrap.dedent(code), " " * indent).rstrip()

    return f"""\
class Picamera2:
{lines(attributes or "pass", 4)}

    def __init__(self):
        self.camera_properties = {properties}
        self.camera_controls = {controls}
{lines(init, 8)}

    def create_still_configuration(self, main):
        return main

    def configure(self, config):
        pass

    def start(self):
        pass

    def capture_metadata(self):
{lines(metadata, 8)}

    def set_controls(self, controls):
{lines(set_controls, 8)}

    def close(self):
{lines(close, 8)}
"""


def install_fake_picamera2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """Put a ``picamera2`` package whose module body is ``body`` first on the path (a fresh import)."""
    package = tmp_path / "picamera2"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.delitem(sys.modules, "simplejpeg", raising=False)


def forget_fake_picamera2() -> None:
    """No stand-in outlives its test (nor what it imported)."""
    for name in ("picamera2", "simplejpeg", "libcamera"):
        sys.modules.pop(name, None)
