"""The table: a move's check, do and store. Services lock a match, ask the rules, write the
change in one transaction and announce it (``changes``); selectors read; the clock and the
computer players decide what time and machines owe. The parts that show, tell and rate
listen to the table, so it imports none of them: only the base (models, registry, rules)."""
MAY_IMPORT: tuple[str, ...] = ()
