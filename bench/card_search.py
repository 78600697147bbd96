"""Card search latency on a card database of 10,000 cards (PostgreSQL).

Builds its own database `grailsite_bench_cards` (dropped and recreated), loads the starter
set through the migrations, fills up to --cards with seeded variants of the starter cards
(new codes and titles, shuffled numbers and rarities), then times each query of the search
syntax two ways: the selector alone (parse + SQL + rows) and the JSON endpoint the deck
builder calls (through Django's test client, no network). Prints p50/p95/max per query.

    .venv/bin/python bench/card_search.py                 # 10,000 cards, 50 runs per query
    .venv/bin/python bench/card_search.py --cards 20000 --runs 100
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DB_NAME = "grailsite_bench_cards"

QUERIES = [
    "",
    "t:knight",
    't:knight c>=5 g<=3 "chicken"',
    "c>=5 w>=3",
    "robin",
    '"holy hand"',
    "r:rare -t:page g:7",
    "tag:arthur",
    "is:generic t:land",
    "zzz-no-such-card",
]


def prepare(cards: int) -> None:
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB_NAME}"], check=True)
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {DB_NAME}"], check=True)
    env = dict(os.environ, DATABASE_URL=f"{PG}/{DB_NAME}", DJANGO_DEBUG="false", LOG_LEVEL="ERROR",
               SECRET_KEY="bench-only", DB_CONN_MAX_AGE="60")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "grailsite.settings"
    import django
    django.setup()
    fill(cards)


def fill(target: int) -> None:
    from decks import cardformat, loader
    from decks.models import Card

    rng = random.Random(2026)
    base = [cardformat.normalize(c) for c in cardformat.starter_set()]
    rows, n = [], Card.objects.count()
    while n + len(rows) < target:
        card = dict(rng.choice(base))
        i = n + len(rows)
        card["code"] = f"{card['code']}-v{i}"
        card["title"] = f"{card['title']} {rng.choice(['the Lesser', 'the Elder', 'of Swamp', 'Mk', 'Jr'])} {i}"
        card["grail"] = rng.randint(0, 7)
        for stat in ("combat", "wits"):
            if card[stat] is not None:
                card[stat] = max(0, min(12, card[stat] + rng.randint(-2, 2)))
        card["rarity"] = rng.choice(["common", "common", "uncommon", "rare"])
        card["set"] = rng.choice(["base", "bench1", "bench2"])
        card["tags"] = [t for t in card["tags"] if t not in ("arthur", "patsy")]
        rows.append(Card(**loader.row_values(card)))
    Card.objects.bulk_create(rows, batch_size=1000)
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def timed(fn, runs: int) -> list[float]:
    fn()  # warm up (connection, query plans, caches)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return f"{statistics.median(times):7.2f} {p95:7.2f} {times[-1]:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    prepare(args.cards)

    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save
    from django.test import Client
    from django.conf import settings

    from decks import selectors
    from decks.models import Card

    post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    user = get_user_model().objects.create_user("bencher", password="bench-password-1")
    client = Client()
    client.force_login(user)
    print(f"card search on {Card.objects.count():,} cards, {args.runs} runs per query (milliseconds)")
    print(f"{'query':34} {'matches':>7}  {'selector p50/p95/max':>23}  {'JSON API p50/p95/max':>23}")
    for text in QUERIES:
        _, total, _ = selectors.card_search(text=text, user=user)
        sel = timed(lambda: selectors.card_search(text=text, user=user), args.runs)
        api = timed(lambda: client.get("/decks/api/cards/", {"q": text}), args.runs)
        print(f"{text or '(everything)':34} {total:7}  {summary(sel)}  {summary(api)}")


if __name__ == "__main__":
    main()
