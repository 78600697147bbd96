"""A small set of cards in the agreed card format, written for the engine's tests.

The words are our own. Grail numbers are spread 0..7 so arranged decks can produce any
number a worked example needs.
"""
from __future__ import annotations

TABLE_TINTAGEL = [
    {"min": -99, "max": 2, "result": "lead_knight_slain"},
    {"min": 3, "max": 7, "result": "no_pass"},
    {"min": 8, "max": 10, "result": "draw_card"},
    {"min": 11, "max": 99, "result": "pass"},
]


def _c(code, title, type_, grail, **kw):
    card = {"code": code, "title": title, "type": type_, "grail": grail, "quote": kw.pop("quote", f"Behold, {title}!"),
            "text": kw.pop("text", ""), "rarity": kw.pop("rarity", "common"), "set": "test"}
    card.update(kw)
    return card


ARTHUR = _c("arthur", "King Arthur", "knight", 5, combat=5, wits=5, tags=["arthur"], rarity="fixed",
            round_table_bonus=[])
PATSY = _c("patsy", "Patsy", "page", 1, page={"items": 1, "knights": 1}, tags=["patsy"], rarity="fixed",
           secondary_adversary={"title": "Coconut Clopper", "combat": 1, "wits": 1})
LANCELOT = _c("lancelot", "Sir Lancelot", "knight", 3, combat=8, wits=2)
GAWAIN = _c("gawain", "Sir Gawain", "knight", 6, combat=4, wits=3)
BORS = _c("bors", "Sir Bors", "knight", 4, combat=4, wits=4, castle_icon=True)
BEDEVERE = _c("bedevere", "Sir Bedevere", "knight", 2, combat=3, wits=6,
              round_table_bonus=[{"op": "modify_grail_number", "amount": 1, "who": "self", "duration": "permanent"}])
ECTOR = _c("ector", "Sir Ector", "knight", 2, combat=3, wits=2)
GALAHAD = _c("galahad", "Sir Galahad", "knight", 5, combat=4, wits=3)
ROBIN = _c("robin", "Brave Sir Robin", "knight", 0, combat=2, wits=3)
CHICKEN = _c("vicious-chicken-of-bristol", "Vicious Chicken of Bristol", "peril", 2, combat=3)
BLACK_KNIGHT = _c("black-knight", "The Black Knight", "adversary", 7, combat=6, wits=1)
TIM = _c("tim-the-enchanter", "Tim the Enchanter", "persona", 3, combat=None, wits=7)
BRIDGEKEEPER = _c("bridgekeeper", "The Bridgekeeper", "adversary", 4, combat=None, wits=5,
                  primary=[{"op": "skip_turns", "who": "opponent", "turns": 1}])
ZOOT = _c("zoot", "Zoot", "adversary", 1, combat=None, wits=3, tags=["anthrax"])
DINGO = _c("dingo", "Dingo", "adversary", 6, combat=None, wits=2, tags=["anthrax"])
TINTAGEL = _c("tintagel", "Castle Tintagel", "castle", 3, castle_defense=4, castle_table=TABLE_TINTAGEL,
              castle_occupant={"type": "knight", "code": "bors"}, draw_bonus=1)
SWAMP_CASTLE = _c("swamp-castle", "Swamp Castle", "castle", 4, castle_defense=2, castle_table=TABLE_TINTAGEL,
                  draw_bonus=2)
VILLAGE = _c("witch-village", "The Witch-Burning Village", "village", 5, village_table=[
    {"min": 0, "max": 2, "effects": [{"op": "discard_cards", "count": 1, "who": "self", "chooser": "random"}],
     "text": "The villagers take a card."},
    {"min": 3, "max": 5, "effects": [], "text": "Nothing happens."},
    {"min": 6, "max": 7, "effects": [{"op": "draw_cards", "count": 1, "who": "self"}], "text": "Draw a card."},
])
FOREST = _c("forest-of-ni", "Forest", "land", 4, draw_bonus=1)
MOOR = _c("moor", "The Moor", "land", 1)
PAGE = _c("page-generic", "Page", "page", 3, unique=False, page={"items": 1, "knights": 1},
          secondary_adversary={"title": "Surly Squire", "combat": 2, "wits": None})
