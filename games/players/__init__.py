"""Players: ratings and leaderboards, the lobby of open games, profiles, friends and each
player's settings. It reads games through the table, hears of their ends from it, and
keeps the inbox's preferences on the settings page."""
MAY_IMPORT = ("games.inbox", "games.table", "decks")
