"""Site 5, a rankings table: sortable columns, "load more", a cookie banner over content."""

from __future__ import annotations

from ...spec import SuiteTask
from ...web import Markup, Request, Response, html_response, join, render, tag
from ..base import Site, number
from .data import SCORE_LABELS, University, generate
from .tasks import rankings_tasks

PAGE = 20
COLUMNS = ("rank", "name", "country", *SCORE_LABELS)
CONSENT = "fovea_consent"


class RankingsSite(Site):
    name = "rankings"
    host = "rankings.fovea.test"
    title = "Fovea World University Rankings"

    def setup(self) -> None:
        self.universities = generate(self.rng("data"))
        self.router.add(r"/", self.home)
        self.router.add(r"/rows", self.rows)
        self.router.add(r"/methodology", self.methodology)

    def home(self, req: Request) -> Response:
        banner = "" if req.cookies.get(CONSENT) else render("rankings/cookie_banner.html")
        heads = join(tag("th", tag("button", _heading(c), type="button", data_sort=c,
                                   data_fovea=f"sort-{c}"),
                         class_="num" if c in SCORE_LABELS else None) for c in COLUMNS)
        body = render("rankings/home.html", heads=heads, rows=self._rows("rank", "asc", PAGE),
                      total=len(self.universities), banner=banner)
        return self.page(f"World University Rankings 2025 · {self.title}", body,
                         scripts=("rankings.js",))

    def rows(self, req: Request) -> Response:
        sort = req.arg("sort", "rank")
        direction = "desc" if req.arg("dir") == "desc" else "asc"
        limit = min(req.int_arg("limit", PAGE), len(self.universities))
        if sort not in COLUMNS:
            return html_response(f"unknown sort column {sort}", status=400)
        return html_response(self._rows(sort, direction, limit))

    def _rows(self, sort: str, direction: str, limit: int) -> Markup:
        ranked = list(enumerate(self.universities, start=1))
        if sort != "rank":
            ranked.sort(key=lambda pair: _sort_key(pair[1], sort))
        if direction == "desc":
            ranked.reverse()
        return join(_row(pos, rank, u) for pos, (rank, u) in enumerate(ranked[:limit], start=1))

    def methodology(self, req: Request) -> Response:
        return self.page(f"Methodology · {self.title}", render("rankings/methodology.html"))

    def tasks(self) -> list[SuiteTask]:
        return rankings_tasks(self.universities, self.url)


def _heading(column: str) -> str:
    return {"rank": "Rank", "name": "University", "country": "Country"}.get(
        column, SCORE_LABELS.get(column, column))


def _sort_key(u: University, column: str) -> tuple[object, str]:
    if column in ("name", "country"):
        return (getattr(u, column), u.name)
    return (u.scores[column], u.name)


def _row(pos: int, rank: int, u: University) -> Markup:
    cells = [tag("td", rank, data_fovea=f"r{pos}-rank"),
             tag("td", u.name, class_="uni", data_fovea=f"r{pos}-name"),
             tag("td", u.country, data_fovea=f"r{pos}-country")]
    cells += [tag("td", number(u.scores[k], 1), class_="num", data_fovea=f"{u.key}-{k}")
              for k in SCORE_LABELS]
    return tag("tr", *cells)
