"""Tasks on the rankings table: banner first, then sorting, loading more, reading rows."""

from __future__ import annotations

from ...plan import fmt_number
from ...spec import Answer, Click, Gone, Present, Read, Step, SuiteTask, TextHas
from ..taskkit import NUM, UrlFor, task
from .data import University

SITE = "rankings"
ACCEPT = Click("cookie-accept", until=Gone("cookie-banner"))


def _load_until(target: str) -> Click:
    return Click("load-more", until=Present(target))


def rankings_tasks(unis: list[University], url: UrlFor) -> list[SuiteTask]:
    home = url("/")
    by_name = {u.name: u for u in unis}
    a, b = by_name["University of Kenmore"], by_name["Zennor University"]
    top20 = unis[:20]
    most_cited = max(unis, key=lambda u: (u.scores["citations"], u.name))
    return [
        task("rankings-position", site=SITE, kind="document_extraction", url=home,
             instruction="""Which university is ranked 47th in the Fovea World University
             Rankings 2025?""",
             answer=unis[46].name, answer_type="text",
             steps=[ACCEPT, _load_until("r47-name"), Read("r47-name", "name")],
             compute=Answer("text", ("name",)), tags=("cookie_banner", "load_more")),
        task("rankings-top-citations", site=SITE, kind="form_interaction", url=home,
             instruction="""In the Fovea World University Rankings 2025, which university has
             the highest citations score?""",
             answer=most_cited.name, answer_type="text",
             steps=[ACCEPT, Click("sort-citations", until=TextHas("sort-state",
                                                                  "Citations (descending)")),
                    Read("r1-name", "name")],
             compute=Answer("text", ("name",)), tags=("cookie_banner", "sortable")),
        task("rankings-country-count", site=SITE, kind="complete_data_retrieval", url=home,
             instruction="""How many of the top 20 universities in the Fovea World University
             Rankings 2025 are in Brevia?""",
             answer=str(sum(1 for u in top20 if u.country == "Brevia")), answer_type="number",
             steps=[ACCEPT, *[Read(f"r{i}-country", f"c{i}") for i in range(1, 21)]],
             compute=Answer("count", tuple(f"c{i}" for i in range(1, 21)), match="Brevia"),
             tags=("cookie_banner",)),
        task("rankings-lowest-teaching", site=SITE, kind="complete_data_retrieval", url=home,
             instruction="""Among the top 20 universities of the Fovea World University
             Rankings 2025, which one has the lowest teaching score?""",
             answer=min(top20, key=lambda u: (u.scores["teaching"], u.name)).name,
             answer_type="text",
             steps=[ACCEPT, *[Read(f"{u.key}-teaching", f"t{i}", NUM, label_from=f"r{i}-name")
                              for i, u in enumerate(top20, start=1)]],
             compute=Answer("min_label", tuple(f"t{i}" for i in range(1, 21))),
             tags=("cookie_banner",)),
        task("rankings-research-difference", site=SITE, kind="multi_source_comparison",
             url=home,
             instruction="""In the Fovea World University Rankings 2025, what is the University
             of Kenmore's research score minus Zennor University's research score?""",
             answer=fmt_number(a.scores["research"] - b.scores["research"], 1),
             answer_type="number",
             steps=_research_steps(a, b),
             compute=Answer("difference", ("a", "b"), decimals=1),
             tags=("cookie_banner", "load_more")),
    ]


def _research_steps(a: University, b: University) -> list[Step]:
    return [ACCEPT, _load_until(f"{a.key}-research"), Read(f"{a.key}-research", "a", NUM),
            _load_until(f"{b.key}-research"), Read(f"{b.key}-research", "b", NUM)]
