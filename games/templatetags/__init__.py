"""Template filters of the games app: players' names as links, seats as the game page names them."""
