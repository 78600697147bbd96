"""Template filters of the games app: players' names as links, seats as a game's page names
them. They read seats through the table."""
MAY_IMPORT = ("games.table",)
