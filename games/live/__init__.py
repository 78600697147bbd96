"""Live: websockets and the frames they carry. Consumers take moves and chat from a page
and hand them to the table; frames and the publisher send each viewer what it may see of a
change through the channel layer (and a tournament's page, that its tournament changed). It
may import the table."""
MAY_IMPORT = ("games.table",)
