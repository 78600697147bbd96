"""Players: ratings and leaderboards, the lobby of open games, profiles, friends and each
player's settings. It reads games through the table and hears of their ends from it."""
MAY_IMPORT = ("games.inbox", "games.table", "games.models", "games.registry", "decks")
