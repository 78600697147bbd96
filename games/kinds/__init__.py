"""Each game's room on the site, one folder per game (see ``base.py`` and ``games/registry.py``)."""
