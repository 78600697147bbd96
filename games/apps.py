from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The parts that act on the table's changes listen to it (games/table/changes.py):
        # live builds each viewer's frame, the inbox nudges, reminds and pushes, players rate
        # a finished game, tournaments and ladders take a game's result (and move on).
        from games.bots import events as bot_events
        from games.inbox import notify, push
        from games.live import frames
        from games.players import ratings
        from games.table import changes
        from games.tournaments import ladders, rounds

        changes.listen(shown=frames.note_change, written=notify.match_changed_on_commit,
                       chatted=notify.chat_posted_on_commit, noticed=push.flush_on_commit)
        changes.listen(finished=ratings.record_end)
        changes.listen(finished=rounds.game_finished, aborted=rounds.game_aborted)
        changes.listen(finished=ladders.game_finished, aborted=ladders.game_aborted)
        # Bots' event streams are woken by an invitation, a start, an end (games/bots/events.py).
        changes.listen(noticed=bot_events.noticed, shown=bot_events.shown, finished=bot_events.finished,
                       aborted=bot_events.aborted)
