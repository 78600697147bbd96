"""Forms: deck import/rename and the Write Yer Own designer (all user text is bounded)."""
from __future__ import annotations

import base64
import binascii
import io
import json

from django import forms
from django.core.files.base import ContentFile

from decks import textformat
from decks.models import Deck, QUOTE_MAX, TITLE_MAX
from games.rules.ccg import cards as ccg_cards

# Every type a blank can become in the designer (all but the blank itself).
WYO_TYPES = ("knight", "persona", "adversary", "peril", "item", "event", "song", "taunt", "questions_three", "land",
             "castle", "village", "page")
_TABLE_TYPES = ("castle", "village", "page")
_PLAIN_TYPES = tuple(t for t in WYO_TYPES if t not in _TABLE_TYPES)
# Which designer fields belong to which types. The page shows only these for the chosen type
# (wyo.js reads the data-types attribute) and card_data() sends only these, so a value left
# behind in a hidden field never reaches the card. What a type may carry is still decided by
# the card module; this map only says what the designer offers.
FIELD_TYPES = {
    "combat": _PLAIN_TYPES, "wits": _PLAIN_TYPES, "castle_icon": _PLAIN_TYPES,
    "secondary": tuple(t for t in WYO_TYPES if t != "page"),
    "castle_defense": ("castle",), "castle_occupant": ("castle",), "castle_table": ("castle",),
    "draw_bonus": ("castle", "land"),
    "village_table": ("village",),
    "page_items": ("page",), "page_knights": ("page",),
    "adversary_title": ("page",), "adversary_combat": ("page",), "adversary_wits": ("page",),
}
# Both tables are short: a village covers eight grail numbers, and no printed castle needs
# more than a handful of bands.
MAX_TABLE_ROWS = 8
MAX_TABLE_JSON = 12000
MAX_PICTURE_BYTES = 1024 * 1024
MAX_PICTURE_SIDE = 1200


# The deck list help's own example: a real card of the starter set (a test imports it).
HELP_EXAMPLE = "3 Brave Sir Robin"


class DeckRenameForm(forms.Form):
    name = forms.CharField(max_length=Deck.NAME_MAX)


class DeckImportForm(forms.Form):
    name = forms.CharField(max_length=Deck.NAME_MAX, required=False, initial="Imported deck")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 10, "placeholder": HELP_EXAMPLE + "\n# comments are fine"}),
                           required=False, max_length=textformat.MAX_LINES * (textformat.MAX_LINE_LENGTH + 1))

    def clean_name(self):
        return self.cleaned_data["name"].strip() or "New deck"


class EffectListField(forms.CharField):
    """A JSON list of effect pieces (built by the effect editor); validated by the card module."""

    def to_python(self, value):
        value = super().to_python(value)
        if value in ("", None):
            return []
        if isinstance(value, list):
            return value
        try:
            effects = json.loads(value)
        except (TypeError, json.JSONDecodeError):
            raise forms.ValidationError("Effects must be a JSON list.")
        if not isinstance(effects, list):
            raise forms.ValidationError("Effects must be a JSON list.")
        return effects


class TableField(forms.CharField):
    """A JSON list of table rows (built by the table editor), at most MAX_TABLE_ROWS long.

    Only the shape is checked here; the rows themselves are the card module's business, so
    its per-row reasons ("castle_table row 2: ...") are the ones the designer shows.
    """

    def to_python(self, value):
        value = super().to_python(value)
        if value in ("", None):
            return None
        rows = value
        if not isinstance(rows, list):
            try:
                rows = json.loads(value)
            except (TypeError, json.JSONDecodeError):
                raise forms.ValidationError("The table must be a JSON list of rows.")
        if not isinstance(rows, list):
            raise forms.ValidationError("The table must be a JSON list of rows.")
        if len(rows) > MAX_TABLE_ROWS:
            raise forms.ValidationError(f"A table has at most {MAX_TABLE_ROWS} rows.")
        return rows


def _check_image(data: bytes) -> None:
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
            if image.format not in ("PNG", "JPEG", "GIF", "WEBP"):
                raise forms.ValidationError("Pictures must be PNG, JPEG, GIF or WebP.")
            if max(image.size) > MAX_PICTURE_SIDE:
                raise forms.ValidationError(f"Pictures are at most {MAX_PICTURE_SIDE} pixels on a side.")
    except (UnidentifiedImageError, OSError, SyntaxError):
        raise forms.ValidationError("That file is not a picture.")


