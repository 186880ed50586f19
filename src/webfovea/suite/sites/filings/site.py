"""Site 4, a regulatory filings registry: a search form, result lists, and long documents
where one value sits thousands of pixels down and others are only in visually hidden text
(an icon-font rating, a "subscribers only" fee)."""

from __future__ import annotations

import random

from ...spec import SuiteTask
from ...web import Markup, Request, Response, join, query_string, render, tag
from ..base import SearchEntry, Site, long_date, number
from .data import TYPES, Filing, generate
from .prose import SECTIONS, paragraph
from .tasks import filings_tasks

STAR = "\uf005"  # Font Awesome "star": private-use code point, unreadable as text
LOCK = "\uf023"  # Font Awesome "lock"


class FilingsSite(Site):
    name = "filings"
    host = "filings.fovea.test"
    title = "Fovea Filings Registry"

    def setup(self) -> None:
        self.data = generate(self.rng("data"))
        self.router.add(r"/", self.home)
        self.router.add(r"/search", self.search)
        self.router.add(r"/filing/(?P<accession>[A-Z0-9-]+)", self.filing)
        self.router.add(r"/help", self.help)

    def _shell(self, name: str, heading: str, **values: object) -> Response:
        body = render(f"filings/{name}.html", header=render("filings/header.html"), **values)
        return self.page(f"{heading} · {self.title}", body)

    def home(self, req: Request) -> Response:
        recent = sorted(self.data.filings, key=lambda f: f.filed, reverse=True)[:10]
        options = join([tag("option", "All filing types", value=""),
                        *(tag("option", t, value=t) for t in TYPES)])
        return self._shell("home", "Company search", type_options=options,
                           recent=join(_row(f, ids=False) for f in recent))

    def search(self, req: Request) -> Response:
        company, kind = req.arg("company").strip(), req.arg("type")
        found = [f for f in self.data.filings
                 if company.lower() in f.company.lower() and (not kind or f.kind == kind)]
        found.sort(key=lambda f: f.filed, reverse=True)
        title = f"Filings matching “{company}”" if company else "All filings"
        return self._shell("results", title, title=title + (f" · {kind}" if kind else ""),
                           count=f"{len(found)} filings found",
                           rows=join(_row(f, ids=True) for f in found))

    def filing(self, req: Request, accession: str) -> Response | None:
        filing = self.data.by_accession(accession)
        if filing is None:
            return None
        rng = random.Random(f"{self.seed}:filings:prose:{accession}")
        return self._shell(
            "filing", f"{filing.company} {filing.kind} {filing.year}", company=filing.company,
            kind=filing.kind, year=filing.year, accession=filing.accession,
            filed=long_date(filing.filed),
            company_url="/search" + query_string(company=filing.company),
            sections=_sections(rng, filing))

    def help(self, req: Request) -> Response:
        return self._shell("help", "Help")

    def search_entries(self) -> list[SearchEntry]:
        return [SearchEntry(f"{f.company} {f.kind} {f.year} - Fovea Filings Registry",
                            self.url(f"/filing/{f.accession}"),
                            f"{f.company} reports total installed capacity of "
                            f"{number(f.facts.capacity_mw)} MW and {number(f.facts.employees)} "
                            f"employees at year end {f.year}.")
                for f in self.data.filings if f.facts is not None]

    def api_records(self) -> dict[str, list[dict[str, object]]]:
        return {"filings": [{"company": f.company, "type": f.kind, "year": f.year,
                             "filed": f.filed, "accession": f.accession,
                             **(vars(f.facts) if f.facts else {})}
                            for f in self.data.filings]}

    def tasks(self) -> list[SuiteTask]:
        return filings_tasks(self.data, self.url)


def _row(f: Filing, *, ids: bool) -> Markup:
    def mark(prefix: str) -> str | None:
        return f"{prefix}-{f.doc_id}" if ids else None

    return tag("tr", tag("td", f.company), tag("td", f.kind), tag("td", f.year),
               tag("td", long_date(f.filed), data_fovea=mark("filed")), tag("td", f.accession),
               tag("td", tag("a", "View document", href=f"/filing/{f.accession}",
                             data_fovea=mark("doc"))))


def _sections(rng: random.Random, filing: Filing) -> Markup:
    parts = []
    for n, title in enumerate(SECTIONS, start=1):
        parts.append(tag("h2", f"{n}. {title}"))
        parts += [tag("p", paragraph(rng)) for _ in range(rng.randint(3, 4))]
        if filing.facts is not None:
            parts.append(_facts_block(title, filing))
    return join(parts)


def _facts_block(section: str, filing: Filing) -> Markup:
    facts = filing.facts
    assert facts is not None
    if section == "Operational review":
        rows = (("Total installed capacity (MW)", number(facts.capacity_mw), "fact-capacity"),
                ("Employees at year end", number(facts.employees), "fact-employees"),
                ("Revenue (£ million)", number(facts.revenue_m, 1), "fact-revenue"))
        return tag("table", tag("caption", f"Operating statistics, {filing.year}"),
                   join(tag("tr", tag("th", label), tag("td", value, class_="num",
                                                        data_fovea=fid))
                        for label, value, fid in rows), class_="data stats-table")
    if section == "Sustainability":
        stars = join(tag("span", STAR, class_="fa" if i < facts.climate_rating else "fa off")
                     for i in range(5))
        return tag("p", tag("strong", "Climate risk rating"),
                   tag("span", stars, class_="stars", aria_hidden="true"),
                   tag("span", f"Climate risk rating: {facts.climate_rating} out of 5",
                       class_="sr-only"), class_="rating-row")
    if section == "Independent auditor's report":
        return tag("p", "Audit fee for the year: ",
                   tag("span", tag("span", LOCK, class_="fa"), "Subscribers only",
                       class_="locked", aria_hidden="true"),
                   tag("span", f"£{facts.audit_fee_k}k", class_="sr-only"), class_="fee")
    return Markup("")
