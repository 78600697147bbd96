"""Every game explains itself at the table: a rules page per game from its room,
linked from the game lists, the new-game form and the game page; a one-line goal on every
table; the new-game form opening on a table it accepts; and an invitee told the clock and
the options before accepting."""
import re
from html import unescape

import pytest

from decks import services as deck_services
from games.table import services
from games import registry
from games.models import Match

KINDS = ("camelot", "ccg", "cupquest", "duel", "fluxx")


def _section(page: str, testid: str) -> str:
    """The element carrying ``data-testid=testid``, up to its first closing tag of the same name."""
    at = page.index(f'data-testid="{testid}"')
    open_at = page.rindex("<", 0, at)
    tag = re.match(r"<(\w+)", page[open_at:]).group(1)
    return page[open_at:page.index(f"</{tag}>", at)]


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_five_games_each_bring_a_summary_a_goal_and_a_rules_page():
    rooms = {room.kind: room for room in registry.rooms()}
    assert set(KINDS) <= set(rooms)
    for kind in KINDS:
        room = rooms[kind]
        assert room.guide is not None, kind
        assert room.summary.endswith(".") and len(room.summary) < 200, kind
        assert room.how_to_win(), kind
        # Beside its board script, in its own folder: a sixth game brings its own.
        assert room.rules_template == f"{kind}/rules.html"
        assert (room.folder / "templates" / kind / "rules.html").is_file()


@pytest.mark.parametrize("kind", KINDS)
def test_a_rules_page_says_the_goal_a_turn_the_pieces_the_options_and_the_sites_choices(client, kind):
    room = registry.room(kind)
    response = client.get(f"/rules/{kind}/")  # public: learn a game before signing up
    assert response.status_code == 200
    page = response.content.decode()
    text = _text(page)
    assert f"How to play {room.game.name}" in text
    assert room.players_text in text and room.summary in text and room.how_to_win() in text
    for section in ("goal", "turn", "pieces", "variations", "site"):
        assert f'<section id="{section}">' in page, section
    turn = page[page.index('data-testid="rules-turn"'):page.index("</ol>", page.index('data-testid="rules-turn"'))]
    assert turn.count("<li>") == 5, "a turn in five lines"
    # The options are read from the form the new-game page draws, so they cannot drift from it.
    options = _text(page[page.index('data-testid="rules-options"'):page.index("</dl>", page.index('data-testid="rules-options"'))])
    form = room.options_form()
    assert form.fields, kind
    for field in form.fields.values():
        assert str(field.label) in options, field.label
        for _, label in getattr(field, "choices", []):
            assert str(label) in options, label


@pytest.mark.parametrize("kind", KINDS)
def test_a_rules_page_says_what_the_clock_does_and_when_a_game_is_aborted(client, kind):
    """The time-out policy of docs/rules/time.md, on every rules page, in the words that fit
    the game's table sizes, with the game's own decisions that have a default."""
    game = registry.get(kind)
    text = _text(_section(client.get(f"/rules/{kind}/").content.decode(), "rules-time"))
    assert "aborted: no winner, not rated" in text
    assert "the clock makes the default for you" in text
    assert ("If your time runs out on your own turn, you lose the game" in text) == (game.min_players <= 2)
    assert ("a computer player takes your seat for the rest of the game" in text) == (game.max_players > 2)
    assert "+ time" in text
    own = {"camelot": "choosing an Entry hex", "ccg": "a response window", "cupquest": "a battle you must fight",
           "duel": "Grail Duel has none", "fluxx": "judging a"}[kind]
    assert own in text


def test_the_options_listed_follow_the_form_and_the_goal_follows_the_table():
    camelot = registry.room("camelot")
    rows = {row["label"]: row for row in camelot.option_rows()}
    assert rows["Turn limit"]["default"] == "400" and rows["Turn limit"]["bounds"] == "20 to 5000"
    assert rows["Failed attacks cost a unit"]["default"] == "on"
    assert camelot.how_to_win({}, 3) == "Be the first to bring Excalibur to your Entry hex."
    assert "15 gold" in camelot.how_to_win({"gold": True}, 4) and "Excalibur" not in camelot.how_to_win({"gold": True}, 4)
    assert "Excalibur" not in camelot.how_to_win({"accoutrements": True}, 4)
    assert "Excalibur" in camelot.how_to_win({"accoutrements": True}, 5)  # one more item at five or six
    assert registry.room("duel").how_to_win({"rounds": 2}, 2).startswith("After 2 cards each")
    ccg = registry.room("ccg")
    chosen = {o["label"]: o["value"] for o in ccg.chosen_options(
        {"double_the_ante": True, "rules_off": ["quotes"], "window": ["hours", 12], "offer": None})}
    assert chosen == {"Double the ante may be offered (16.2)": "yes",
                      "Rules switched off by agreement (16.1)": "reading the quote aloud",
                      "Response window clock": "12 hours", "Doubling offer clock": "the game's own clock"}


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/croquet/").status_code == 404


