"""Admin curation: validating editor, revisions with who changed what, bulk import/export."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from decks import cardio, services
from decks.models import Card, CardRevision, ImportJob


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("keeper", "k@example.org", "pw-x9-grail")
    client.force_login(admin)
    client.admin = admin
    return client


def change_form_data(card, **overrides):
    data = {k: v for k, v in card.to_format().items() if k not in ("set", "author")}
    data["set_code"] = card.set_code
    data["review"] = card.review
    data.update(overrides)
    post = {}
    for key, value in data.items():
        if isinstance(value, bool):
            if value:
                post[key] = "on"
        elif isinstance(value, (list, dict)) or (value is None and key in cardio.JSON_FIELDS):
            post[key] = json.dumps(value)
        elif value is None:
            post[key] = ""
        else:
            post[key] = value
    post.update({"revisions-TOTAL_FORMS": "0", "revisions-INITIAL_FORMS": "0"})
    return post


def test_editing_a_card_records_an_erratum_with_who_and_what(admin_client):
    card = Card.objects.get(code="arthur")
    response = admin_client.post(f"/admin/decks/card/{card.pk}/change/",
                                 change_form_data(card, quote="A new quote for the king."))
    assert response.status_code == 302, response.content.decode()[:3000]
    revision = card.revisions.first()
    assert revision.changed_by == admin_client.admin and revision.changed_fields == ["quote"]
    assert revision.data["quote"] == "A new quote for the king."


def test_the_effect_editor_refuses_bad_effects_with_reasons(admin_client):
    card = Card.objects.get(code="arthur")
    response = admin_client.post(f"/admin/decks/card/{card.pk}/change/",
                                 change_form_data(card, primary=[{"op": "teleport"}]))
    assert response.status_code == 200 and "Unknown effect" in response.content.decode()
    response = admin_client.post(f"/admin/decks/card/{card.pk}/change/", change_form_data(card, combat=None))
    assert "needs a &#x27;combat&#x27; number" in response.content.decode()
    assert card.revisions.count() == 1


def _upload(client, name, body):
    return client.post("/admin/decks/card/import/", {"file": SimpleUploadedFile(name, body.encode())})


def test_export_then_import_is_a_no_op_in_both_formats(admin_client):
    for kind in ("json", "csv"):
        exported = admin_client.get(f"/admin/decks/card/export.{kind}").content.decode()
        response = _upload(admin_client, f"cards.{kind}", exported)
        job = ImportJob.objects.latest("id")
        assert response["Location"].endswith(f"/import/{job.pk}/")
        assert job.preview["errors"] == [] and job.preview["create"] == [] and job.preview["update"] == []
        assert job.preview["unchanged"] == Card.objects.count()


def test_csv_round_trip_preserves_every_field(db):
    cards = [c.to_format() for c in Card.objects.all()]
    back = cardio.cards_from_csv(cardio.cards_to_csv(cards))
    from decks import cardformat
    assert [cardformat.normalize(c) for c in back] == [cardformat.normalize(c) for c in cards]


def test_import_previews_then_applies_in_steps(admin_client):
    arthur = Card.objects.get(code="arthur").to_format()
    changed = {**arthur, "quote": "Errata by import."}
    new = [{"code": f"extra-land-{i}", "title": f"Extra Land {i}", "type": "land", "grail": i % 8}
           for i in range(450)]
    _upload(admin_client, "more.json", json.dumps([changed] + new))
    job = ImportJob.objects.latest("id")
    assert len(job.preview["create"]) == 450
    assert job.preview["update"] == [{"code": "arthur", "fields": ["quote"]}]
    assert not Card.objects.filter(code="extra-land-0").exists()          # dry run changed nothing
    page = admin_client.get(f"/admin/decks/card/import/{job.pk}/").content.decode()
    assert "<progress" in page and "450</b> new" in page
    steps = []
    while True:
        data = admin_client.post(f"/admin/decks/card/import/{job.pk}/step/").json()
        steps.append(data["applied"])
        if data["done"]:
            break
    assert steps == [200, 400, 451]
    assert Card.objects.filter(code__startswith="extra-land-").count() == 450
    assert Card.objects.get(code="arthur").quote == "Errata by import."
    assert CardRevision.objects.filter(card__code="arthur", source="import", changed_by=admin_client.admin).exists()


def test_import_with_errors_lists_them_and_applies_nothing(admin_client):
    bad = [{"code": "ok-land", "title": "Ok", "type": "land", "grail": 1},
           {"code": "Bad Code", "title": "", "type": "knight", "grail": 9}]
    _upload(admin_client, "bad.json", json.dumps(bad))
    job = ImportJob.objects.latest("id")
    page = admin_client.get(f"/admin/decks/card/import/{job.pk}/").content.decode()
    assert "nothing can be imported" in page and "Row 2" in page
    assert admin_client.post(f"/admin/decks/card/import/{job.pk}/step/").status_code == 400
    assert not Card.objects.filter(code="ok-land").exists()


def test_a_broken_file_is_refused_at_upload(admin_client):
    response = _upload(admin_client, "cards.json", "{not json")
    assert response.status_code == 200 and "Not valid JSON" in response.content.decode()
    response = _upload(admin_client, "cards.csv", "code,title,colour\nx,y,z\n")
    assert "Unknown column" in response.content.decode()


def test_review_queue_and_promotion_from_the_admin(admin_client, starter_user):
    card = services.wyo_card_write(user=starter_user, data={
        "type": "event", "title": "Tea Time", "grail": 2, "primary": [{"op": "draw_cards", "count": 1, "who": "self"}]})
    services.wyo_card_submit(user=starter_user, card=card)
    queue = admin_client.get("/admin/decks/card/?queue=submitted").content.decode()
    assert "Tea Time" in queue
    admin_client.post("/admin/decks/card/", {"action": "promote_cards", "_selected_action": [card.pk]})
    card.refresh_from_db()
    assert card.review == "official"


def test_admin_grant_goes_through_the_ledger(admin_client, make_user):
    user = make_user()
    card = Card.objects.get(code="arthur")
    response = admin_client.post("/admin/decks/ledgerentry/grant/",
                                 {"user": user.pk, "card": card.pk, "quantity": 2, "note": "prize"})
    assert response.status_code == 302
    entry = user.ledger.get()
    assert (entry.reason, entry.quantity_delta, entry.actor) == ("admin_grant", 2, admin_client.admin)
    response = admin_client.post("/admin/decks/ledgerentry/grant/",
                                 {"user": user.pk, "card": card.pk, "quantity": -5, "note": ""})
    assert "Not enough copies" in response.content.decode()


def test_the_effect_editor_checks_effects_live(admin_client):
    url = "/admin/decks/card/check-effects/"
    good = admin_client.post(url, [{"op": "draw_cards", "count": 2, "who": "self"}], content_type="application/json")
    assert good.json() == {"errors": [], "text": "Draw 2 cards."}
    bad = admin_client.post(url, [{"op": "draw_cards", "count": 9, "who": "self"}], content_type="application/json")
    assert "from 1 to 7" in bad.json()["errors"][0]
    broken = admin_client.post(url, "[{", content_type="application/json")
    assert "not valid JSON" in broken.json()["errors"][0]
    # The shell's bounded reader: nesting past its limit is a reason, not a crash.
    deep = admin_client.post(url, "[" * 5000 + "]" * 5000, content_type="application/json")
    assert deep.status_code == 200 and "nested" in deep.json()["errors"][0]
    page = admin_client.get(f"/admin/decks/card/{Card.objects.get(code='arthur').pk}/change/").content.decode()
    assert 'id="effect-ops"' in page and "admin_effects.js" in page
