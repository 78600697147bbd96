"""Web: the game pages and the typed JSON API, their forms and URLs. Each view or endpoint
only translates a request and calls the parts below it; it holds no rule of its own."""
MAY_IMPORT = ("games.inbox", "games.live", "games.players", "games.kinds", "games.table", "games.tournaments",
              "decks")
