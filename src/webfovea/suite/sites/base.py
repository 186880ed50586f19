"""What every suite site shares: its host, seeded randomness, routes and page shell."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..spec import SuiteTask
from ..web import Markup, Request, Response, Router, html_response, render, tag

# Registrable domains the suite serves: sites live under the first, the hosts a
# task must never reach (a search engine, a data API) under the second.
SITE_DOMAIN = "fovea.test"
EXTERNAL_DOMAIN = "fovea-external.test"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def number(value: float, decimals: int = 0) -> str:
    """A number as sites display it: thousands separators, fixed decimals."""
    return f"{value:,.{decimals}f}"


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def long_date(iso: str) -> str:
    """``2025-03-04`` as sites print it: ``4 March 2025``."""
    year, month, day = (int(p) for p in iso.split("-"))
    return f"{day} {MONTHS[month - 1]} {year}"


@dataclass(frozen=True)
class SearchEntry:
    """A page as the external search engine indexes it; the snippet may leak an answer."""

    title: str
    url: str
    snippet: str


class Site:
    """One website of the suite, served under ``host``.

    Subclasses set the class attributes, add routes in ``setup`` and return their
    tasks from ``tasks``. Data must come from :meth:`rng` so that it is a pure
    function of the seed; task *wording* must not depend on the seed, so the same
    task id asks the same question under every seed and only the answer drifts.
    """

    name: ClassVar[str]  # short tag, also the task-id prefix and the stylesheet name
    host: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.router = Router()
        self.setup()

    def setup(self) -> None:
        """Build data and register routes."""

    def tasks(self) -> list[SuiteTask]:
        return []

    def connect(self, sites: Sequence[Site]) -> None:
        """Called once every site exists; the external hosts index the others here."""

    def search_entries(self) -> list[SearchEntry]:
        """Pages the external search engine knows about (shortcuts a task must not take)."""
        return []

    def api_records(self) -> dict[str, list[dict[str, object]]]:
        """Datasets the external data API serves, by name (shortcuts a task must not take)."""
        return {}

    def rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{self.name}:{purpose}")

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}{path}"

    def handle(self, req: Request) -> Response | None:
        return self.router.dispatch(req)

    def page(self, title: str, body: Markup, *, scripts: tuple[str, ...] = (),
             headers: tuple[tuple[str, str], ...] = ()) -> Response:
        """A full HTML page in this site's theme, with the layout reporter."""
        script_tags = Markup("".join(tag("script", src=f"/static/js/{s}", defer=True)
                                     for s in scripts))
        markup = render("base.html", title=title, theme=self.name, scripts=script_tags, body=body)
        return html_response(markup, headers=headers)
