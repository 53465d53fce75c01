"""Fixtures shared by the real-browser tests (one server for the session, one Chromium per module)."""

from tests.browser_kit import browser, server  # noqa: F401
