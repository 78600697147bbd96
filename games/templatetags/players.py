"""``{{ name|player }}``: a username as a link to its profile, wherever a name is shown; and
``{{ text|rule_links:kind }}``: the printed rules' numbers a line cites ("(15.3)") as links to
that paragraph of the game's rules page."""
import re

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import conditional_escape, escape, format_html, format_html_join
from django.utils.safestring import mark_safe

from grailsite.accounts import bots

register = template.Library()


@register.filter
def player(name):
    if not name:
        return ""
    try:
        url = reverse("player_profile", args=[str(name)])
    except NoReverseMatch:  # a name the URL cannot carry (never one the sign-up form allows)
        return name
    if bots.is_bot_name(name):  # a bot is shown as one wherever its name is
        return format_html('<a class="player" href="{}">{}</a> <abbr class="bot-badge" title="A program plays '
                           'this account">BOT</abbr>', url, name)
    return format_html('<a class="player" href="{}">{}</a>', url, name)


@register.filter
def seat_names(match):
    """Who holds each seat of a listed game, as the game's page names them ("Computer 2
    (Knight)"), people as links to their profiles, an open seat as such. Reads
    ``seats.all()``, which the lists prefetch."""
    from games.table import computers

    seats = list(match.seats.all())
    parts = []
    for seat in seats:
        name = computers.seat_name(seat, seats)
        if not name:
            parts.append(mark_safe("<em>open seat</em>"))
        elif seat.user_id is not None and not seat.computer:
            parts.append(player(name))
        else:
            parts.append(format_html("{}", name))
    return format_html_join(", ", "{}", ((p,) for p in parts))


@register.filter
def linked_names(text, seats):
    """A log line with the people seated (``seats``, with their users) as links to their
    profiles; the rest stays escaped text."""
    names = sorted({s.user.username for s in seats if s.user_id is not None and not s.computer}, key=len, reverse=True)
    text = str(text or "")
    if not names:
        return text
    # Whole names only: "al" is not linked inside "Arthur's rally" (a name's own characters
    # may not touch it; a full stop after it may).
    pattern = re.compile(r"(?<![\w@.+-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w@+-])")
    parts, at = [], 0
    for found in pattern.finditer(text):
        parts.append(escape(text[at:found.start()]))
        parts.append(player(found.group(0)))
        at = found.end()
    parts.append(escape(text[at:]))
    return mark_safe("".join(str(p) for p in parts))  # noqa: S308 - every part escaped or format_html


# "(15.3)" or "(rule 4.3)": a number of the printed rules, cited in a line's words.
RULE_NUMBER = re.compile(r"\((rule )?(\d{1,2})\.(\d{1,2})\)")


@register.filter
def rule_links(text, kind):
    """``text`` (escaped here unless already safe, as ``linked_names`` gives it) with each rule
    number it cites linked to the paragraph of ``kind``'s rules page that has the id
    ``rule-15-3`` (the rules pages give the paragraphs they explain such ids)."""
    from games import registry

    html = conditional_escape(text or "")
    try:
        if registry.room(kind).rules_template is None:
            return html
        url = reverse("game_rules", args=[kind])
    except (LookupError, NoReverseMatch):
        return html

    def link(found):
        number = f"{found.group(2)}.{found.group(3)}"
        return str(format_html('({}<a class="rule-ref" href="{}#rule-{}-{}" target="_blank" rel="noopener" '
                               'title="Rule {} on the rules page">{}</a>)', found.group(1) or "", url,
                               found.group(2), found.group(3), number, number))

    # The pattern holds only digits, a dot, parentheses and "rule ": it never meets markup.
    return mark_safe(RULE_NUMBER.sub(link, str(html)))  # noqa: S308 - escaped above, parts format_html


@register.filter
def ago(moment):
    """How long ago, in words: "just now" within the first minute (Django's ``timesince``
    says "0 minutes" then), else "3 minutes ago", "2 days, 4 hours ago"."""
    from django.utils import timezone
    from django.utils.timesince import timesince

    if not moment:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment)} ago"
