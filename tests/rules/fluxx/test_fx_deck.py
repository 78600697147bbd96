"""The deck data: the printed deck counted by type, every record sourced and honest about
its certainty, every effect in the engine's vocabulary; the legacy deck kept as it was."""
import hashlib
import json

import pytest

from games.rules.fluxx import cards
from games.rules.fluxx.cards import (BY_ID, CURRENT, DECK_RECORDS, DECKS, LEGACY, PLAYABLE, PRINTED, RECORDS,
                                     counts_by_type, merge, validate)

from .helpers import new_game

DOC = cards.DECK_FILE.parents[4] / "docs" / "rules" / "fluxx.md"
CERTAINTIES = {"confirmed", "name-unconfirmed", "name-translated", "effect-reconstructed", "power-reconstructed",
               "category-reconstructed", "reconstructed"}


def test_the_printed_deck_is_the_current_one_with_its_cards_counted_by_type():
    assert CURRENT == PRINTED and RECORDS == tuple(DECK_RECORDS[PRINTED])
    assert len(RECORDS) == 99 and len(PLAYABLE) == 98
    assert counts_by_type() == {"basic": 1, "rule": 22, "goal": 31, "keeper": 21, "creeper": 6, "action": 18}


def test_no_card_of_the_printed_deck_is_a_stand_in():
    assert [r["id"] for r in RECORDS if r["certainty"] == "reconstructed"] == []


def test_every_record_has_the_fields_the_table_needs_to_draw_it():
    for r in RECORDS:
        assert set(r) >= {"id", "type", "name", "text", "effect", "keywords", "certainty", "sources"}, r["id"]
        assert r["certainty"] in CERTAINTIES and r["sources"], r["id"]
        assert r["keywords"] and all(k in r["name"].lower() for k in r["keywords"]), r["id"]
    for r in RECORDS:
        if r["type"] == "goal":
            e = r["effect"]
            named = e.get("have", []) + e.get("others_have", []) + e.get("either", {}).get("cards", [])
            assert all(BY_ID[c]["type"] in ("keeper", "creeper") for c in named)
            assert all(c in DECKS[PRINTED] for c in named), r["id"]
            assert all(BY_ID[c]["name"] in r["text"] for c in named), r["id"]


def test_every_category_a_goal_names_is_carried_by_a_keeper_of_the_deck():
    carried = {t for r in RECORDS if r["type"] == "keeper" for t in r.get("tags", ())}
    named = {t for r in RECORDS if r["type"] == "goal"
             for t in r["effect"].get("either", {}).get("tags", []) + [r["effect"].get("tagged", {}).get("tag")] if t}
    assert named == {"knight", "swallow", "parrot", "cow"} and named <= carried


def test_every_source_key_is_explained_in_the_docs():
    text = DOC.read_text()
    for records in DECK_RECORDS.values():
        for key in {s for r in records for s in r["sources"]}:
            assert f"`{key}`" in text, key


@pytest.mark.parametrize("broken, reason", [
    ({"type": "gizmo"}, "unknown type"),
    ({"type": "action", "effect": {"op": "teleport"}}, "unknown action op"),
    ({"type": "goal", "effect": {"have": ["the-moon"]}}, "unknown card"),
    ({"type": "goal", "effect": {"either": {"cards": ["the-moon"]}}}, "unknown card"),
    ({"type": "goal", "effect": {"either": {"colour": ["red"]}}}, "either takes cards and tags"),
    ({"type": "goal", "effect": {}}, "must name cards, a tag or nothing"),
    ({"type": "rule", "effect": {"slot": "draw"}}, "needs a value"),
    ({"type": "keeper", "effect": {"power": "fly"}}, "unknown power"),
    ({"type": "keeper", "effect": {"counts_as": "the-moon"}}, "counts_as names an unknown card"),
])
def test_the_vocabulary_check_names_what_the_engine_could_not_run(broken, reason):
    record = {"id": "x", "name": "X", "text": "x", "effect": {}, **broken}
    with pytest.raises(ValueError, match=reason):
        validate(json.loads(json.dumps(list(RECORDS))) + [record])


def test_card_ids_are_unique():
    with pytest.raises(ValueError, match="unique"):
        validate([RECORDS[1], RECORDS[1]])


def test_an_id_both_decks_hold_must_be_the_same_card_to_the_engine():
    legacy = [dict(r) for r in DECK_RECORDS[LEGACY]]
    renamed = next(r for r in legacy if r["id"] == "coconuts")
    renamed["name"] = "Two Empty Halves"
    with pytest.raises(ValueError, match="'coconuts'.*id of its own"):
        merge(list(RECORDS), legacy)
    retold = [dict(r, text="Other words.") if r["id"] == "coconuts" else r for r in DECK_RECORDS[LEGACY]]
    assert len(merge(list(RECORDS), retold)) == len(cards.ALL_RECORDS)  # words may change, not the card


# The legacy deck's cards, exactly as games were dealt them before the printed deck: a game
# stored on it replays only while they stay so (its file is kept apart, never edited; the
# digest is of the cards of data/deck.json at commit 641a65b, before the printed deck).
LEGACY_CARDS_SHA256 = "e6a051ed3dc29a6aee05610eac6386ed108aa6438e4dba8057cdd21828559b32"


def test_the_legacy_deck_is_the_hundred_cards_it_always_was():
    assert counts_by_type(LEGACY) == {"basic": 1, "rule": 24, "goal": 22, "keeper": 20, "creeper": 5, "action": 28}
    digest = hashlib.sha256(json.dumps(DECK_RECORDS[LEGACY], sort_keys=True).encode()).hexdigest()
    assert digest == LEGACY_CARDS_SHA256


def test_a_game_is_dealt_from_the_deck_it_names_and_says_which():
    printed, legacy = new_game(deck=PRINTED), new_game(deck=LEGACY)
    assert printed["deck"] == PRINTED and cards.deck_of(printed) == PRINTED
    assert "deck" not in legacy and cards.deck_of(legacy) == LEGACY  # as every state stored before decks
    assert "deck" not in printed["options"] and "deck" not in legacy["options"]
    with pytest.raises(ValueError, match="Unknown deck"):
        new_game(deck="fluxx-4.0")


def test_the_docs_count_the_cards_of_the_printed_deck_as_the_data_does():
    rows = {"Basic Rules": "basic", "New Rules": "rule", "Goals": "goal", "Keepers": "keeper",
            "Creepers": "creeper", "Actions": "action"}
    text = DOC.read_text()
    for label, kind in rows.items():
        line = next(l for l in text.splitlines() if l.startswith(f"| {label} |"))
        total, listed = (int(cell.split()[0]) for cell in line.split("|")[2:4])
        records = [r for r in RECORDS if r["type"] == kind]
        assert total == len(records), label
        assert listed == sum(1 for r in records if "istamenov-perl2" in r["sources"]), label
    assert f"**{len(RECORDS)} of the published 100**" in text
