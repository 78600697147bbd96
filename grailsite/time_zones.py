"""The time zones a person may choose, and the one their pages show moments in.

The list is one zone per place, as the IANA database's own location table has it
(``zone.tab``, read from the tzdata package): "Paris (UTC+1)", grouped by region, and UTC.
The database's other names are old spellings and aliases of those places ("Zulu", "W-SU",
"Asia/Calcutta", "US/Eastern"); a browser may still report one, and a zone stored before the
list was curated may be one, so ``canonical`` maps each to the place it links to.

A signed-in person's chosen zone rides in their session (``SESSION_KEY``: put there when they
log in and when they save it), so a page can say it (``templates/base.html``'s
``data-time-zone``, read by static/js/clocks.js) without a statement of its own."""
from __future__ import annotations

import functools
from datetime import date, datetime, timezone as dt_timezone
from importlib import resources
from zoneinfo import ZoneInfo

UTC = "UTC"
SESSION_KEY = "time_zone"
# The database's names for UTC itself (and for GMT, which has the same offset all year).
_UTC_NAMES = {"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
              "Etc/Greenwich", "UTC"}


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[frozenset[str], dict[str, str]]:
    """(the zones of the location table, {alias: the zone it links to})."""
    data = resources.files("tzdata.zoneinfo")
    places = frozenset(line.split("\t")[2] for line in (data / "zone.tab").read_text().splitlines()
                       if line and not line.startswith("#"))
    links = {}
    for line in (data / "tzdata.zi").read_text().splitlines():
        if line.startswith("L "):
            _, target, alias = line.split()
            links[alias] = target
    return places, links


def canonical(name: str | None) -> str | None:
    """The zone of the list that ``name`` stands for: itself, the place an alias links to,
    UTC for UTC's many names; None for a name that is no place (or nothing)."""
    places, links = _tables()
    name = (name or "").strip()
    for _ in range(3):  # a link names a zone, not another link; a little slack all the same
        if name not in links:
            break
        name = links[name]
    if name in _UTC_NAMES:
        return UTC
    return name if name in places else None


def offset_words(zone: ZoneInfo, when: datetime) -> str:
    """"UTC+1", "UTC-3", "UTC+5:30": the zone's offset at ``when``."""
    minutes = int(when.astimezone(zone).utcoffset().total_seconds() // 60)
    sign, minutes = ("+" if minutes >= 0 else "-"), abs(minutes)
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")


def _label(name: str, when: datetime) -> str:
    parts = [p.replace("_", " ") for p in name.split("/")[1:]]
    place = parts[-1] + (f", {parts[0]}" if len(parts) > 1 else "")
    return f"{place} ({offset_words(ZoneInfo(name), when)})"


@functools.lru_cache(maxsize=2)
def choices_on(day: date) -> list:
    """The choices of a zone field on ``day`` (offsets change with summer time): UTC first,
    then each region's places by name, as (region, [(zone, "Place (UTC+n)"), ...])."""
    when = datetime(day.year, day.month, day.day, 12, tzinfo=dt_timezone.utc)
    regions: dict[str, list[tuple[str, str]]] = {}
    for name in _tables()[0]:
        regions.setdefault(name.split("/")[0], []).append((name, _label(name, when)))
    return [(UTC, "UTC (UTC+0)")] + [(region, sorted(zones, key=lambda z: z[1]))
                                     for region, zones in sorted(regions.items())]


def choices() -> list:
    return choices_on(datetime.now(dt_timezone.utc).date())