class WriteYerOwnForm(forms.Form):
    type = forms.ChoiceField(choices=[(t, t.replace("_", " ").title()) for t in WYO_TYPES])
    title = forms.CharField(max_length=TITLE_MAX)
    grail = forms.IntegerField(min_value=0, max_value=7, error_messages={
        "max_value": "A grail number may be at most seven."})
    combat = forms.IntegerField(min_value=0, max_value=12, required=False)
    wits = forms.IntegerField(min_value=0, max_value=12, required=False)
    castle_icon = forms.BooleanField(required=False)
    unique = forms.BooleanField(required=False, initial=True)
    quote = forms.CharField(max_length=QUOTE_MAX, required=False, widget=forms.Textarea(attrs={"rows": 2}))
    draw_bonus = forms.IntegerField(min_value=0, max_value=ccg_cards.DRAW_BONUS_MAX, required=False, initial=0,
                                    label="Extra cards drawn")
    castle_defense = forms.IntegerField(min_value=0, max_value=ccg_cards.DEFENSE_MAX, required=False,
                                        label="Castle defence")
    castle_occupant = forms.ChoiceField(required=False, label="Occupant (the opponent picks one from their deck)",
                                        choices=[("", "Nobody")] + [(t, t.title()) for t in ccg_cards.OCCUPANT_TYPES])
    page_items = forms.IntegerField(min_value=0, max_value=ccg_cards.PAGE_CAPACITY_MAX, required=False,
                                    initial=1, label="Items carried")
    page_knights = forms.IntegerField(min_value=0, max_value=ccg_cards.PAGE_CAPACITY_MAX, required=False,
                                      initial=1, label="Knights served")
    adversary_title = forms.CharField(max_length=ccg_cards.MAX_TITLE, required=False,
                                      label="Other side: adversary title")
    adversary_combat = forms.IntegerField(min_value=0, max_value=ccg_cards.STAT_MAX, required=False,
                                          label="Other side: combat")
    adversary_wits = forms.IntegerField(min_value=0, max_value=ccg_cards.STAT_MAX, required=False,
                                        label="Other side: wits")
    primary = EffectListField(required=False, max_length=4000, widget=forms.HiddenInput, label="Primary effects")
    secondary = EffectListField(required=False, max_length=4000, widget=forms.HiddenInput,
                               label="Secondary effects")
    castle_table = TableField(required=False, max_length=MAX_TABLE_JSON, widget=forms.HiddenInput, label="Castle table")
    village_table = TableField(required=False, max_length=MAX_TABLE_JSON, widget=forms.HiddenInput, label="Village table")
    picture_upload = forms.ImageField(required=False)
    picture_drawn = forms.CharField(required=False, widget=forms.HiddenInput, label="Drawing",
                                    max_length=MAX_PICTURE_BYTES * 4 // 3 + 100)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, types in FIELD_TYPES.items():
            self.fields[name].widget.attrs["data-types"] = " ".join(types)

    def clean_picture_upload(self):
        upload = self.cleaned_data.get("picture_upload")
        if upload:
            if upload.size > MAX_PICTURE_BYTES:
                raise forms.ValidationError("Pictures are at most 1 MB.")
            upload.seek(0)
            _check_image(upload.read())
            upload.seek(0)
        return upload

    def clean_picture_drawn(self):
        value = self.cleaned_data.get("picture_drawn") or ""
        if not value:
            return None
        prefix = "data:image/png;base64,"
        if not value.startswith(prefix):
            raise forms.ValidationError("A drawing must be a PNG.")
        try:
            data = base64.b64decode(value[len(prefix):], validate=True)
        except (binascii.Error, ValueError):
            raise forms.ValidationError("The drawing could not be read.")
        _check_image(data)
        return data

    def _offers(self, name: str) -> bool:
        return self.cleaned_data["type"] in FIELD_TYPES[name]

    def card_data(self) -> dict:
        """The design as a card dict: the common fields plus those the chosen type offers."""
        d = self.cleaned_data
        card = {
            "type": d["type"], "title": d["title"], "grail": d["grail"], "unique": bool(d.get("unique")),
            "quote": d.get("quote") or "", "primary": d.get("primary") or [],
        }
        if self._offers("combat"):
            card.update(combat=d.get("combat"), wits=d.get("wits"), castle_icon=bool(d.get("castle_icon")))
        if self._offers("secondary"):
            card["secondary"] = d.get("secondary") or []
        if self._offers("draw_bonus"):
            card["draw_bonus"] = d.get("draw_bonus") or 0
        if self._offers("castle_table"):
            occupant = d.get("castle_occupant")
            card.update(castle_defense=d.get("castle_defense"), castle_table=d.get("castle_table"),
                        # No named occupant: the opponent searches their deck for one (rule 8.1).
                        castle_occupant={"type": occupant, "code": None} if occupant else None)
        if self._offers("village_table"):
            card["village_table"] = d.get("village_table")
        if self._offers("page_items"):
            card["page"] = {"items": d.get("page_items"), "knights": d.get("page_knights")}
            card["secondary_adversary"] = {"title": (d.get("adversary_title") or "").strip(),
                                           "combat": d.get("adversary_combat"), "wits": d.get("adversary_wits")}
        return card

    def picture(self):
        if self.cleaned_data.get("picture_upload"):
            return self.cleaned_data["picture_upload"]
        if self.cleaned_data.get("picture_drawn"):
            return ContentFile(self.cleaned_data["picture_drawn"], name="drawn.png")
        return None
