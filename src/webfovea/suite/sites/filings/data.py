"""The filings registry's data: companies, their filings and the facts inside each document."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..base import slug

COMPANIES = ("Aldenmoor Power plc", "Brightwater Utilities", "Corven Energy",
             "Dalesford Renewables", "Elmstead Grid", "Fenwick Hydro", "Garrow Wind",
             "Hollins Gas", "Ivybridge Solar", "Jarrow Thermal", "Kestrel Networks",
             "Lowmoor Energy")
ANNUAL, ENVIRONMENTAL, CAPACITY = ("Annual report", "Environmental disclosure",
                                   "Capacity statement")
TYPES = (ANNUAL, ENVIRONMENTAL, CAPACITY)


@dataclass(frozen=True)
class Facts:
    capacity_mw: int
    employees: int
    revenue_m: float
    climate_rating: int  # 1..5, shown only as icons (the number is in visually hidden text)
    audit_fee_k: int  # shown only to "subscribers" (the number is in visually hidden text)


@dataclass(frozen=True)
class Filing:
    company: str
    kind: str
    year: int  # reporting period
    filed: str  # ISO date
    accession: str
    facts: Facts | None  # annual reports only

    @property
    def doc_id(self) -> str:
        return f"{slug(self.company)}-{slug(self.kind)}-{self.year}"


@dataclass(frozen=True)
class FilingsData:
    filings: tuple[Filing, ...]

    def find(self, company: str, kind: str, year: int) -> Filing:
        return next(f for f in self.filings if (f.company, f.kind, f.year) == (company, kind, year))

    def facts(self, company: str, year: int) -> Facts:
        """The facts of ``company``'s annual report for ``year``."""
        facts = self.find(company, ANNUAL, year).facts
        if facts is None:
            raise ValueError(f"{company} {year}: an annual report always has facts")
        return facts

    def by_accession(self, accession: str) -> Filing | None:
        return next((f for f in self.filings if f.accession == accession), None)

    def of_company(self, company: str) -> list[Filing]:
        return [f for f in self.filings if f.company == company]


def _filed(rng: random.Random, year: int) -> str:
    return f"{year + 1}-{rng.randint(2, 6):02d}-{rng.randint(1, 28):02d}"


def _company(rng: random.Random, company: str) -> list[tuple[str, int, Facts | None]]:
    out: list[tuple[str, int, Facts | None]] = []
    capacity = rng.randint(300, 4000)
    employees = rng.randint(400, 9000)
    for year in range(rng.randint(2016, 2020), 2025):
        capacity = round(capacity * rng.uniform(0.95, 1.15))
        employees = round(employees * rng.uniform(0.9, 1.1))
        out.append((ANNUAL, year, Facts(capacity, employees, round(capacity * rng.uniform(
            0.3, 0.6), 1), rng.randint(1, 5), rng.randint(150, 950))))
    env_years = [2022, 2023, 2024] + ([2021] if rng.random() < 0.5 else [])
    out += [(ENVIRONMENTAL, y, None) for y in env_years]
    out += [(CAPACITY, y, None) for y in rng.sample(range(2019, 2025), rng.randint(0, 3))]
    return out


def generate(rng: random.Random) -> FilingsData:
    raw = [(company, kind, year, facts) for company in COMPANIES
           for kind, year, facts in _company(rng, company)]
    filings = []
    for n, (company, kind, year, facts) in enumerate(raw):
        filings.append(Filing(company, kind, year, _filed(rng, year),
                              f"FR-{year + 1}-{rng.randint(1000, 9999)}{n:03d}", facts))
    return FilingsData(tuple(filings))
