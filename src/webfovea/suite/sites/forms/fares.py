"""Fovea Rail fares: a pure function of the seed and the journey, used by pages and tasks."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from ..base import slug

STATIONS = ("Ashford Vale", "Brindle Cross", "Caster Bay", "Dunmore Central",
            "Eastwick Junction", "Fallowfield", "Greyhaven", "Holt Parkway", "Ingleby",
            "Juniper Hill")
DEPARTURES = ("06:15", "07:40", "08:55", "11:20", "14:05", "16:30", "17:45", "19:10")
PEAK = ("07:40", "08:55", "16:30", "17:45")
CLASSES = {"standard": ("Standard", 1.0), "first": ("First", 1.75)}
RAILCARDS = {"none": ("No railcard", 1.0), "16-25": ("16-25 Railcard", 2 / 3),
             "senior": ("Senior Railcard", 2 / 3)}
TODAY = dt.date(2025, 3, 10)  # the site's "today": the date picker opens on March 2025


@dataclass(frozen=True)
class Departure:
    time: str
    arrive: str
    minutes: int
    changes: int
    fare: float


def station_by_slug(value: str) -> str | None:
    return next((s for s in STATIONS if slug(s) == value or s.lower() == value.lower()), None)


def journey(seed: int, origin: str, destination: str, day: dt.date, ticket: str,
            railcard: str) -> list[Departure]:
    """Departures with fares in pounds (rounded to 5p) for one search."""
    pair = random.Random(f"{seed}:forms:pair:{'|'.join(sorted((origin, destination)))}")
    minutes, base = pair.randint(35, 190), pair.uniform(9.0, 58.0)
    factor = CLASSES[ticket][1] * RAILCARDS[railcard][1] * (0.85 if day.weekday() >= 5 else 1.0)
    out = []
    for time in DEPARTURES:
        rng = random.Random(f"{seed}:forms:fare:{origin}:{destination}:{day}:{time}")
        fare = base * factor * (1.35 if time in PEAK else 1.0) * rng.uniform(0.85, 1.2)
        hours, mins = (int(p) for p in time.split(":"))
        arrive = (hours * 60 + mins + minutes + rng.choice((0, 0, 12))) % (24 * 60)
        out.append(Departure(time, f"{arrive // 60:02d}:{arrive % 60:02d}", minutes,
                             pair.randint(0, 2) if minutes > 90 else 0,
                             round(fare * 20) / 20))
    return out
