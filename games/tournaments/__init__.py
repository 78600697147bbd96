"""Tournaments and ladders: Swiss, tables by score and round robin events of every game,
played by correspondence, and a ladder per game open all the time.

Two layers live here, and only the first is pure:

- the rules of the formats (``PURE``): pairings and seatings, standings with their
  tie-breaks, the ladder, and how a game's ending gives its players' places. They import
  nothing of Django, clocks, randomness or I/O (tests/tournaments/test_purity.py);
- the shell of them, which imports Django: ``services`` (create, enter, start, pause,
  cancel, remove a player), ``rounds`` (pairing a round, hearing of its games' ends from the
  table, closing a round at its deadline, the sweep), ``ladders``, ``selectors`` (lists,
  standings, what a game's page says of it), ``notices``, ``api``, ``views``, ``forms`` and
  ``urls``.

Games are created through the table's services and their ends heard through its
announcements (``games.table.changes``, registered in ``games.apps``); the table never
imports this part. Ratings come from players, notices go through the inbox, and each
tournament's page is told of changes through live."""
MAY_IMPORT = ("games.table", "games.players", "games.inbox", "games.live")

# The modules that hold the formats' rules: pure Python, no Django.
PURE = ("entrants", "ladder", "results", "round_robin", "standings", "swiss", "tables")