@pytest.mark.django_db
def test_the_home_pages_list_every_game_with_its_players_and_rules(client, make_user):
    for page in (client.get("/").content.decode(),):  # a visitor's landing page
        text = _text(page)
        assert "Grail Duel — 2 players" in text and "Camelot — 3–6 players" in text
        assert "2–2" not in text
        for kind in KINDS:
            assert f'href="/rules/{kind}/"' in page
            assert registry.room(kind).summary in text
    client.force_login(make_user())
    games = _section(client.get("/").content.decode(), "games")
    for kind in KINDS:
        assert f'href="/rules/{kind}/"' in games and f'href="/games/new/?kind={kind}"' in games


@pytest.mark.django_db
def test_the_lobby_links_every_rules_page(client):
    links = _section(client.get("/lobby/").content.decode(), "lobby-rules")
    for kind in KINDS:
        assert f'href="/rules/{kind}/"' in links


def _initial_post(form_page_context) -> dict:
    """What a person sends who changes nothing on the new-game form."""
    form, panels = form_page_context["form"], form_page_context["panels"]
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is True:
            data[name] = "on"
        elif value not in (None, False):
            data[name] = value
    panel = next(p for p in panels if p.room.kind == data["kind"])
    for name, field in panel.options.fields.items():
        value = field.initial
        if value is True:
            data[f"{panel.options.prefix}-{name}"] = "on"
        elif value not in (None, False, []):
            data[f"{panel.options.prefix}-{name}"] = value
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("asked", [None, "duel", "fluxx"])
def test_the_new_game_form_opens_on_a_table_it_accepts(client, make_user, asked):
    user = make_user()
    client.force_login(user)
    response = client.get("/games/new/" + (f"?kind={asked}" if asked else ""))
    form = response.context["form"]
    room = registry.room(form.initial["kind"])
    assert asked is None or room.kind == asked
    assert form.initial["seats"] == room.game.min_players
    sent = client.post("/games/new/", _initial_post(response.context))
    assert sent.status_code == 302, sent.context["form"].errors if sent.context else sent
    match = Match.objects.get(creator=user)
    assert (match.kind, match.num_seats) == (room.kind, room.game.min_players)


@pytest.mark.django_db
def test_a_player_count_the_game_cannot_take_is_refused_on_the_field(client, make_user):
    client.force_login(make_user())
    data = _initial_post(client.get("/games/new/?kind=camelot").context)
    data["seats"] = 2
    response = client.post("/games/new/", data)
    assert response.status_code == 200
    assert response.context["form"].errors["seats"] == ["Camelot is for 3–6 players."]
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_the_new_game_form_describes_each_game_and_links_its_rules(client, make_user):
    client.force_login(make_user())
    page = client.get("/games/new/").content.decode()
    for kind in KINDS:
        room = registry.room(kind)
        about = _text(_section(page, f"game-about-{kind}"))
        assert room.game.name in about and room.players_text in about and room.summary in about
        assert f'href="/rules/{kind}/"' in page
    # The game list says each game's player count once, without "2–2".
    assert "Grail Duel (2 players)" in page and "Cup Quest (2–4 players)" in page
    assert 'id="kind-data"' in page  # the ranges and levels the form's script keeps to


@pytest.mark.django_db
def test_the_game_page_says_how_to_win_this_table_and_links_the_rules(client, make_match, make_user):
    users = [make_user() for _ in range(3)]
    match = services.match_create(creator=users[0], kind="camelot", num_seats=3, options={"gold": True},
                                  invite=[u.username for u in users[1:]])
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    client.force_login(users[1])
    page = client.get(f"/games/{match.pk}/").content.decode()
    line = _text(_section(page, "how-to-win"))
    assert "To win:" in line and "15 gold" in line
    assert 'data-testid="rules-link" href="/rules/camelot/"' in page or 'href="/rules/camelot/"' in page
    duel, _ = make_match(options={"rounds": 2})
    client.force_login(duel.seats.first().user)
    assert "After 2 cards each" in _text(_section(client.get(f"/games/{duel.pk}/").content.decode(), "how-to-win"))


