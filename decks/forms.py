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

# Types a blank can become in the designer. Castles, villages and pages carry tables and a
# second face that need their own editor; admins can still write those in the admin.
WYO_TYPES = ("knight", "persona", "adversary", "peril", "item", "event", "song", "taunt", "questions_three", "land")
MAX_PICTURE_BYTES = 1024 * 1024
MAX_PICTURE_SIDE = 1200


class DeckRenameForm(forms.Form):
    name = forms.CharField(max_length=Deck.NAME_MAX)


class DeckImportForm(forms.Form):
    name = forms.CharField(max_length=Deck.NAME_MAX, required=False, initial="Imported deck")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 10, "placeholder": "3 Sir Robin\n# comments are fine"}),
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
        "max_value": "Grail numbers over seven are not allowed."})
    combat = forms.IntegerField(min_value=0, max_value=12, required=False)
    wits = forms.IntegerField(min_value=0, max_value=12, required=False)
    castle_icon = forms.BooleanField(required=False)
    unique = forms.BooleanField(required=False, initial=True)
    quote = forms.CharField(max_length=QUOTE_MAX, required=False, widget=forms.Textarea(attrs={"rows": 2}))
    primary = EffectListField(required=False, max_length=4000, widget=forms.HiddenInput)
    secondary = EffectListField(required=False, max_length=4000, widget=forms.HiddenInput)
    picture_upload = forms.ImageField(required=False)
    picture_drawn = forms.CharField(required=False, widget=forms.HiddenInput,
                                    max_length=MAX_PICTURE_BYTES * 4 // 3 + 100)

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

    def card_data(self) -> dict:
        d = self.cleaned_data
        return {
            "type": d["type"], "title": d["title"], "grail": d["grail"], "combat": d.get("combat"),
            "wits": d.get("wits"), "castle_icon": bool(d.get("castle_icon")), "unique": bool(d.get("unique")),
            "quote": d.get("quote") or "", "primary": d.get("primary") or [], "secondary": d.get("secondary") or [],
        }

    def picture(self):
        if self.cleaned_data.get("picture_upload"):
            return self.cleaned_data["picture_upload"]
        if self.cleaned_data.get("picture_drawn"):
            return ContentFile(self.cleaned_data["picture_drawn"], name="drawn.png")
        return None