SWORD = _c("excalibur", "Excalibur", "item", 6,
           primary=[{"op": "modify_combat", "amount": 2, "target": "own_knight", "duration": "permanent"}])
COCONUTS = _c("coconuts", "Coconut Halves", "item", 0, unique=False,
              primary=[{"op": "modify_wits", "amount": 1, "target": "own_knight", "duration": "permanent"}])
PLAGUE = _c("bring-out-your-dead", "Bring Out Your Dead", "event", 2,
            primary=[{"op": "discard_cards", "count": 1, "who": "opponent", "chooser": "random"}],
            secondary=[{"op": "draw_cards", "count": 1, "who": "self"}])
RABBIT = _c("rabbit-trap", "Rabbit Trap", "event", 7,
            primary=[{"op": "modify_combat", "amount": -3, "target": "opponent", "duration": "dispute"}],
            secondary=[{"op": "modify_combat", "amount": 1, "target": "self", "duration": "dispute"}])
TAUNT = _c("french-taunt", "French Taunting", "taunt", 1,
           primary=[{"op": "modify_wits", "amount": -2, "target": "opponent", "duration": "turn"}],
           secondary=[{"op": "draw_cards", "count": 1, "who": "self"}])
SONG = _c("brave-sir-robin-song", "Brave Sir Robin's Song", "song", 6,
          primary=[{"op": "modify_grail_number", "amount": -1, "who": "opponent", "duration": "turn"}],
          secondary=[{"op": "draw_cards", "count": 1, "who": "self"}])
QUESTIONS = _c("questions-three", "Questions Three", "questions_three", 3,
               primary=[{"op": "block_movement", "who": "opponent", "turns": 1}],
               secondary=[{"op": "search_bonus", "amount": 1}])
HISTORIAN = _c("slaying-of-the-historian", "Slaying of the Historian", "event", 0,
               primary=[{"op": "end_game", "result": "draw"}], tags=["grail_quest_ender"],
               secondary=[{"op": "draw_cards", "count": 1, "who": "self"}])
NI = _c("we-want-a-shrubbery", "We Want a Shrubbery", "event", 4,
        primary=[{"op": "prevent_join", "turns": 1}], secondary=[{"op": "auto_join"}])
COUNTER = _c("not-dead-yet", "I'm Not Dead Yet", "event", 5,
             primary=[{"op": "cancel_last_card"}], secondary=[{"op": "return_from_dead_cart", "count": 1}])
BLANK = _c("write-yer-own", "Write Yer Own", "write_yer_own", 0, quote="",
           secondary=[{"op": "draw_cards", "count": 1, "who": "self"}], rarity="fixed")

ALL = [ARTHUR, PATSY, LANCELOT, GAWAIN, BORS, BEDEVERE, ECTOR, GALAHAD, ROBIN, CHICKEN, BLACK_KNIGHT, TIM,
       BRIDGEKEEPER, ZOOT, DINGO, TINTAGEL, SWAMP_CASTLE, VILLAGE, FOREST, MOOR, PAGE, SWORD, COCONUTS,
       PLAGUE, RABBIT, TAUNT, SONG, QUESTIONS, HISTORIAN, NI, COUNTER, BLANK]
BY_CODE = {c["code"]: c for c in ALL}


def written_card(author="brian"):
    """A Write Yer Own card as written by a player: an ordinary event with an author."""
    return _c("wyo-brian-coconut-strike", "Coconut Strike", "event", 3, tags=["write_yer_own"], author=author,
              primary=[{"op": "modify_combat", "amount": 1, "target": "self", "duration": "dispute"}],
              secondary=[{"op": "draw_cards", "count": 1, "who": "self"}])


def test_deck(extra=()):
    """A 60-card deck: Arthur, Patsy and a spread of everything (duplicates are distinct)."""
    core = [ARTHUR, PATSY]
    body = [c for c in ALL if c not in (ARTHUR, PATSY)]
    deck = list(core) + list(extra)
    i = 0
    while len(deck) < 60:
        deck.append(body[i % len(body)])
        i += 1
    return deck