@pytest.mark.django_db
def test_an_invitee_sees_the_clock_and_the_options_before_accepting(client, make_user):
    host, guest = make_user(), make_user()
    deck_services.starter_grant(user=host)
    deck_services.starter_grant(user=guest)
    match = services.match_create(creator=host, kind="ccg", num_seats=2, invite=[guest.username],
                                  clock_kind="hours", clock_amount=12, weekend_pause=True, vacation_days=5,
                                  options={"double_the_ante": True, "rules_off": ["quotes"], "window": "30m", "offer": ""},
                                  creator_choice={"deck": host.decks.order_by("pk").first().pk})
    client.force_login(guest)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'data-testid="join"' in page  # the accept button, with the terms above it
    terms = _text(_section(page, "table-terms"))
    assert "12 hours a move" in terms and "weekends do not count" in terms and "5 vacation days a year each" in terms
    assert "Double the ante may be offered (16.2) yes" in terms
    assert "reading the quote aloud" in terms and "30 minutes" in terms and "the game's own clock" in terms


# --- rule numbers the games' words cite link to the paragraph that explains them -----------

def _cited_rule_numbers(kind: str) -> set[str]:
    """Every "(15.3)" or "(rule 4.3)" in the words a game shows (string constants of its rules
    and its room, docstrings left out), as "15.3"."""
    import ast
    from pathlib import Path

    from games.templatetags.players import RULE_NUMBER

    root = Path(__file__).resolve().parents[2] / "games"
    found = set()
    for folder in (root / "rules" / kind, root / "kinds" / kind):
        for path in folder.rglob("*.py"):
            tree = ast.parse(path.read_text())
            docs = {id(node.body[0].value) for node in ast.walk(tree)
                    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                    found |= {f"{m.group(2)}.{m.group(3)}" for m in RULE_NUMBER.finditer(node.value)}
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_every_rule_number_a_game_cites_has_its_paragraph_on_the_rules_page(client, kind):
    cited = _cited_rule_numbers(kind)
    page = client.get(f"/rules/{kind}/").content.decode()
    missing = sorted(n for n in cited if f'id="rule-{n.replace(".", "-")}"' not in page)
    assert not missing, f"{kind}'s rules page explains no {missing}"
    if kind == "ccg":
        assert {"15.3", "15.1", "6.3", "4.6"} <= cited   # the scan finds what the card game says


def test_rule_numbers_in_a_line_link_to_their_paragraph_and_the_rest_stays_escaped():
    from games.templatetags.players import rule_links

    html = str(rule_links("<b>bob</b> may search alone (15.3) & (rule 4.3), not (sword, 1)", "ccg"))
    assert html == ('&lt;b&gt;bob&lt;/b&gt; may search alone (<a class="rule-ref" href="/rules/ccg/#rule-15-3" '
                    'target="_blank" rel="noopener" title="Rule 15.3 on the rules page">15.3</a>) &amp; (rule '
                    '<a class="rule-ref" href="/rules/ccg/#rule-4-3" target="_blank" rel="noopener" '
                    'title="Rule 4.3 on the rules page">4.3</a>), not (sword, 1)')
    assert str(rule_links("(15.3)", "no-such-game")) == "(15.3)"


@pytest.mark.django_db
def test_the_history_links_rule_numbers_and_says_by_the_clock_and_notices_say_just_now(client, make_user):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Notification, Seat
    from tests.platform.ccg_helpers import drive, ensure_card_database, prepared_player

    ensure_card_database()
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=["bob"], seed=3,
                                  creator_choice={"deck": prepared_player(alice, spare=1).pk})
    services.match_join(match_id=match.pk, user=bob, choice={"deck": prepared_player(bob).pk})
    match = drive(Match.objects.get(pk=match.pk), [alice, bob], until=lambda m: m.state["phase"] != "cut")
    # A move made by the clock, then bob leaves: alice may search alone (15.3).
    late = next(s for s in Seat.objects.filter(match=match) if s.deadline is not None)
    Seat.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=late.index)
    services.match_resign(match_id=match.pk, user=bob)
    client.force_login(alice)
    history = client.get(f"/games/{match.pk}/history/").content.decode()
    assert '(<a class="rule-ref" href="/rules/ccg/#rule-15-3"' in history
    clocked = re.findall(r'<li value="\d+" class="timeout">(.*?)</li>', history, re.S)
    assert clocked and all(_text(line).strip().endswith("(by the clock)") for line in clocked)
    assert ">timeout<" not in history
    Notification.objects.filter(user=alice).update(created_at=timezone.now())
    notices = _text(client.get("/notifications/").content.decode())
    assert "just now" in notices and "0 minutes" not in notices
    Notification.objects.filter(user=alice).update(created_at=timezone.now() - timedelta(minutes=3))
    assert "3 minutes ago" in _text(client.get("/notifications/").content.decode())
