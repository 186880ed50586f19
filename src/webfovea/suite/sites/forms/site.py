"""Site 6, a journey planner form: autocomplete stations, a date picker, custom (non-native)
dropdowns, and a submit that opens the fares in a new tab."""

from __future__ import annotations

import datetime as dt

from ...spec import SuiteTask
from ...web import Request, Response, join, json_script, query_string, render, tag
from ..base import Site, long_date
from .fares import CLASSES, RAILCARDS, STATIONS, TODAY, journey, station_by_slug
from .tasks import forms_tasks


class FormsSite(Site):
    name = "forms"
    host = "forms.fovea.test"
    title = "Fovea Rail"

    def setup(self) -> None:
        self.router.add(r"/", self.planner)
        self.router.add(r"/fares", self.fares)

    def planner(self, req: Request) -> Response:
        config = {"stations": list(STATIONS), "today": TODAY.isoformat(),
                  "classes": {k: v[0] for k, v in CLASSES.items()},
                  "railcards": {k: v[0] for k, v in RAILCARDS.items()},
                  "prefill": {k: req.arg(k) for k in ("from", "to", "date", "class", "railcard")}}
        body = render("forms/planner.html", config=json_script(config))
        return self.page(f"Plan your journey · {self.title}", body,
                         scripts=("autocomplete.js", "datepicker.js", "dropdown.js", "planner.js"))

    def fares(self, req: Request) -> Response:
        origin, dest = station_by_slug(req.arg("from")), station_by_slug(req.arg("to"))
        ticket, card = req.arg("class", "standard"), req.arg("railcard", "none")
        try:
            day = dt.date.fromisoformat(req.arg("date"))
        except ValueError:
            day = None
        if not origin or not dest or day is None or ticket not in CLASSES or card not in RAILCARDS:
            return self.page(f"Journey not found · {self.title}",
                             render("forms/invalid.html"))
        found = journey(self.seed, origin, dest, day, ticket, card)
        rows = join(tag("tr", tag("td", d.time), tag("td", d.arrive),
                        tag("td", f"{d.minutes // 60}h {d.minutes % 60:02d}m"),
                        tag("td", d.changes or "Direct"),
                        tag("td", f"£{d.fare:.2f}", class_="num",
                            data_fovea=f"fare-{d.time.replace(':', '')}"))
                    for d in found)
        change = "/" + query_string(**{k: req.arg(k) for k in ("from", "to", "date", "class",
                                                                 "railcard")})
        body = render("forms/fares.html", origin=origin, destination=dest,
                      day=f"{day:%A} {long_date(day.isoformat())}", ticket=CLASSES[ticket][0],
                      railcard=RAILCARDS[card][0], rows=rows, change=change,
                      cheapest=f"£{min(d.fare for d in found):.2f}")
        return self.page(f"{origin} to {dest} · {self.title}", body)

    def tasks(self) -> list[SuiteTask]:
        return forms_tasks(self.seed, self.url)
