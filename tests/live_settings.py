"""Settings of the test suite's own servers (the uvicorn of tests/browser_fixtures.py): the
site's settings, with the tests' password hashers (see tests/hashers.py)."""
from grailsite.settings import *  # noqa: F401,F403

from tests.hashers import PASSWORD_HASHERS  # noqa: F401
