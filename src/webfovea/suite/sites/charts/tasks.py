"""Chart-analysis tasks on the SVG chart site: every value must come from a hover tooltip."""

from __future__ import annotations

from ...plan import fmt_number
from ...spec import Answer, Click, Hover, Read, Step, SuiteTask, TextHas
from ..base import slug
from ..taskkit import UrlFor, task
from .data import INDICATORS, YEARS, ChartsData

SITE = "charts"
# "2017: 1,234.5 Mt" -> label 2017, value 1,234.5
TIP = r"(?P<label>\d{4}): (?P<value>-?[\d,]+(?:\.\d+)?)"
TIP_VALUE = r"\d{4}: (?P<value>-?[\d,]+(?:\.\d+)?)"


def _country(country: str) -> Click:
    return Click(f"country-{slug(country)}", until=TextHas("chart-title", country))


def _hover_read(indicator: str, year: int, into: str, *, pattern: str = TIP) -> list[Step]:
    mark = "bar" if INDICATORS[indicator].mark == "bar" else "point"
    return [Hover(f"{mark}-{year}", until=TextHas("chart-tooltip", f"{year}:")),
            Read("chart-tooltip", into, pattern)]


def _chart_url(url: UrlFor, indicator: str) -> str:
    return url(f"/chart/{indicator}")


def charts_tasks(data: ChartsData, url: UrlFor) -> list[SuiteTask]:
    co2 = "co2-emissions"
    out = [task(
        "charts-value", site=SITE, kind="chart_analysis",
        instruction="""On Fovea Charts, what were Brevia's annual CO₂ emissions in 2017, in
        million tonnes?""",
        url=url("/"), answer=fmt_number(data.value(co2, "Brevia", 2017), 1), answer_type="number",
        steps=[Click(f"chart-link-{co2}", until=TextHas("chart-title", "CO₂")),
               _country("Brevia"), *_hover_read(co2, 2017, "v")],
        compute=Answer("number", ("v",), decimals=1), tags=("svg", "hover"))]
    caltoria = data.series[(co2, "Caltoria")]
    out.append(task(
        "charts-max", site=SITE, kind="chart_analysis",
        instruction="""According to Fovea Charts, in which year from 2010 to 2024 were
        Caltoria's annual CO₂ emissions highest?""",
        url=_chart_url(url, co2), answer=str(max(YEARS, key=lambda y: caltoria[y])),
        answer_type="text",
        steps=[_country("Caltoria"), *[s for y in YEARS for s in _hover_read(co2, y, str(y))]],
        compute=Answer("max_label", tuple(str(y) for y in YEARS)), tags=("svg", "hover")))
    out.append(task(
        "charts-difference", site=SITE, kind="chart_analysis",
        instruction="""According to Fovea Charts, by how many million tonnes did Dunmark's annual
        CO₂ emissions change from 2012 to 2020? Give the 2020 value minus the 2012 value.""",
        url=_chart_url(url, co2),
        answer=fmt_number(data.value(co2, "Dunmark", 2020) - data.value(co2, "Dunmark", 2012), 1),
        answer_type="number",
        steps=[_country("Dunmark"), *_hover_read(co2, 2020, "late"),
               *_hover_read(co2, 2012, "early")],
        compute=Answer("difference", ("late", "early"), decimals=1), tags=("svg", "hover")))
    out.append(_sum_task(data, url))
    out += _line_tasks(data, url)
    return out


def _sum_task(data: ChartsData, url: UrlFor) -> SuiteTask:
    co2, years = "co2-emissions", range(2020, 2025)
    return task(
        "charts-sum", site=SITE, kind="complete_data_retrieval",
        instruction="""According to Fovea Charts, what were Aldoria's total CO₂ emissions over
        the five years 2020–2024 combined, in million tonnes?""",
        url=_chart_url(url, co2),
        answer=fmt_number(sum(data.value(co2, "Aldoria", y) for y in years), 1),
        answer_type="number",
        steps=[_country("Aldoria"), *[s for y in years for s in _hover_read(co2, y, str(y))]],
        compute=Answer("sum", tuple(str(y) for y in years), decimals=1), tags=("svg", "hover"))


def _line_tasks(data: ChartsData, url: UrlFor) -> list[SuiteTask]:
    ren, unemp = "renewable-share", "unemployment"
    first, last = data.value(ren, "Aldoria", 2015), data.value(ren, "Aldoria", 2023)
    estavia = data.series[(unemp, "Estavia")]
    compare = {c: data.value(ren, c, 2021) for c in ("Brevia", "Estavia")}
    return [
        task("charts-trend", site=SITE, kind="chart_analysis",
             instruction="""According to Fovea Charts, did Aldoria's share of electricity from
             renewables increase or decrease between 2015 and 2023? Answer "increased" or
             "decreased".""",
             url=_chart_url(url, ren), answer="increased" if last > first else "decreased",
             answer_type="text",
             steps=[_country("Aldoria"), *_hover_read(ren, 2015, "a"),
                    *_hover_read(ren, 2023, "b")],
             compute=Answer("trend", ("a", "b"), match="increased|decreased"),
             tags=("svg", "hover", "line")),
        task("charts-min", site=SITE, kind="chart_analysis",
             instruction="""According to Fovea Charts, in which year from 2010 to 2024 was
             Estavia's unemployment rate lowest?""",
             url=url("/"), answer=str(min(YEARS, key=lambda y: estavia[y])), answer_type="text",
             steps=[Click(f"chart-link-{unemp}", until=TextHas("chart-title", "Unemployment")),
                    _country("Estavia"),
                    *[s for y in YEARS for s in _hover_read(unemp, y, str(y))]],
             compute=Answer("min_label", tuple(str(y) for y in YEARS)),
             tags=("svg", "hover", "line")),
        task("charts-compare", site=SITE, kind="multi_source_comparison",
             instruction="""According to Fovea Charts, which country had the higher share of
             electricity from renewables in 2021: Brevia or Estavia?""",
             url=_chart_url(url, ren), answer=max(compare, key=lambda c: compare[c]),
             answer_type="text",
             steps=[_country("Brevia"), *_hover_read(ren, 2021, "Brevia", pattern=TIP_VALUE),
                    _country("Estavia"), *_hover_read(ren, 2021, "Estavia", pattern=TIP_VALUE)],
             compute=Answer("max_label", ("Brevia", "Estavia")), tags=("svg", "hover", "line")),
    ]
