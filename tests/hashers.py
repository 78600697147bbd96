"""Password hashers for the test suite.

Django's default hasher spends about 0.4 s of CPU on every password it hashes or checks (a
million PBKDF2 rounds, on purpose), and the suite makes several hundred accounts. The tests
hash with MD5 instead (the speed-up Django's testing docs suggest); Django's own list stays
behind it, so a password hashed either way still checks. The site's settings are untouched.
"""
from django.conf import global_settings

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
