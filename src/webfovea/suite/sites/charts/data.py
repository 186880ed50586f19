"""The chart site's data: indicator series per (fictional) country, a pure function of the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

COUNTRIES = ("Aldoria", "Brevia", "Caltoria", "Dunmark", "Estavia")
YEARS = tuple(range(2010, 2025))


@dataclass(frozen=True)
class Indicator:
    slug: str
    title: str
    unit: str  # as the tooltip prints it
    unit_long: str
    mark: Literal["bar", "line"]
    start: tuple[float, float]
    bounds: tuple[float, float]


INDICATORS = {
    i.slug: i for i in (
        Indicator("co2-emissions", "Annual CO₂ emissions", " Mt", "million tonnes", "bar",
                  (80.0, 600.0), (10.0, 2000.0)),
        Indicator("renewable-share", "Share of electricity from renewables", "%", "percent",
                  "line", (5.0, 40.0), (1.0, 95.0)),
        Indicator("unemployment", "Unemployment rate", "%", "percent", "line", (3.0, 12.0),
                  (1.5, 25.0)),
    )
}


@dataclass(frozen=True)
class ChartsData:
    # (indicator slug, country) -> value per year, one decimal
    series: dict[tuple[str, str], dict[int, float]]

    def value(self, indicator: str, country: str, year: int) -> float:
        return self.series[(indicator, country)][year]


def _walk(rng: random.Random, ind: Indicator) -> dict[int, float]:
    value = rng.uniform(*ind.start)
    out = {}
    for year in YEARS:
        out[year] = round(value, 1)
        step = value * rng.uniform(-0.07, 0.06) if ind.mark == "bar" else rng.uniform(-1.6, 2.2)
        value = min(max(value + step, ind.bounds[0]), ind.bounds[1])
    return out


def generate(rng: random.Random) -> ChartsData:
    return ChartsData({(slug, country): _walk(rng, ind)
                       for slug, ind in INDICATORS.items() for country in COUNTRIES})
