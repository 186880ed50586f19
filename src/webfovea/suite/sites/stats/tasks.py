"""Tasks on the statistical portal. Wording is fixed; answers come from the seeded data."""

from __future__ import annotations

from ...plan import fmt_number
from ...spec import Answer, Click, Fill, Read, Select, Step, SuiteTask, TextHas, UrlHas
from ..base import long_date
from ..taskkit import NUM, UrlFor, read_numbers, task
from .data import REGIONS, YEARS, StatsData, cell_id

SITE = "stats"


def _search(commodity: str) -> Fill:
    return Fill("search-box", commodity, until=TextHas("result-count", f"“{commodity}”"))


def _open(code: str) -> Click:
    return Click(f"table-{code}", until=UrlHas(f"/table/{code}"))


def _single_cell(data: StatsData, url: UrlFor, task_id: str, *, code: str, region: str,
                 commodity: str, year: int, instruction: str) -> SuiteTask:
    row = data.row(region, commodity, year)
    value = row.production if code == "AGR01" else row.area
    steps: list[Step] = [_open(code), Select("region-filter", region),
                         Select("year-filter", str(year)), _search(commodity),
                         Read(cell_id(region, commodity, year), "v", NUM)]
    return task(task_id, site=SITE, kind="form_interaction", instruction=instruction,
                url=url("/"), answer=fmt_number(value), answer_type="number", steps=steps,
                compute=Answer("number", ("v",)), tags=("native_select", "search_enter"))


def _decade(region: str, commodity: str) -> list[Step]:
    """Filter to one region and commodity, then read all ten years over two pages."""
    first = {str(y): cell_id(region, commodity, y) for y in YEARS[:8]}
    rest = {str(y): cell_id(region, commodity, y) for y in YEARS[8:]}
    return [Select("region-filter", region), _search(commodity), *read_numbers(first),
            Click("page-2", until=TextHas("result-count", "Showing 9")), *read_numbers(rest)]


def stats_tasks(data: StatsData, url: UrlFor) -> list[SuiteTask]:
    tasks = [
        _single_cell(data, url, "stats-production-cell", code="AGR01", region="Eastern",
                     commodity="Barley", year=2019, instruction="""On the Fovea Statistics
                     Office website, use table AGR01 (crop production by region) to find how
                     many tonnes of barley the Eastern region produced in 2019."""),
        _single_cell(data, url, "stats-area-cell", code="AGR02", region="Southern",
                     commodity="Soybeans", year=2024, instruction="""According to table AGR02
                     on the Fovea Statistics Office website, how many hectares of soybeans
                     were harvested in the Southern region in 2024?"""),
    ]
    maize = {r: cell_id(r, "Maize", 2022) for r in REGIONS}
    tasks.append(task(
        "stats-total-year", site=SITE, kind="complete_data_retrieval",
        instruction="""Using table AGR01 on the Fovea Statistics Office website, what was the
        total maize production of all eight regions combined in 2022, in tonnes?""",
        url=url("/table/AGR01"),
        answer=fmt_number(sum(data.row(r, "Maize", 2022).production for r in REGIONS)),
        answer_type="number",
        steps=[Select("year-filter", "2022"), _search("Maize"), *read_numbers(maize)],
        compute=Answer("sum", tuple(maize)), tags=("native_select", "search_enter")))
    rye = [data.row("Western", "Rye", y).production for y in YEARS]
    tasks.append(task(
        "stats-total-decade", site=SITE, kind="complete_data_retrieval",
        instruction="""Using table AGR01 on the Fovea Statistics Office website, what was the
        Western region's total rye production over the ten years 2015–2024, in tonnes?""",
        url=url("/table/AGR01"), answer=fmt_number(sum(rye)), answer_type="number",
        steps=_decade("Western", "Rye"), compute=Answer("sum", tuple(str(y) for y in YEARS)),
        tags=("pagination",)))
    potatoes = {y: data.row("Highlands", "Potatoes", y).production for y in YEARS}
    tasks.append(task(
        "stats-peak-year", site=SITE, kind="complete_data_retrieval",
        instruction="""Using table AGR01 on the Fovea Statistics Office website, in which year
        from 2015 to 2024 did the Highlands region produce the most potatoes?""",
        url=url("/table/AGR01"), answer=str(max(potatoes, key=lambda y: potatoes[y])),
        answer_type="text", steps=_decade("Highlands", "Potatoes"),
        compute=Answer("max_label", tuple(str(y) for y in YEARS)), tags=("pagination",)))
    tasks += [_yield_task(data, url), _compare_task(data, url), _release_task(data, url)]
    return tasks


def _yield_task(data: StatsData, url: UrlFor) -> SuiteTask:
    row = data.row("Central", "Wheat", 2021)
    steps: list[Step] = [
        _open("AGR01"), Select("region-filter", "Central"), Select("year-filter", "2021"),
        _search("Wheat"), Read(cell_id("Central", "Wheat", 2021), "production", NUM),
        Click("related-AGR02", until=UrlHas("/table/AGR02")),
        Read(cell_id("Central", "Wheat", 2021), "area", NUM)]
    return task(
        "stats-yield", site=SITE, kind="multi_source_comparison",
        instruction="""On the Fovea Statistics Office website, what was the wheat yield of the
        Central region in 2021, in tonnes per hectare, computed as its production in table
        AGR01 divided by its area harvested in table AGR02? Round to two decimals.""",
        url=url("/"), answer=fmt_number(row.production / row.area, 2), answer_type="number",
        steps=steps, compute=Answer("ratio", ("production", "area"), decimals=2),
        tags=("native_select", "two_tables"))


def _compare_task(data: StatsData, url: UrlFor) -> SuiteTask:
    areas = {r: data.row(r, "Rapeseed", 2018).area for r in ("Northern", "Islands")}
    cells = {r: cell_id(r, "Rapeseed", 2018) for r in areas}
    return task(
        "stats-compare-area", site=SITE, kind="multi_source_comparison",
        instruction="""According to table AGR02 on the Fovea Statistics Office website, which
        region harvested the larger area of rapeseed in 2018: Northern or Islands?""",
        url=url("/table/AGR02"), answer=max(areas, key=lambda r: areas[r]), answer_type="text",
        steps=[Select("year-filter", "2018"), _search("Rapeseed"), *read_numbers(cells)],
        compute=Answer("max_label", tuple(cells)), tags=("native_select",))


def _release_task(data: StatsData, url: UrlFor) -> SuiteTask:
    release = next(r for r in data.releases if r.code == "AGR02")
    return task(
        "stats-release-date", site=SITE, kind="document_extraction",
        instruction="""On the Fovea Statistics Office website, on what date is the next
        release of table AGR02 (area harvested by region) scheduled?""",
        url=url("/"), answer=long_date(release.date), answer_type="date",
        steps=[Click("nav-calendar", until=UrlHas("/calendar")),
               Read("release-AGR02", "date")],
        compute=Answer("text", ("date",)))
