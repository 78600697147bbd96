from games.table.selectors import unread_count
from grailsite import time_zones


def notifications(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # The zone moments are shown in: the one chosen, from the session (no query); "" for the
    # browser's own (templates/base.html, static/js/clocks.js).
    return {"unread_notifications": unread_count(user),
            "time_zone": request.session.get(time_zones.SESSION_KEY, "")}
