"""The card search syntax: parsing (pure) and searching the database."""
import pytest

from decks import selectors, services
from decks.query import Term, parse


def test_parses_a_query_of_type_combat_grail_and_text():
    q = parse('t:knight c>=5 g<=3 "chicken"')
    assert q.errors == []
    assert q.terms == [Term("type", "=", "knight"), Term("combat", ">=", 5), Term("grail", "<=", 3),
                       Term("text", "contains", "chicken")]


@pytest.mark.parametrize("text, term", [
    ("type:Knight", Term("type", "=", "knight")),
    ("t:kn", Term("type", "=", "knight")),
    ("t:q3", Term("type", "=", "questions_three")),
    ("t:wyo", Term("type", "=", "write_yer_own")),
    ("g:3", Term("grail", "=", 3)),
    ("grail=3", Term("grail", "=", 3)),
    ("w<2", Term("wits", "<", 2)),
    ("c>4", Term("combat", ">", 4)),
    ("c!=0", Term("combat", "!=", 0)),
    ("r:unc", Term("rarity", "=", "uncommon")),
    ("s:base", Term("set", "=", "base")),
    ("tag:arthur", Term("tag", "=", "arthur")),
    ("is:generic", Term("is", "=", "generic")),
    ("-t:page", Term("type", "=", "page", negate=True)),
    ("t!=page", Term("type", "=", "page", negate=True)),
    ('-"holy hand"', Term("text", "contains", "holy hand", negate=True)),
    ("Robin", Term("text", "contains", "robin")),
    ("ni!", Term("text", "contains", "ni!")),
])
def test_single_terms(text, term):
    q = parse(text)
    assert q.errors == [] and q.terms == [term]


@pytest.mark.parametrize("text, reason", [
    ("t:dragon", "Unknown card type"),
    ("t:p", "Unknown card type"),          # page, peril, persona: ambiguous prefix
    ("c>=many", "needs a whole number"),
    ("g<=100", "needs a whole number"),
    ("r:legendary", "Unknown rarity"),
    ("x:1", "Unknown filter"),
    ("is:blue", "Unknown 'is:'"),
    ("t>knight", "can only be compared"),
])
def test_bad_terms_are_reported_and_left_out(text, reason):
    q = parse(f"{text} robin")
    assert len(q.errors) == 1 and reason in q.errors[0]
    assert q.terms == [Term("text", "contains", "robin")]


def test_long_queries_are_bounded():
    q = parse("a " * 400)
    assert any("at most" in e for e in q.errors)
    assert len(q.terms) <= 20


def test_unterminated_quote_is_a_phrase():
    assert parse('"holy hand').terms == [Term("text", "contains", "holy hand")]


# -- against the database -------------------------------------------------------------------

def search(text, user=None):
    cards, total, errors = selectors.card_search(text=text, user=user, limit=1000)
    assert errors == []
    assert total == len(cards)
    return cards


def test_search_filters_by_every_field(db):
    knights = search("t:knight c>=5 g<=3")
    assert knights and all(c.type == "knight" and c.combat >= 5 and c.grail <= 3 for c in knights)
    assert all(c.wits is not None and c.wits < 2 for c in search("w<2"))
    assert all(c.rarity == "rare" for c in search("r:rare"))
    assert not any(c.type == "page" for c in search("-t:page"))
    assert [c.code for c in search("tag:arthur")] == ["arthur"]
    assert all(not c.unique for c in search("is:generic"))
    everything = search("")
    assert len(search("t:knight")) + len(search("-t:knight")) == len(everything)


def test_text_search_matches_title_text_and_quote_case_insensitively(db):
    arthur = search("tag:arthur")[0]
    word = arthur.title.split()[-1]
    assert arthur in search(word.upper())
    if arthur.quote:
        assert arthur in search(f'"{arthur.quote[:12]}"')


def test_written_cards_are_visible_only_to_their_author(make_user):
    author, other = make_user(), make_user()
    services.collection_grant(user=author, cards={services.wyo_blank_code(): 1}, reason="admin_grant")
    card = services.wyo_card_write(user=author, data={"type": "event", "title": "Zzyzx Shrubbery", "grail": 2,
                                                      "primary": [{"op": "draw_cards", "count": 1, "who": "self"}]})
    assert search("zzyzx", author) == [card]
    assert search("zzyzx", other) == []
    assert search("zzyzx") == []
    assert search("is:written", author) == [card]
