"""Fixtures shared across test modules: the companion's app on a fresh data directory with its test client, and
the real-browser tests' server and Chromium (one server for the session, one Chromium per module)."""

import random

import pytest

from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.browser_kit import browser, server  # noqa: F401


@pytest.fixture
def app(tmp_path):
    """The companion on an empty data directory, with a seeded simulated pyramid."""
    return create_app(tmp_path / "data", SimulatedPyramid(random.Random(3)), "http://table.test:8000", testing=True)


@pytest.fixture
def client(app):
    return app.test_client()
