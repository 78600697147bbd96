"""Bots: programs that play through the API. Personal tokens with scopes (their model and
keys are the accounts' own, ``grailsite/accounts/tokens.py``; their page is here), a stream
per game that forwards the frames live publishes for the bot's seat, a stream of the
account's events (challenges, games starting and ending), and what a bot account declares it
accepts. It reads games through the table and listens on live's groups."""
MAY_IMPORT = ("games.live", "games.table")
