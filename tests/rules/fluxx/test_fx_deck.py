"""The deck data: 100 cards, each type counted, each effect in the engine's vocabulary."""
import json

import pytest

from games.rules.fluxx import cards
from games.rules.fluxx.cards import BY_ID, PLAYABLE, RECORDS, counts_by_type, validate

DOC = cards.DECK_FILE.parents[4] / "docs" / "rules" / "fluxx.md"


def test_the_deck_has_a_hundred_cards_with_the_documented_counts():
    assert len(RECORDS) == 100 and len(PLAYABLE) == 99
    assert counts_by_type() == {"basic": 1, "rule": 24, "goal": 22, "keeper": 20, "creeper": 5, "action": 28}


def test_every_record_has_the_fields_the_table_needs_to_draw_it():
    for r in RECORDS:
        assert set(r) >= {"id", "type", "name", "text", "effect", "keywords", "certainty", "sources"}, r["id"]
        assert r["certainty"] in {"confirmed", "name-only", "name-unconfirmed", "name-translated",
                                  "effect-reconstructed", "power-reconstructed", "reconstructed"}
        assert r["keywords"] and all(k in r["name"].lower() for k in r["keywords"]), r["id"]
    for r in RECORDS:
        if r["type"] == "goal":
            named = r["effect"].get("have", []) + r["effect"].get("others_have", [])
            assert all(BY_ID[c]["type"] in ("keeper", "creeper") for c in named)
            assert all(BY_ID[c]["name"] in r["text"] for c in named), r["id"]


def test_every_source_key_is_explained_in_the_docs():
    text = DOC.read_text()
    for key in {s for r in RECORDS for s in r["sources"]}:
        assert f"`{key}`" in text, key


@pytest.mark.parametrize("broken, reason", [
    ({"type": "gizmo"}, "unknown type"),
    ({"type": "action", "effect": {"op": "teleport"}}, "unknown action op"),
    ({"type": "goal", "effect": {"have": ["the-moon"]}}, "unknown card"),
    ({"type": "rule", "effect": {"slot": "draw"}}, "needs a value"),
    ({"type": "keeper", "effect": {"power": "fly"}}, "unknown power"),
])
def test_the_vocabulary_check_names_what_the_engine_could_not_run(broken, reason):
    record = {"id": "x", "name": "X", "text": "x", "effect": {}, **broken}
    with pytest.raises(ValueError, match=reason):
        validate(json.loads(json.dumps(list(RECORDS))) + [record])


def test_card_ids_are_unique():
    with pytest.raises(ValueError, match="unique"):
        validate([RECORDS[1], RECORDS[1]])


def test_the_docs_count_the_cards_and_the_confirmed_ones_as_the_data_does():
    rows = {"Basic Rules": "basic", "New Rules": "rule", "Goals": "goal", "Keepers": "keeper",
            "Creepers": "creeper", "Actions": "action"}
    text = DOC.read_text()
    for label, kind in rows.items():
        line = next(l for l in text.splitlines() if l.startswith(f"| {label} |"))
        total, confirmed = (int(cell.split()[0]) for cell in line.split("|")[2:4])
        records = [r for r in RECORDS if r["type"] == kind]
        assert total == len(records), label
        assert confirmed == sum(1 for r in records if r["certainty"] != "reconstructed"), label
