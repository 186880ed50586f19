"""Monthly generation by source: shared by the dashboard host and the observatory's tasks."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..base import MONTHS

# key, label, colour, typical GWh per month, month of the seasonal peak (0 = January)
SOURCES = (("wind", "Wind", "#3b82c4", 2500.0, 0), ("solar", "Solar", "#e5a823", 900.0, 6),
           ("hydro", "Hydro", "#2a9d8f", 1200.0, 4), ("gas", "Gas", "#8d6e63", 3000.0, 1))
SEASONALITY = {"wind": 0.35, "solar": 0.6, "hydro": 0.25, "gas": 0.2}
YEARS = (2023, 2024)


@dataclass(frozen=True)
class EnergyData:
    # (source key, year) -> GWh for each month
    generation: dict[tuple[str, int], tuple[int, ...]]

    def value(self, source: str, year: int, month: str) -> int:
        return self.generation[(source, year)][MONTHS.index(month)]


def generate(seed: int) -> EnergyData:
    # Both hosts call this with the seed, so the embedding page's tasks and the
    # embedded dashboard always agree.
    rng = random.Random(f"{seed}:energy:data")
    out = {}
    for key, _label, _colour, typical, peak in SOURCES:
        for year in YEARS:
            level = typical * rng.uniform(0.85, 1.15)
            out[(key, year)] = tuple(
                round(level * (1 + SEASONALITY[key] * math.cos(2 * math.pi * (m - peak) / 12))
                      * rng.uniform(0.9, 1.1))
                for m in range(12))
    return EnergyData(out)
