"""University rankings: fixed names and countries, seeded scores."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..base import slug

COUNTRIES = ("Aldoria", "Brevia", "Caltoria", "Dunmark", "Estavia", "Fenmoor", "Glenhaven")
PLACES = ("Ashbury", "Belmont", "Carrick", "Dornoch", "Elderfield", "Farleigh", "Glastry",
          "Hartwell", "Inverley", "Kenmore", "Larkhall", "Marlow", "Northam", "Oakridge",
          "Pembury", "Queensferry", "Redcastle", "Stenhouse", "Thornbury", "Upminster",
          "Varley", "Westcombe", "Yarrow", "Zennor", "Ashcombe", "Brackwell", "Calderbrook",
          "Dunwich", "Eskdale", "Foxborough", "Greystoke", "Hexley", "Ivydale", "Jedburgh",
          "Kirkwall", "Lindmoor", "Milbourne")
FORMS = ("University of {}", "{} University", "{} Institute of Technology")
SCORES = ("teaching", "research", "citations", "industry", "international")
SCORE_LABELS = {"overall": "Overall", "teaching": "Teaching", "research": "Research",
                "citations": "Citations", "industry": "Industry income",
                "international": "International outlook"}
WEIGHTS = {"teaching": 0.3, "research": 0.3, "citations": 0.3, "industry": 0.05,
           "international": 0.05}


@dataclass(frozen=True)
class University:
    name: str
    country: str
    scores: dict[str, float]  # the five pillars and "overall", one decimal

    @property
    def key(self) -> str:
        return slug(self.name)


def names() -> list[tuple[str, str]]:
    """The same 100 (name, country) pairs for every seed, so task wording never changes."""
    rng = random.Random("rankings:names")
    combos = [form.format(place) for place in PLACES for form in FORMS]
    return [(name, rng.choice(COUNTRIES)) for name in rng.sample(combos, 100)]


def generate(rng: random.Random) -> list[University]:
    """Universities in rank order (overall score, highest first)."""
    out = []
    for name, country in names():
        scores = {k: round(rng.uniform(30, 99), 1) for k in SCORES}
        scores["overall"] = round(sum(scores[k] * w for k, w in WEIGHTS.items()), 1)
        out.append(University(name, country, scores))
    return sorted(out, key=lambda u: (-u.scores["overall"], u.name))
