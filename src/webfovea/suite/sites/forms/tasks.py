"""Tasks on the journey planner: every field is a custom widget; results open in a new tab."""

from __future__ import annotations

import datetime as dt

from ...plan import fmt_number
from ...spec import Answer, Click, Fill, Present, Read, Step, SuiteTask, TextHas, UrlHas, ValueIs
from ..base import MONTHS, long_date, slug
from ..taskkit import UrlFor, task
from .fares import RAILCARDS, TODAY, journey

SITE = "forms"
PRICE = r"£(?P<value>\d+\.\d{2})"
TAGS = ("autocomplete", "date_picker", "custom_dropdown", "new_tab")


def _station(field: str, station: str) -> list[Step]:
    option = f"ac-{field}-{slug(station)}"
    return [Fill(f"{field}-input", station[:4], submit=False, until=Present(option)),
            Click(option, until=ValueIs(f"{field}-input", station))]


def _pretty(day: dt.date) -> str:
    return f"{day:%a} {day.day} {day:%b} {day.year}"


def _date(day: dt.date, shown_month: dt.date = TODAY) -> list[Step]:
    steps: list[Step] = [Click("date-input", until=Present("dp-month"))]
    months_ahead = (day.year - shown_month.year) * 12 + day.month - shown_month.month
    for n in range(1, months_ahead + 1):
        month = (shown_month.month - 1 + n) % 12
        year = shown_month.year + (shown_month.month - 1 + n) // 12
        steps.append(Click("dp-next", until=TextHas("dp-month", f"{MONTHS[month]} {year}")))
    steps.append(Click(f"dp-day-{day.day}", until=ValueIs("date-input", _pretty(day))))
    return steps


def _options(ticket: str, railcard: str) -> list[Step]:
    steps: list[Step] = []
    if ticket == "first":
        steps += [Click("class-dropdown", until=Present("class-opt-first")),
                  Click("class-opt-first", until=TextHas("class-dropdown", "First"))]
    if railcard != "none":
        label = RAILCARDS[railcard][0]
        steps += [Click("railcard-dropdown", until=Present(f"railcard-opt-{railcard}")),
                  Click(f"railcard-opt-{railcard}", until=TextHas("railcard-dropdown", label))]
    return steps


def _search(origin: str, dest: str, day: dt.date, ticket: str, railcard: str) -> list[Step]:
    return [*_station("from", origin), *_station("to", dest), *_date(day),
            *_options(ticket, railcard), Click("find-fares", until=UrlHas("/fares"))]


def forms_tasks(seed: int, url: UrlFor) -> list[SuiteTask]:
    home = url("/")

    def cheapest(origin: str, dest: str, day: dt.date, ticket: str, card: str) -> float:
        return min(d.fare for d in journey(seed, origin, dest, day, ticket, card))

    apr14, may2, mar21 = dt.date(2025, 4, 14), dt.date(2025, 5, 2), dt.date(2025, 3, 21)
    evening = next(d.fare for d in journey(seed, "Brindle Cross", "Ingleby", mar21, "standard",
                                           "16-25") if d.time == "17:45")
    return [
        task("forms-cheapest", site=SITE, kind="form_interaction", url=home, tags=TAGS,
             instruction="""Using the Fovea Rail journey planner, what is the cheapest Standard
             class fare from Ashford Vale to Dunmore Central on 14 April 2025, without a
             railcard? Give the price in pounds.""",
             answer=fmt_number(cheapest("Ashford Vale", "Dunmore Central", apr14, "standard",
                                        "none"), 2), answer_type="number",
             steps=[*_search("Ashford Vale", "Dunmore Central", apr14, "standard", "none"),
                    Read("cheapest-fare", "v", PRICE)],
             compute=Answer("number", ("v",), decimals=2)),
        task("forms-first-senior", site=SITE, kind="form_interaction", url=home, tags=TAGS,
             instruction="""Using the Fovea Rail journey planner, what is the cheapest First
             class fare from Greyhaven to Caster Bay on 2 May 2025 with a Senior Railcard? Give
             the price in pounds.""",
             answer=fmt_number(cheapest("Greyhaven", "Caster Bay", may2, "first", "senior"), 2),
             answer_type="number",
             steps=[*_search("Greyhaven", "Caster Bay", may2, "first", "senior"),
                    Read("cheapest-fare", "v", PRICE)],
             compute=Answer("number", ("v",), decimals=2)),
        task("forms-departure", site=SITE, kind="form_interaction", url=home, tags=TAGS,
             instruction="""Using the Fovea Rail journey planner, what is the Standard class fare
             with a 16-25 Railcard for the 17:45 departure from Brindle Cross to Ingleby on 21
             March 2025? Give the price in pounds.""",
             answer=fmt_number(evening, 2), answer_type="number",
             steps=[*_search("Brindle Cross", "Ingleby", mar21, "standard", "16-25"),
                    Read("fare-1745", "v", PRICE)],
             compute=Answer("number", ("v",), decimals=2)),
        _compare_task(seed, url),
    ]


def _compare_task(seed: int, url: UrlFor) -> SuiteTask:
    sat, mon = dt.date(2025, 4, 5), dt.date(2025, 4, 7)
    fares = {long_date(d.isoformat()): min(x.fare for x in journey(
        seed, "Fallowfield", "Juniper Hill", d, "standard", "none")) for d in (sat, mon)}
    labels = tuple(fares)
    return task(
        "forms-compare-days", site=SITE, kind="multi_source_comparison", url=url("/"),
        tags=TAGS,
        instruction="""Using the Fovea Rail journey planner, is the cheapest Standard class fare
        from Fallowfield to Juniper Hill without a railcard lower on 5 April 2025 or on 7 April
        2025? Answer with the date.""",
        answer=min(fares, key=lambda d: fares[d]), answer_type="date",
        steps=[*_search("Fallowfield", "Juniper Hill", sat, "standard", "none"),
               Read("cheapest-fare", labels[0], PRICE),
               Click("change-journey", until=UrlHas("forms.fovea.test/?")),
               Click("date-input", until=Present("dp-month")),
               Click(f"dp-day-{mon.day}", until=ValueIs("date-input", _pretty(mon))),
               Click("find-fares", until=TextHas("journey-details", labels[1])),
               Read("cheapest-fare", labels[1], PRICE)],
        compute=Answer("min_label", labels))
