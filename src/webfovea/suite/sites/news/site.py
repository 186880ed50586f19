"""Site 7, a news site with a ticking clock, a rotating carousel that holds the featured
stories, and an archive behind a CAPTCHA-like check served in a cross-origin iframe."""

from __future__ import annotations

from ...spec import SuiteTask
from ...web import Markup, Request, Response, join, render, tag
from ..base import MONTHS, Site, long_date
from .data import LATEST, NewsData, generate
from .tasks import news_tasks

VERIFIED = "fovea_verified"


class NewsSite(Site):
    name = "news"
    host = "news.fovea.test"
    title = "Fovea Daily"

    def setup(self) -> None:
        self.data = generate(self.rng("data"))
        self.router.add(r"/", self.home)
        self.router.add(r"/article/(?P<slug>[a-z0-9-]+)", self.article)
        self.router.add(r"/archive", self.archive)
        self.router.add(r"/archive/verify", self.verify)

    def _shell(self, name: str, heading: str, *, scripts: tuple[str, ...] = ("news.js",),
               **values: object) -> Response:
        body = render(f"news/{name}.html", header=render("news/header.html"), **values)
        return self.page(f"{heading} · {self.title}", body, scripts=scripts)

    def home(self, req: Request) -> Response:
        slides = join(_slide(n, s.slug, s.headline, s.standfirst)
                      for n, s in enumerate(self.data.featured, start=1))
        dots = join(tag("button", type="button", class_="dot", data_slide=str(n),
                        aria_label=f"Story {n}", data_fovea=f"dot-{n}")
                    for n in range(1, len(self.data.featured) + 1))
        latest = join(tag("li", tag("a", h, href="/article/latest-" + str(n)))
                      for n, h in enumerate(LATEST, start=1))
        return self._shell("home", "News", slides=slides, dots=dots, latest=latest)

    def article(self, req: Request, slug: str) -> Response | None:
        story = self.data.story(slug)
        if story is None and slug.startswith("latest-") and slug[7:].isdigit():
            index = int(slug[7:]) - 1
            if 0 <= index < len(LATEST):
                return self._shell("article", LATEST[index], headline=LATEST[index],
                                   standfirst="", fact="Further details will follow.")
        if story is None:
            return None
        return self._shell("article", story.headline, headline=story.headline,
                           standfirst=story.standfirst, fact=story.fact)

    def archive(self, req: Request) -> Response:
        if not req.cookies.get(VERIFIED):
            return self._shell("gate", "Checking your browser", scripts=("newsgate.js",))
        return self._shell("archive", "Archive", months=_archive(self.data))

    def verify(self, req: Request) -> Response:
        if req.method != "POST":
            return Response(405, b"")
        return Response(204, b"", headers=(("Set-Cookie", f"{VERIFIED}=1; Path=/"),))

    def tasks(self) -> list[SuiteTask]:
        return news_tasks(self.data, self.url)


def _slide(n: int, slug: str, headline: str, standfirst: str) -> Markup:
    return tag("article", tag("div", class_=f"slide-art art-{n}"),
               tag("div", tag("p", "Featured", class_="kicker"),
                   tag("h2", tag("a", headline, href=f"/article/{slug}",
                                 data_fovea=f"slide-{n}-link")),
                   tag("p", standfirst), class_="slide-text"),
               class_="slide active" if n == 1 else "slide", data_fovea=f"slide-{n}")


def _archive(data: NewsData) -> Markup:
    parts = []
    for year, month in ((2025, 1), (2025, 2)):
        key = f"{year}-{month:02d}"
        items = [i for i in data.archive if (i.day.year, i.day.month) == (year, month)]
        parts.append(tag("h2", f"{MONTHS[month - 1]} {year}"))
        parts.append(tag("p", f"{data.count_in(year, month)} stories", class_="muted",
                         data_fovea=f"archive-count-{key}"))
        parts.append(tag("ul", join(
            tag("li", tag("time", long_date(i.day.isoformat())),
                tag("span", i.headline, data_fovea=f"archive-{i.day}" if i.lead else None))
            for i in items), class_="archive-list"))
    return tag("div", join(parts), data_fovea="archive-list")
