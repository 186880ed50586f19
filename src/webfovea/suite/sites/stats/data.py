"""The statistical portal's data: a pure function of the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..base import slug

REGIONS = ("Northern", "Southern", "Eastern", "Western", "Central", "Coastal", "Highlands",
           "Islands")
# Commodity and its typical yield in tonnes per hectare.
COMMODITIES = {"Wheat": 7.5, "Barley": 6.0, "Maize": 9.0, "Oats": 5.0, "Potatoes": 40.0,
               "Sugar beet": 70.0, "Rapeseed": 3.5, "Soybeans": 3.0, "Rye": 5.5,
               "Sunflower": 2.5}
YEARS = tuple(range(2015, 2025))
PAGE_SIZE = 8


@dataclass(frozen=True)
class StatTable:
    code: str
    title: str
    unit: str
    unit_header: str
    field: str
    description: str


TABLES = {
    "AGR01": StatTable("AGR01", "Crop production by region", "tonnes", "Production (t)",
                       "production", "Harvested production of field crops by region and year."),
    "AGR02": StatTable("AGR02", "Area harvested by region", "hectares", "Area (ha)", "area",
                       "Area harvested of field crops by region and year."),
}


@dataclass(frozen=True)
class Row:
    region: str
    commodity: str
    year: int
    production: int
    area: int

    def value(self, field: str) -> int:
        return self.production if field == "production" else self.area


@dataclass(frozen=True)
class Release:
    code: str
    title: str
    period: str
    date: str  # ISO


def cell_id(region: str, commodity: str, year: int) -> str:
    return f"cell-{slug(region)}-{slug(commodity)}-{year}"


@dataclass(frozen=True)
class StatsData:
    rows: tuple[Row, ...]
    releases: tuple[Release, ...]

    def row(self, region: str, commodity: str, year: int) -> Row:
        return next(r for r in self.rows
                    if (r.region, r.commodity, r.year) == (region, commodity, year))


def generate(rng: random.Random) -> StatsData:
    rows = []
    for region in REGIONS:
        for commodity, typical in COMMODITIES.items():
            base_area = rng.randint(2_000, 60_000)
            region_yield = typical * rng.uniform(0.8, 1.2)
            for year in YEARS:
                area = int(round(base_area * rng.uniform(0.85, 1.15), -1))
                production = round(area * region_yield * rng.uniform(0.8, 1.2))
                rows.append(Row(region, commodity, year, production, area))
    releases = []
    for code, title in (("AGR01", TABLES["AGR01"].title), ("AGR02", TABLES["AGR02"].title),
                        ("LIV01", "Livestock numbers"), ("FOR01", "Forest area")):
        month, day = rng.randint(3, 11), rng.randint(1, 28)
        releases.append(Release(code, title, "2024", f"2025-{month:02d}-{day:02d}"))
    return StatsData(tuple(rows), tuple(releases))
