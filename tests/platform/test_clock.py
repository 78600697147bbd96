from datetime import datetime, timedelta, timezone

import pytest

from games.table import clock

UTC = timezone.utc


def test_days_clock_without_pauses():
    now = datetime(2026, 11, 18, 12, tzinfo=UTC)  # a Wednesday
    assert clock.deadline(now, "days", 3) == now + timedelta(days=3)


def test_untimed_games_have_no_deadline():
    assert clock.deadline(datetime(2026, 1, 1, tzinfo=UTC), "none", 0) is None


def test_weekend_pause_skips_saturday_and_sunday():
    friday_noon = datetime(2026, 11, 20, 12, tzinfo=UTC)
    # 1 day from Friday noon: 12 h of Friday, then the weekend, then 12 h of Monday.
    assert clock.deadline(friday_noon, "days", 1, weekend_pause=True) == datetime(2026, 11, 23, 12, tzinfo=UTC)


def test_weekend_pause_starting_on_a_weekend_counts_from_monday():
    saturday = datetime(2026, 11, 21, 15, tzinfo=UTC)
    assert clock.deadline(saturday, "hours", 2, weekend_pause=True) == datetime(2026, 11, 23, 2, tzinfo=UTC)


def test_vacation_pause_delays_the_start():
    now = datetime(2026, 11, 18, tzinfo=UTC)
    back = now + timedelta(days=5)
    assert clock.deadline(now, "days", 2, paused_until=back) == back + timedelta(days=2)


@pytest.mark.parametrize("kind,amount", [("days", 15), ("days", 0), ("minutes", 121), ("weeks", 1)])
def test_limits_are_enforced(kind, amount):
    with pytest.raises(ValueError):
        clock.validate(kind, amount)
