"""Card curation in the Django admin: search, filters, a validating effect editor, bulk
import (dry-run preview, then applied in steps with a progress bar) and export, revision
history (errata), images, the Write Yer Own review queue, and read-only collections."""
from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from decks import cardformat, cardio, services
from decks.models import AnteStake, Card, CardRevision, Deck, Holding, ImportJob, LedgerEntry
from decks.models import JSON_FIELDS as CARD_JSON_FIELDS
from grailsite import errors as games_errors
from grailsite.api_auth import parse_json
from games.rules.ccg import vocabulary

IMPORT_BATCH = 200


class PrettyJSONWidget(forms.Textarea):
    def format_value(self, value):
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                return value
        return json.dumps(value, indent=1, ensure_ascii=False)


class CardAdminForm(forms.ModelForm):
    """Validates the whole card with the pure card module, so the admin can never store a card
    the engine would refuse; errors come back as the module's readable reasons."""

    class Meta:
        model = Card
        fields = "__all__"
        widgets = {name: PrettyJSONWidget(attrs={"rows": 8, "cols": 70}) for name in CARD_JSON_FIELDS}
        help_texts = {
            "primary": "A JSON list of effect pieces, e.g. [{\"op\": \"draw_cards\", \"count\": 1, \"who\": \"self\"}].",
            "secondary": "Effects used instead of the primary (rule 4.3); empty for pages.",
        }

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        probe = Card(**{k: v for k, v in cleaned.items() if k in {f.name for f in Card._meta.fields} and k != "image"})
        data = probe.to_format()
        for side in ("primary", "secondary", "round_table_bonus"):
            errors = cardformat.effects_errors(data.get(side))
            if errors:
                self.add_error(side, errors)
        errors = cardformat.card_errors(data)
        if errors and not self.errors:
            raise forms.ValidationError(errors)
        if not self.errors:
            self._text_follows_effects(cleaned, data)
        return cleaned

    def _text_follows_effects(self, cleaned: dict, data: dict) -> None:
        """Players read the printed text, the engine runs the effects: when an effect changes
        and the keeper left the text as it was, the text is re-written from the effects (the
        generated face shows it too). A text the keeper re-wrote in the same edit is kept."""
        self.text_rewritten = False
        if self.instance.pk is None:
            if not cleaned.get("text"):
                cleaned["text"] = cardformat.printed_text(data)
                self.text_rewritten = True
            return
        before = Card.objects.get(pk=self.instance.pk)
        if cardformat.effect_changes(before.to_format(), data) and cleaned.get("text", "") == before.text:
            cleaned["text"] = cardformat.printed_text(data)
            self.text_rewritten = True


class RevisionInline(admin.TabularInline):
    model = CardRevision
    extra = 0
    can_delete = False
    fields = ("number", "created_at", "changed_by", "source", "changed_fields", "note")
    readonly_fields = fields
    ordering = ("-number",)

    def has_add_permission(self, request, obj=None):
        return False


