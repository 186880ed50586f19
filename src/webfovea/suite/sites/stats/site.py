"""Site 1, a statistical portal: native <select> filters that submit on change, a
search box that submits on Enter, a paginated results table, a CSV download and a
"Data API" link that a task never needs."""

from __future__ import annotations

from collections.abc import Iterable

from ...spec import SuiteTask
from ...web import Markup, Request, Response, join, query_string, render, tag
from ..base import SearchEntry, Site, long_date, number
from .data import PAGE_SIZE, REGIONS, TABLES, YEARS, Row, cell_id, generate
from .tasks import stats_tasks


class StatsSite(Site):
    name = "stats"
    host = "stats.fovea.test"
    title = "Fovea Statistics Office"

    def setup(self) -> None:
        self.data = generate(self.rng("data"))
        self.router.add(r"/", self.home)
        self.router.add(r"/table/(?P<code>[A-Z0-9]+)", self.table)
        self.router.add(r"/table/(?P<code>[A-Z0-9]+)\.csv", self.csv)
        self.router.add(r"/calendar", self.calendar)
        self.router.add(r"/about", self.about)

    # -- pages -------------------------------------------------------------------------

    def _shell(self, name: str, heading: str, **values: object) -> Response:
        body = render(f"stats/{name}.html", header=render("stats/header.html"),
                      footer=render("stats/footer.html"), **values)
        return self.page(f"{heading} · {self.title}", body, scripts=("stats.js",))

    def home(self, req: Request) -> Response:
        items = join(tag("li", tag("a", f"{t.code} · {t.title}", href=f"/table/{t.code}",
                                   data_fovea=f"table-{t.code}"),
                         tag("span", f" — {t.description}", class_="muted"))
                     for t in TABLES.values())
        return self._shell("home", "Agriculture statistics", tables=items)

    def _filtered(self, req: Request) -> list[Row]:
        region, year, q = req.arg("region"), req.arg("year"), req.arg("q").strip().lower()
        return [r for r in self.data.rows
                if (not region or r.region == region) and (not year or str(r.year) == year)
                and (not q or q in r.commodity.lower())]

    def table(self, req: Request, code: str) -> Response | None:
        table = TABLES.get(code)
        if table is None:
            return None
        rows = self._filtered(req)
        pages = max(1, -(-len(rows) // PAGE_SIZE))
        page = min(max(1, req.int_arg("page", 1)), pages)
        shown = rows[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
        filters = {k: req.arg(k) for k in ("region", "year", "q")}
        return self._shell(
            "table", f"{code} {table.title}", code=code, title=table.title,
            description=table.description, unit=table.unit, unit_header=table.unit_header,
            q=req.arg("q"),
            region_options=_options("All regions", REGIONS, filters["region"]),
            year_options=_options("All years", [str(y) for y in YEARS], filters["year"]),
            count=_count_text(len(rows), page, len(shown), filters["q"]),
            query=query_string(**filters),
            rows=join(_row_html(r, table.field) for r in shown),
            pager=_pager(code, filters, page, pages),
            related=_related(code, filters),
        )

    def csv(self, req: Request, code: str) -> Response | None:
        table = TABLES.get(code)
        if table is None:
            return None
        lines = ["region,commodity,year,value"] + [
            f"{r.region},{r.commodity},{r.year},{r.value(table.field)}"
            for r in self._filtered(req)]
        return Response(200, ("\n".join(lines) + "\n").encode(), "text/csv; charset=utf-8",
                        (("Content-Disposition", f'attachment; filename="{code}.csv"'),))

    def calendar(self, req: Request) -> Response:
        rows = join(tag("tr", tag("td", r.code), tag("td", r.title), tag("td", r.period),
                        tag("td", long_date(r.date), data_fovea=f"release-{r.code}"))
                    for r in self.data.releases)
        return self._shell("calendar", "Release calendar", rows=rows)

    def about(self, req: Request) -> Response:
        return self._shell("about", "About our data")

    def search_entries(self) -> list[SearchEntry]:
        return [SearchEntry(f"{t.code} {t.title} - Fovea Statistics Office",
                            self.url(f"/table/{t.code}"),
                            f"{t.description} Filter by region, year and commodity.")
                for t in TABLES.values()]

    def api_records(self) -> dict[str, list[dict[str, object]]]:
        return {f"stats/{t.code}": [{"region": r.region, "commodity": r.commodity,
                                     "year": r.year, "value": r.value(t.field)}
                                    for r in self.data.rows]
                for t in TABLES.values()}

    def tasks(self) -> list[SuiteTask]:
        return stats_tasks(self.data, self.url)


def _options(all_label: str, values: Iterable[str], chosen: str) -> Markup:
    opts = [tag("option", all_label, value="", selected=not chosen)]
    opts += [tag("option", v, value=v, selected=v == chosen) for v in values]
    return join(opts)


def _count_text(total: int, page: int, shown: int, q: str) -> str:
    if total == 0:
        return "No rows match these filters."
    first = (page - 1) * PAGE_SIZE + 1
    text = f"Showing {first}–{first + shown - 1} of {total} rows"
    return text + (f" matching “{q}”" if q else "")


def _row_html(row: Row, field: str) -> Markup:
    return tag("tr", tag("td", row.region), tag("td", row.commodity), tag("td", row.year),
               tag("td", number(row.value(field)), class_="num",
                   data_fovea=cell_id(row.region, row.commodity, row.year)))


def _pager(code: str, filters: dict[str, str], page: int, pages: int) -> Markup:
    def link(label: str, target: int, fid: str) -> Markup:
        return tag("a", label, href=f"/table/{code}" + query_string(**filters, page=target),
                   data_fovea=fid)

    parts = [link("« Previous", page - 1, "page-prev")] if page > 1 else []
    for n in range(1, pages + 1):
        parts.append(tag("span", n, class_="current", data_fovea=f"page-{n}") if n == page
                     else link(str(n), n, f"page-{n}"))
    if page < pages:
        parts.append(link("Next »", page + 1, "page-next"))
    return join(parts)


def _related(code: str, filters: dict[str, str]) -> Markup:
    other = TABLES["AGR02" if code == "AGR01" else "AGR01"]
    return tag("a", f"{other.code} · {other.title}", href=f"/table/{other.code}"
               + query_string(**filters), data_fovea=f"related-{other.code}")
