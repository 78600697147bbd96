"""Write Yer Own for every username ("lancelot_n" was once refused, and the reason named
the card's hidden code field)."""
import pytest

from decks import services
from decks.models import Card
from games.rules.ccg.cards import CODE_RE

DRAW_ONE = {"op": "draw_cards", "count": 1, "who": "self"}
HIDDEN = ("'code'", "code:", "Code:", "tags", "author", "rarity")


@pytest.fixture
def blank_holder(make_user):
    def make(name):
        user = make_user(name)
        services.collection_grant(user=user, cards={services.wyo_blank_code(): 2}, reason="admin_grant")
        return user
    return make


def knight(title="Sir Not Appearing"):
    return {"type": "knight", "title": title, "grail": 3, "combat": 4, "wits": 2, "quote": "", "primary": [],
            "secondary": [DRAW_ONE]}


@pytest.mark.parametrize("name, title", [
    ("lancelot_n", "Sir Lancelot the Brave"),
    ("__", "Sir Robin"),
    ("bors--", "The __Coconut__ Knight"),
    ("x" * 140, "Sir " + "Long" * 19),
    ("tim", "Çà ñ"),
])
def test_any_username_and_title_give_a_valid_card_code(blank_holder, name, title):
    user = blank_holder(name)
    card = services.wyo_card_write(user=user, data=knight(title))
    assert CODE_RE.match(card.code) and len(card.code) <= 80, card.code
    # A second card of the same title gets its own code, still valid.
    again = services.wyo_card_write(user=user, data=knight(title))
    assert again.code != card.code and CODE_RE.match(again.code)


def test_the_page_writes_a_card_for_an_underscored_name(client, blank_holder):
    user = blank_holder("lancelot_n")
    client.force_login(user)
    response = client.post("/decks/write/", {"type": "knight", "title": "Sir Lancelot", "grail": 3, "combat": 4,
                                             "wits": 2, "primary": "[]", "secondary": '[{"op": "draw_cards", '
                                             '"count": 1, "who": "self"}]'})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Card.objects.filter(author=user, code="wyo-lancelot-n-sir-lancelot").exists()


def test_live_check_names_no_field_the_designer_cannot_see(client, blank_holder):
    user = blank_holder("lancelot_n")
    client.force_login(user)
    ok = client.post("/decks/api/write/check/", {**knight(), "primary": "[]", "secondary": "[]"},
                     content_type="application/json").json()
    assert not any(word in e for e in ok["errors"] for word in HIDDEN), ok["errors"]
    # A malformed hidden effects list is reported under the editor's own name.
    bad = client.post("/decks/api/write/check/", {**knight(), "primary": "{", "secondary": "[]"},
                      content_type="application/json").json()
    assert bad["errors"] == ["Primary effects: Effects must be a JSON list."]


def test_a_reason_about_an_unseen_field_is_said_in_words(blank_holder):
    user = blank_holder("galahad")
    design = services.wyo_design(user=user, data=knight())
    design["code"] = "Not_A_Code"
    errors = services.wyo_errors(design)
    assert errors and not any(word in e for e in errors for word in HIDDEN), errors