class ReviewQueueFilter(admin.SimpleListFilter):
    title = "review queue"
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        return [("submitted", "Waiting for review"), ("written", "All Write Yer Own cards")]

    def queryset(self, request, queryset):
        if self.value() == "submitted":
            return queryset.filter(review=Card.Review.SUBMITTED)
        if self.value() == "written":
            return queryset.filter(author__isnull=False)
        return queryset


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    change_form_template = "decks/admin/card_change_form.html"
    change_list_template = "decks/admin/card_change_list.html"
    list_display = ("title", "code", "type", "grail", "combat", "wits", "rarity", "set_code", "unique", "review", "author")
    list_filter = (ReviewQueueFilter, "type", "rarity", "set_code", "grail", "unique", "castle_icon", "review")
    search_fields = ("title", "code", "text", "quote", "author__username")
    readonly_fields = ("effects_preview", "vocabulary_reference", "face_preview", "created_at", "updated_at")
    inlines = [RevisionInline]
    actions = ["promote_cards", "reject_cards", "export_json", "export_csv"]
    list_per_page = 100
    fieldsets = (
        (None, {"fields": ("code", "title", "type", "grail", "combat", "wits", "castle_icon", "unique", "rarity",
                           "set_code", "quote", "text", "tags")}),
        ("Effects", {"fields": ("primary", "secondary", "round_table_bonus", "effects_preview", "vocabulary_reference")}),
        ("Castles, villages, pages, lands", {"classes": ("collapse",), "fields": (
            "castle_defense", "castle_table", "castle_occupant", "village_table", "page", "secondary_adversary",
            "draw_bonus")}),
        ("Picture", {"fields": ("image", "face_preview")}),
        ("Write Yer Own", {"fields": ("author", "review")}),
        ("Record", {"fields": ("created_at", "updated_at")}),
    )

    @admin.display(description="Effects as players read them")
    def effects_preview(self, obj):
        if obj is None or obj.pk is None:
            return "Save to see the effects in words."
        return format_html('<div style="white-space:pre-line">{}</div>', cardformat.rules_text(obj.to_format()))

    @admin.display(description="Effect vocabulary")
    def vocabulary_reference(self, obj):
        rows = []
        for op, params in vocabulary.EFFECT_OPS.items():
            parts = [f"{name}: {kind[1]}..{kind[2]}" if kind[0] == "int" else f"{name}: {' | '.join(kind[1:])}"
                     for name, kind in params.items()]
            rows.append((op, "; ".join(parts) or "no parameters", vocabulary.EFFECT_TEMPLATES[op]))
        table = format_html_join("", "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>", rows)
        return format_html('<details><summary>Every op and its parameters</summary><table>{}</table></details>', table)

    @admin.display(description="Card face")
    def face_preview(self, obj):
        if obj is None or obj.pk is None:
            return "—"
        url = obj.image.url if obj.image else reverse("card_face", args=[obj.code])
        return format_html('<img src="{}" alt="" style="max-width:200px">', url)

    def render_change_form(self, request, context, *args, **kwargs):
        context["effect_ops"] = vocabulary.EFFECT_OPS
        return super().render_change_form(request, context, *args, **kwargs)

    def save_model(self, request, obj, form, change):
        previous = None
        if change:
            previous = Card.objects.get(pk=obj.pk).to_format()
            previous.pop("author", None)
        super().save_model(request, obj, form, change)
        if getattr(form, "text_rewritten", False):
            self.message_user(request, f"The printed text of “{obj.title}” now follows its effects: {obj.text}",
                              messages.INFO)
        services.card_revision_record(card=obj, actor=request.user, source="admin", previous=previous,
                                      note="errata" if change else "created in admin")

    @admin.action(description="Promote into the official set")
    def promote_cards(self, request, queryset):
        self._review_each(request, queryset, services.wyo_card_promote, "promoted")

    @admin.action(description="Turn down (back to the author)")
    def reject_cards(self, request, queryset):
        self._review_each(request, queryset, services.wyo_card_reject, "turned down")

    def _review_each(self, request, queryset, decide, done_words):
        """Apply a review decision card by card; a refusal is reported and the rest go on."""
        done = 0
        for card in queryset:
            try:
                decide(card=card, actor=request.user)
                done += 1
            except services.ServiceError as exc:
                self.message_user(request, f"{card.title}: {exc}", messages.WARNING)
        self.message_user(request, f"{done} card(s) {done_words}.")

    def _export(self, queryset, kind):
        cards = [_export_dict(c) for c in queryset.select_related("author").order_by("id")]
        body = cardio.cards_to_json(cards) if kind == "json" else cardio.cards_to_csv(cards)
        response = HttpResponse(body, content_type="application/json" if kind == "json" else "text/csv")
        response["Content-Disposition"] = f'attachment; filename="cards.{kind}"'
        return response

    @admin.action(description="Export selected as JSON")
    def export_json(self, request, queryset):
        return self._export(queryset, "json")

    @admin.action(description="Export selected as CSV")
    def export_csv(self, request, queryset):
        return self._export(queryset, "csv")

    # -- bulk import and full export ----------------------------------------------------
    def get_urls(self):
        own = [
            path("import/", self.admin_site.admin_view(self.import_view), name="decks_card_import"),
            path("import/<int:job_id>/", self.admin_site.admin_view(self.import_preview), name="decks_card_import_preview"),
            path("import/<int:job_id>/step/", self.admin_site.admin_view(self.import_step), name="decks_card_import_step"),
            path("export.<str:kind>", self.admin_site.admin_view(self.export_all), name="decks_card_export"),
            path("check-effects/", self.admin_site.admin_view(self.check_effects), name="decks_card_check_effects"),
        ]
        return own + super().get_urls()

    def check_effects(self, request):
        """Live feedback for the effect editor: reasons (from the shared vocabulary) and words."""
        if request.method != "POST" or not self.has_view_permission(request):
            return JsonResponse({"error": "POST required."}, status=405)
        try:
            effects = parse_json(request.body or b"null")  # the shell's one bounded JSON reader
        except games_errors.ServiceError as exc:
            return JsonResponse({"errors": [exc.message], "text": ""})
        errors = cardformat.effects_errors(effects)
        return JsonResponse({"errors": errors, "text": "" if errors else cardformat.effects_text(effects)})

    def export_all(self, request, kind):
        if kind not in ("json", "csv") or not self.has_view_permission(request):
            return HttpResponse(status=404)
        return self._export(Card.objects.filter(review=Card.Review.OFFICIAL), kind)

    def import_view(self, request):
        if not self.has_change_permission(request) or not self.has_add_permission(request):
            return HttpResponse(status=403)
        form = CardImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                cards = cardio.cards_from_file(upload.name, upload.read())
            except cardio.CardFileError as exc:
                form.add_error("file", str(exc))
            else:
                job = services.card_import_prepare(cards=cards, filename=upload.name, actor=request.user)
                return redirect("admin:decks_card_import_preview", job_id=job.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Import cards",
                   "opts": self.model._meta}
        return render(request, "decks/admin/card_import.html", context)

    def import_preview(self, request, job_id):
        job = get_object_or_404(ImportJob, pk=job_id)
        values = job.preview.get("values", {})
        updates = [{**u, "changes": values.get(u["code"], [])} for u in job.preview.get("update", [])]
        context = {**self.admin_site.each_context(request), "job": job, "title": f"Import preview: {job.filename}",
                   "updates": updates,
                   "opts": self.model._meta, "total": len(job.cards), "batch": IMPORT_BATCH,
                   "step_url": reverse("admin:decks_card_import_step", args=[job.pk])}
        return render(request, "decks/admin/card_import_preview.html", context)

    def import_step(self, request, job_id):
        if request.method != "POST" or not self.has_change_permission(request):
            return JsonResponse({"error": "POST with change permission required."}, status=405)
        job = get_object_or_404(ImportJob, pk=job_id)
        try:
            job = services.card_import_step(job=job, batch=IMPORT_BATCH, actor=request.user)
        except (services.ServiceError, ValueError) as exc:
            return JsonResponse({"error": str(exc)}, status=400)
        return JsonResponse({"applied": job.applied, "total": len(job.cards), "done": job.done})


