"""``{{ name|player }}``: a username as a link to its profile, wherever a name is shown."""
from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join

register = template.Library()


@register.filter
def player(name):
    if not name:
        return ""
    try:
        url = reverse("player_profile", args=[str(name)])
    except NoReverseMatch:  # a name the URL cannot carry (never one the sign-up form allows)
        return name
    return format_html('<a class="player" href="{}">{}</a>', url, name)


@register.filter
def seat_names(match):
    """Who holds each seat of a listed game, as the game's page names them ("Computer 2
    (Knight)"), people as links to their profiles, an open seat as such. Reads
    ``seats.all()``, which the lists prefetch."""
    from games import computers

    seats = list(match.seats.all())
    parts = []
    for seat in seats:
        name = computers.seat_name(seat, seats)
        if not name:
            parts.append(format_html("<em>open seat</em>"))
        elif seat.user_id is not None and not seat.computer:
            parts.append(player(name))
        else:
            parts.append(format_html("{}", name))
    return format_html_join(", ", "{}", ((p,) for p in parts))
