"""The inbox: everything that tells a player something away from a game's page:
notifications, nudges, e-mail, Web Push, reminders before a deadline, and the recap of what
happened since their last visit. It hears of changes from the table and nudges through live."""
MAY_IMPORT = ("games.live", "games.table")
