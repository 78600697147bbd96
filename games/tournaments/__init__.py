"""Tournaments and ladders: the formats (Swiss, tables by score, round robin, ladder), their
pairings and seatings, and the standings with their tie-breaks. The modules here are pure:
they import nothing of Django (nor clocks or randomness); models, pages and tasks sit on top."""
MAY_IMPORT: tuple[str, ...] = ()
