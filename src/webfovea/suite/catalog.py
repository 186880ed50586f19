"""The suite's sites and tasks, and the task file `webfovea suite export` writes."""

from __future__ import annotations

import json
from typing import TextIO

from .sites.base import EXTERNAL_DOMAIN, SITE_DOMAIN, Site
from .sites.charts.site import ChartsSite
from .sites.energy.site import DashSite, EnergySite
from .sites.external.site import DataApiSite, SearchEngineSite
from .sites.filings.site import FilingsSite
from .sites.forms.site import FormsSite
from .sites.news.site import NewsSite
from .sites.rankings.site import RankingsSite
from .sites.stats.site import StatsSite
from .sites.verify.site import VerifySite
from .spec import SuiteTask

DOMAINS = (SITE_DOMAIN, EXTERNAL_DOMAIN)
SITE_CLASSES: tuple[type[Site], ...] = (StatsSite, EnergySite, DashSite,
                                               ChartsSite, FilingsSite, RankingsSite,
                                               FormsSite, NewsSite, VerifySite,
                                               SearchEngineSite,
                                               DataApiSite)


def build_sites(seed: int) -> list[Site]:
    sites = [cls(seed) for cls in SITE_CLASSES]
    for site in sites:
        site.connect(sites)
    return sites


def tasks(seed: int) -> list[SuiteTask]:
    """Every suite task for ``seed``: same ids and wording for every seed, answers differ."""
    return [t for site in build_sites(seed) for t in site.tasks()]


def export_tasks(seed: int, out: TextIO) -> int:
    """Write the task file (JSON Lines, no plans); returns the number of tasks."""
    found = tasks(seed)
    for t in found:
        out.write(json.dumps(t.to_json(), ensure_ascii=False) + "\n")
    return len(found)
