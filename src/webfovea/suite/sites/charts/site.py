"""Site 3, an SVG chart site: values only in hover tooltips, country tabs, no data table."""

from __future__ import annotations

from ...spec import SuiteTask
from ...web import Request, Response, join, json_script, render, tag
from ..base import Site, slug
from .data import COUNTRIES, INDICATORS, YEARS, generate
from .tasks import charts_tasks

COLOURS = {"co2-emissions": "#b5513a", "renewable-share": "#2f8f5b", "unemployment": "#3a62b5"}


class ChartsSite(Site):
    name = "charts"
    host = "charts.fovea.test"
    title = "Fovea Charts"

    def setup(self) -> None:
        self.data = generate(self.rng("data"))
        self.router.add(r"/", self.home)
        self.router.add(r"/chart/(?P<indicator>[a-z0-9-]+)", self.chart)
        self.router.add(r"/about", self.about)

    def _shell(self, name: str, heading: str, *, scripts: tuple[str, ...] = (),
               **values: object) -> Response:
        body = render(f"charts/{name}.html", header=render("charts/header.html"), **values)
        return self.page(f"{heading} · {self.title}", body, scripts=scripts)

    def home(self, req: Request) -> Response:
        cards = join(tag("a", tag("h3", ind.title), tag("p", f"By country, 2010–2024 ({ind.unit_long})"),
                         href=f"/chart/{ind.slug}", class_="chart-link",
                         data_fovea=f"chart-link-{ind.slug}")
                     for ind in INDICATORS.values())
        return self._shell("home", "Data in pictures", cards=cards)

    def chart(self, req: Request, indicator: str) -> Response | None:
        ind = INDICATORS.get(indicator)
        if ind is None:
            return None
        by_slug = {slug(c): c for c in COUNTRIES}
        country = by_slug.get(req.arg("country"), COUNTRIES[0])
        tabs = join(tag("a", c, href=f"/chart/{ind.slug}?country={slug(c)}",
                        class_="tab active" if c == country else "tab",
                        data_fovea=f"country-{slug(c)}") for c in COUNTRIES)
        series = self.data.series[(ind.slug, country)]
        spec = {"mark": ind.mark, "unit": ind.unit, "decimals": 1, "color": COLOURS[ind.slug],
                "points": [{"label": str(y), "value": series[y]} for y in YEARS]}
        return self._shell(
            "chart", f"{ind.title}, {country}", scripts=("svgchart.js",), indicator=ind.title,
            country=country, tabs=tabs, data=json_script(spec), unit=ind.unit_long,
            description=f"{ind.title} in {ind.unit_long}. Hover over a "
                        f"{'bar' if ind.mark == 'bar' else 'point'} to see its value.")

    def about(self, req: Request) -> Response:
        return self._shell("about", "About")

    def tasks(self) -> list[SuiteTask]:
        return charts_tasks(self.data, self.url)
