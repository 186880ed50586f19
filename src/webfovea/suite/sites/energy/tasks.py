"""Tasks on the embedded canvas dashboard: legend clicks, year buttons and hover tooltips."""

from __future__ import annotations

from ...plan import fmt_number
from ...spec import Answer, Click, Hover, Read, Step, SuiteTask, TextHas
from ..base import MONTHS
from ..taskkit import UrlFor, task
from .data import SOURCES, EnergyData

SITE = "energy"
LABELS = {key: label for key, label, *_rest in SOURCES}
# "Solar · March 2024: 1,234 GWh" -> label March, value 1,234
TIP = r"· (?P<label>[A-Z][a-z]+) \d{4}: (?P<value>[\d,]+) GWh"
TIP_VALUE = r"\d{4}: (?P<value>[\d,]+) GWh"


def _view(source: str, year: int) -> list[Step]:
    return [Click(f"legend-{source}", until=TextHas("dash-title", LABELS[source])),
            Click(f"dash-year-{year}", until=TextHas("dash-title", str(year)))]


def _hover_read(source: str, year: int, month: str, into: str, *,
                pattern: str = TIP) -> list[Step]:
    mon = month[:3].lower()
    return [Hover(f"dash-bar-{mon}", until=TextHas("dash-tooltip",
                                                   f"{LABELS[source]} · {month} {year}")),
            Read("dash-tooltip", into, pattern)]


def _all_months(source: str, year: int) -> list[Step]:
    return [s for m in MONTHS for s in _hover_read(source, year, m, m)]


def energy_tasks(data: EnergyData, url: UrlFor) -> list[SuiteTask]:
    home = url("/")
    tags = ("iframe", "canvas", "hover")
    hydro = dict(zip(MONTHS, data.generation[("hydro", 2024)], strict=True))
    solar = dict(zip(MONTHS, data.generation[("solar", 2023)], strict=True))
    july = {str(y): data.value("solar", y, "July") for y in (2023, 2024)}
    return [
        task("energy-value", site=SITE, kind="chart_analysis", url=home, tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, how much
             electricity did solar generate in June 2023, in GWh?""",
             answer=fmt_number(data.value("solar", 2023, "June")), answer_type="number",
             steps=[*_view("solar", 2023), *_hover_read("solar", 2023, "June", "v")],
             compute=Answer("number", ("v",))),
        task("energy-max", site=SITE, kind="chart_analysis", url=home, tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, in which
             month of 2024 was hydro generation highest?""",
             answer=max(MONTHS, key=lambda m: hydro[m]), answer_type="text",
             steps=[*_view("hydro", 2024), *_all_months("hydro", 2024)],
             compute=Answer("max_label", MONTHS)),
        task("energy-min", site=SITE, kind="chart_analysis", url=home, tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, in which
             month of 2023 was solar generation lowest?""",
             answer=min(MONTHS, key=lambda m: solar[m]), answer_type="text",
             steps=[*_view("solar", 2023), *_all_months("solar", 2023)],
             compute=Answer("min_label", MONTHS)),
        task("energy-difference", site=SITE, kind="multi_source_comparison", url=home,
             tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, how many
             more GWh did gas generate than wind in September 2024? Give gas minus wind.""",
             answer=fmt_number(data.value("gas", 2024, "September")
                               - data.value("wind", 2024, "September")),
             answer_type="number",
             steps=[*_view("gas", 2024), *_hover_read("gas", 2024, "September", "gas"),
                    *_view("wind", 2024), *_hover_read("wind", 2024, "September", "wind")],
             compute=Answer("difference", ("gas", "wind"))),
        task("energy-total", site=SITE, kind="complete_data_retrieval", url=home, tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, what was
             the total wind generation over all twelve months of 2023, in GWh?""",
             answer=fmt_number(sum(data.generation[("wind", 2023)])), answer_type="number",
             steps=[*_view("wind", 2023), *_all_months("wind", 2023)],
             compute=Answer("sum", MONTHS)),
        task("energy-compare-years", site=SITE, kind="multi_source_comparison", url=home,
             tags=tags,
             instruction="""On the Fovea Energy Observatory's generation dashboard, was solar
             generation in July higher in 2023 or in 2024? Answer with the year.""",
             answer=max(july, key=lambda y: july[y]), answer_type="text",
             steps=[*_view("solar", 2023), *_hover_read("solar", 2023, "July", "2023", pattern=TIP_VALUE),
                    Click("dash-year-2024", until=TextHas("dash-title", "2024")),
                    *_hover_read("solar", 2024, "July", "2024", pattern=TIP_VALUE)],
             compute=Answer("max_label", ("2023", "2024"))),
    ]
