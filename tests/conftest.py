"""Fixtures shared by the real-browser tests (one server and one Chromium for the session)."""

from tests.browser_kit import browser, server  # noqa: F401
