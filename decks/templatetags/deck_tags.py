"""Template tags for pages outside the decks app that offer a deck (the CCG's join and
new-game forms): each deck with whether it can be played, and why not."""
from django import template

from decks import selectors

register = template.Library()


@register.simple_tag
def decks_playability(user):
    if user is None or not user.is_authenticated:
        return []
    return selectors.decks_playability(user=user)
