"""Tasks on the news site: a rotating carousel, and an archive behind a CAPTCHA iframe."""

from __future__ import annotations

from ...spec import Answer, Click, FindText, Present, Read, Shown, Step, SuiteTask, UrlHas
from ..base import long_date
from ..taskkit import NUM, UrlFor, task
from .data import ASKED_DAY, NewsData

SITE = "news"


def _featured(data: NewsData, slug: str) -> list[Step]:
    n = next(i for i, s in enumerate(data.featured, start=1) if s.slug == slug)
    return [Click(f"dot-{n}", until=Present(f"slide-{n}-link")),
            Click(f"slide-{n}-link", until=UrlHas(f"/article/{slug}")),
            Read("article-fact", "v", NUM)]


def _archive() -> list[Step]:
    return [Click("nav-archive", until=UrlHas("/archive")),
            Click("captcha-box", until=Present("archive-list"))]


def news_tasks(data: NewsData, url: UrlFor) -> list[SuiteTask]:
    home = url("/")
    tram, marathon = data.story("greyhaven-tram"), data.story("dunmore-marathon")
    assert tram is not None and marathon is not None
    day = long_date(ASKED_DAY.isoformat())
    return [
        task("news-featured-tram", site=SITE, kind="document_extraction", url=home,
             instruction="""According to Fovea Daily's featured story about Greyhaven's new tram
             line, how many passengers did the line carry in its first month?""",
             answer=str(tram.value), answer_type="number",
             steps=_featured(data, "greyhaven-tram"), compute=Answer("number", ("v",)),
             tags=("carousel", "clock")),
        task("news-featured-marathon", site=SITE, kind="document_extraction", url=home,
             instruction="""According to Fovea Daily's featured story about the Dunmore
             marathon, how many runners crossed the finish line?""",
             answer=str(marathon.value), answer_type="number",
             steps=_featured(data, "dunmore-marathon"), compute=Answer("number", ("v",)),
             tags=("carousel", "clock")),
        task("news-archive-headline", site=SITE, kind="document_extraction", url=home,
             instruction=f"""What was the lead headline in the Fovea Daily archive on {day}?""",
             answer=data.lead_on(ASKED_DAY).headline, answer_type="text",
             steps=[*_archive(), FindText(day, until=Shown(f"archive-{ASKED_DAY}")),
                    Read(f"archive-{ASKED_DAY}", "h")],
             compute=Answer("text", ("h",)), tags=("captcha", "iframe", "find_text")),
        task("news-archive-count", site=SITE, kind="complete_data_retrieval", url=home,
             instruction="""How many stories does the Fovea Daily archive list for January
             2025?""",
             answer=str(data.count_in(2025, 1)), answer_type="number",
             steps=[*_archive(), Read("archive-count-2025-01", "n",
                                      r"(?P<value>\d+) stories")],
             compute=Answer("number", ("n",)), tags=("captcha", "iframe")),
    ]
