"""Each game's room on the site, one folder per game (see ``base.py`` and ``games/registry.py``):
its rules object, lifecycle hooks, forms, own URLs and API operations, board script and rules
page. A room may use the table and the decks (the CCG's antes)."""
MAY_IMPORT = ("games.table", "decks")