def _export_dict(card: Card) -> dict:
    return card.to_format()


class CardImportForm(forms.Form):
    file = forms.FileField(help_text="A .json file (a list of card objects) or a .csv file (one column per field).")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """Read-only: the ledger is append-only; grants go through the 'Grant cards' form."""
    list_display = ("created_at", "user", "card", "quantity_delta", "held_delta", "reason", "match_id", "actor", "note")
    list_filter = ("reason",)
    search_fields = ("user__username", "card__title", "card__code", "match_id")
    list_select_related = ("user", "card", "actor")
    change_list_template = "decks/admin/ledger_change_list.html"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        return [path("grant/", self.admin_site.admin_view(self.grant_view), name="decks_admin_grant")] + super().get_urls()

    def grant_view(self, request):
        if not request.user.has_perm("decks.add_holding"):
            return HttpResponse(status=403)
        form = AdminGrantForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                services.admin_grant(user=d["user"], card_code=d["card"].code, quantity=d["quantity"],
                                     actor=request.user, note=d["note"])
            except services.ServiceError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"{d['quantity']:+d} {d['card'].title} for {d['user'].username}.")
                return redirect("admin:decks_ledgerentry_changelist")
        context = {**self.admin_site.each_context(request), "form": form, "title": "Grant cards",
                   "opts": self.model._meta}
        return render(request, "decks/admin/grant.html", context)


class AdminGrantForm(forms.Form):
    user = forms.ModelChoiceField(queryset=None)
    card = forms.ModelChoiceField(queryset=Card.objects.all())
    quantity = forms.IntegerField(min_value=-99, max_value=99, help_text="Negative takes copies away.")
    note = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from django.contrib.auth import get_user_model
        self.fields["user"].queryset = get_user_model().objects.order_by("username")


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Holding)
class HoldingAdmin(ReadOnlyAdmin):
    list_display = ("user", "card", "quantity", "held")
    search_fields = ("user__username", "card__title")
    list_select_related = ("user", "card")


@admin.register(AnteStake)
class AnteStakeAdmin(ReadOnlyAdmin):
    list_display = ("match_id", "user", "card", "status", "winner", "created_at", "resolved_at")
    list_filter = ("status",)
    search_fields = ("match_id", "user__username")


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = ("name", "owner", "version", "updated_at")
    search_fields = ("name", "owner__username")

