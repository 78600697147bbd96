"""Decks: the card database, collections kept as a ledger, decks and Write Yer Own cards,
with their pages, API and admin. Playing a deck against the computer goes through the table."""
MAY_IMPORT = ("games.table",)
