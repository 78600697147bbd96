"""The browser fixtures live in tests/browser_fixtures.py (a plugin of tests/conftest.py)."""
