"""Fovea Daily: featured stories with seeded facts, and a seeded archive of headlines."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Story:
    slug: str
    headline: str
    standfirst: str
    fact: str  # the sentence holding the number a task asks for
    value: int


@dataclass(frozen=True)
class ArchiveItem:
    day: dt.date
    headline: str
    lead: bool  # the first story of its day


# slug, headline, standfirst, fact template, value range
FEATURED = (
    ("harbour-expansion", "Caster Bay harbour expansion approved",
     "Councillors back the largest port project in a generation.",
     "The expansion is expected to cost £{v:,} million over six years.", (40, 400)),
    ("library-visits", "Ingleby's rebuilt library draws record crowds",
     "Queues formed before the doors opened on Saturday.",
     "In its first week {v:,} visitors came through its doors.", (4_000, 30_000)),
    ("greyhaven-tram", "Greyhaven's new tram line carries its first passengers",
     "The eleven-stop line links the station with the university.",
     "In its first month the line carried {v:,} passengers, the transport authority said.",
     (30_000, 90_000)),
    ("bridge-repairs", "Old bridge at Holt Parkway to close for repairs",
     "Drivers are advised to use the bypass.",
     "The bridge will be closed for {v:,} days from next Monday.", (20, 160)),
    ("dunmore-marathon", "Record field for the Dunmore marathon",
     "Sunshine and a new course brought out the crowds.",
     "A total of {v:,} runners crossed the finish line.", (3_000, 15_000)),
)
LATEST = ("Council publishes new recycling timetable", "Rail works to disrupt weekend services",
          "Local bakery wins national award", "School term dates confirmed for next year",
          "Museum extends opening hours for the summer", "Storm warning issued for the coast")
PLACES = ("Greyhaven", "Caster Bay", "Ingleby", "Dunmore", "Holt Parkway", "Fallowfield",
          "Ashford Vale", "Juniper Hill")
THINGS = ("new cycle lanes", "a budget for road repairs", "plans for a swimming pool",
          "a late-night bus service", "a solar farm", "a new primary school",
          "flood defences", "a farmers' market", "a housing scheme", "a concert hall")
VERBS = ("approves", "rejects", "delays", "consults on", "celebrates", "funds")
ARCHIVE_START, ARCHIVE_END = dt.date(2025, 1, 1), dt.date(2025, 2, 28)
# The day a task asks about always has a story.
ASKED_DAY = dt.date(2025, 2, 12)


@dataclass(frozen=True)
class NewsData:
    featured: tuple[Story, ...]
    archive: tuple[ArchiveItem, ...]

    def story(self, slug: str) -> Story | None:
        return next((s for s in self.featured if s.slug == slug), None)

    def lead_on(self, day: dt.date) -> ArchiveItem:
        return next(i for i in self.archive if i.day == day and i.lead)

    def count_in(self, year: int, month: int) -> int:
        return sum(1 for i in self.archive if (i.day.year, i.day.month) == (year, month))


def generate(rng: random.Random) -> NewsData:
    featured = []
    for slug, headline, standfirst, template, (low, high) in FEATURED:
        value = rng.randint(low, high)
        featured.append(Story(slug, headline, standfirst, template.format(v=value), value))
    archive = []
    day = ARCHIVE_START
    while day <= ARCHIVE_END:
        count = max(rng.choice((0, 1, 1, 1, 2)), 1 if day == ASKED_DAY else 0)
        for n in range(count):
            headline = (f"{rng.choice(PLACES)} council {rng.choice(VERBS)} "
                        f"{rng.choice(THINGS)}")
            archive.append(ArchiveItem(day, headline, n == 0))
        day += dt.timedelta(days=1)
    return NewsData(tuple(featured), tuple(archive))
