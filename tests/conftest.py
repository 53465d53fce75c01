"""Fixtures shared across test modules: the companion's app on a fresh data directory with its test client, the
real-browser tests' server and Chromium (one server for the session, one Chromium per module), and the reader tests'
2014 table of the project's photo renderer with its calibration (a module's own ``table`` fixture wins)."""

import random

import pytest

from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.browser_kit import browser, server  # noqa: F401
from tests.photo_kit import calibrated
from vision.photo import make_table


@pytest.fixture
def app(tmp_path):
    """The companion on an empty data directory, with a seeded simulated pyramid."""
    return create_app(tmp_path / "data", SimulatedPyramid(random.Random(3)), "http://table.test:8000", testing=True)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def table():
    """A 2014 table of :mod:`vision.photo` (its board, camels' paint and lamp), once per module."""
    return make_table(424_242, "2014")


@pytest.fixture(scope="module")
def colours(table):
    """``table`` calibrated in clean light, as a builder would (the reader's colours for it)."""
    return calibrated(table, "clean")
