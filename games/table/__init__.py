"""The table: a move's check, do and store. Services lock a match, ask the rules, write the
change in one transaction and say what changed; selectors read; the clock and the computer
players decide what time and machines owe. The parts that show, tell and rate listen to the
table (``changes``), so nothing here imports them."""
MAY_IMPORT = ("games.models", "games.fields", "games.state_storage", "games.registry")
