"""Tasks on the filings registry: search, long documents, visually hidden values."""

from __future__ import annotations

from ...plan import fmt_number
from ...spec import (
    Answer,
    Click,
    Fill,
    FindText,
    Read,
    ReadText,
    Select,
    Shown,
    Step,
    SuiteTask,
    TextHas,
    UrlHas,
    ValueIs,
)
from ..base import long_date
from ..taskkit import NUM, UrlFor, task
from .data import ANNUAL, ENVIRONMENTAL, FilingsData

SITE = "filings"


def _search(company: str, field: str = "company-search") -> Fill:
    return Fill(field, company, until=TextHas("result-title", company))


def _open(data: FilingsData, company: str, year: int, kind: str = ANNUAL) -> Click:
    return Click(f"doc-{data.find(company, kind, year).doc_id}",
                 until=TextHas("doc-title", f"{company} — {kind} {year}"))


def _find(label: str, target: str, into: str) -> list[Step]:
    return [FindText(label, until=Shown(target)), Read(target, into, NUM)]


def filings_tasks(data: FilingsData, url: UrlFor) -> list[SuiteTask]:
    home = url("/")
    facts = data.facts
    out = [
        task("filings-capacity", site=SITE, kind="document_extraction", url=home,
             instruction="""According to Corven Energy's 2023 annual report on the Fovea Filings
             Registry, what was the company's total installed capacity, in MW?""",
             answer=fmt_number(facts("Corven Energy", 2023).capacity_mw), answer_type="number",
             steps=[_search("Corven Energy"), _open(data, "Corven Energy", 2023),
                    *_find("Total installed capacity", "fact-capacity", "v")],
             compute=Answer("number", ("v",)), tags=("long_document", "find_text")),
        task("filings-employees", site=SITE, kind="document_extraction", url=home,
             instruction="""According to Garrow Wind's 2024 annual report on the Fovea Filings
             Registry, how many employees did the company have at year end?""",
             answer=fmt_number(facts("Garrow Wind", 2024).employees), answer_type="number",
             steps=[_search("Garrow Wind"), _open(data, "Garrow Wind", 2024),
                    *_find("Employees at year end", "fact-employees", "v")],
             compute=Answer("number", ("v",)), tags=("long_document", "find_text")),
        task("filings-rating", site=SITE, kind="document_extraction", url=home,
             instruction="""What climate risk rating, out of 5, does Dalesford Renewables' 2024
             annual report on the Fovea Filings Registry give?""",
             answer=str(facts("Dalesford Renewables", 2024).climate_rating),
             answer_type="number",
             steps=[_search("Dalesford Renewables"), _open(data, "Dalesford Renewables", 2024),
                    ReadText("Climate risk rating", "v",
                             r"rating:\s*(?P<value>\d) out of 5")],
             compute=Answer("number", ("v",)), tags=("icon_font", "read_text")),
        task("filings-audit-fee", site=SITE, kind="document_extraction", url=home,
             instruction="""According to Hollins Gas's 2022 annual report on the Fovea Filings
             Registry, what was the audit fee for the year, in thousands of pounds?""",
             answer=str(facts("Hollins Gas", 2022).audit_fee_k), answer_type="number",
             steps=[_search("Hollins Gas"), _open(data, "Hollins Gas", 2022),
                    ReadText("Audit fee for the year", "v", r"£(?P<value>[\d,]+)k")],
             compute=Answer("number", ("v",)), tags=("visually_hidden", "read_text")),
    ]
    return out + _more_tasks(data, url)


def _more_tasks(data: FilingsData, url: UrlFor) -> list[SuiteTask]:
    home = url("/")
    env = data.find("Brightwater Utilities", ENVIRONMENTAL, 2022)
    count = len(data.of_company("Aldenmoor Power plc"))
    cap = {y: data.facts("Elmstead Grid", y).capacity_mw for y in (2022, 2023)}
    staff = {c: data.facts(c, 2024).employees for c in ("Fenwick Hydro", "Ivybridge Solar")}
    return [
        task("filings-date", site=SITE, kind="form_interaction", url=home,
             instruction="""On the Fovea Filings Registry, on what date did Brightwater Utilities
             file its environmental disclosure for 2022?""",
             answer=long_date(env.filed), answer_type="date",
             steps=[Fill("company-search", "Brightwater Utilities", submit=False,
                         until=ValueIs("company-search", "Brightwater Utilities")),
                    Select("type-filter", ENVIRONMENTAL),
                    Click("search-submit", until=UrlHas("/search")),
                    Read(f"filed-{env.doc_id}", "d")],
             compute=Answer("text", ("d",)), tags=("native_select",)),
        task("filings-count", site=SITE, kind="complete_data_retrieval", url=home,
             instruction="""How many filings in total has Aldenmoor Power plc made on the Fovea
             Filings Registry?""",
             answer=str(count), answer_type="number",
             steps=[_search("Aldenmoor Power plc"),
                    Read("result-count", "n", r"(?P<value>\d+) filings")],
             compute=Answer("number", ("n",))),
        task("filings-capacity-change", site=SITE, kind="multi_source_comparison", url=home,
             instruction="""On the Fovea Filings Registry, by how many MW did Elmstead Grid's
             total installed capacity change between its 2022 and 2023 annual reports? Give
             the 2023 figure minus the 2022 figure.""",
             answer=fmt_number(cap[2023] - cap[2022]), answer_type="number",
             steps=[_search("Elmstead Grid"), _open(data, "Elmstead Grid", 2022),
                    *_find("Total installed capacity", "fact-capacity", "y2022"),
                    Click("company-filings", until=UrlHas("/search")),
                    _open(data, "Elmstead Grid", 2023),
                    *_find("Total installed capacity", "fact-capacity", "y2023")],
             compute=Answer("difference", ("y2023", "y2022")),
             tags=("long_document", "find_text")),
        task("filings-employees-compare", site=SITE, kind="multi_source_comparison", url=home,
             instruction="""According to their 2024 annual reports on the Fovea Filings
             Registry, which company had more employees at year end: Fenwick Hydro or
             Ivybridge Solar?""",
             answer=max(staff, key=lambda c: staff[c]), answer_type="text",
             steps=[_search("Fenwick Hydro"), _open(data, "Fenwick Hydro", 2024),
                    *_find("Employees at year end", "fact-employees", "Fenwick Hydro"),
                    _search("Ivybridge Solar", "header-search"),
                    _open(data, "Ivybridge Solar", 2024),
                    *_find("Employees at year end", "fact-employees", "Ivybridge Solar")],
             compute=Answer("max_label", ("Fenwick Hydro", "Ivybridge Solar")),
             tags=("long_document", "find_text")),
    ]
