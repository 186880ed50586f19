"""Site 2, a dashboard in a cross-origin iframe (Tableau-like): the observatory page on
energy.fovea.test embeds a canvas chart served by dash.fovea.test; values appear only in
hover tooltips and the legend changes the view."""

from __future__ import annotations

from ...spec import SuiteTask
from ...web import Request, Response, join, json_script, render, tag
from ..base import MONTHS, Site
from .data import SOURCES, YEARS, generate
from .tasks import energy_tasks


class EnergySite(Site):
    name = "energy"
    host = "energy.fovea.test"
    title = "Fovea Energy Observatory"

    def setup(self) -> None:
        self.data = generate(self.seed)
        self.router.add(r"/", self.home)
        self.router.add(r"/methodology", self.methodology)

    def home(self, req: Request) -> Response:
        return self.page(f"Electricity generation · {self.title}",
                         render("energy/observatory.html"))

    def methodology(self, req: Request) -> Response:
        return self.page(f"Methodology · {self.title}", render("energy/methodology.html"))

    def tasks(self) -> list[SuiteTask]:
        return energy_tasks(self.data, self.url)


class DashSite(Site):
    """The visualisation host; it only makes sense inside the observatory's iframe."""

    name = "dash"
    host = "dash.fovea.test"
    title = "Fovea Dash"

    def setup(self) -> None:
        self.data = generate(self.seed)
        self.router.add(r"/views/generation/embed", self.view)

    def view(self, req: Request) -> Response:
        legend = join(tag("li", tag("span", class_="swatch", data_color=colour), label,
                          data_source=key, data_fovea=f"legend-{key}")
                      for key, label, colour, _typical, _peak in SOURCES)
        years = join(tag("button", str(y), type="button", data_year=str(y),
                         data_fovea=f"dash-year-{y}") for y in YEARS)
        spec = {"months": list(MONTHS), "years": list(YEARS), "sources": [
            {"key": key, "label": label, "color": colour,
             "values": {str(y): list(self.data.generation[(key, y)]) for y in YEARS}}
            for key, label, colour, _typical, _peak in SOURCES]}
        body = render("energy/dash.html", legend=legend, years=years, data=json_script(spec))
        return self.page("Generation dashboard · Fovea Dash", body, scripts=("canvaschart.js",))
