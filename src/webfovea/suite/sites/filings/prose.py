"""Plausible, seeded filler prose for long filing documents."""

from __future__ import annotations

import random

SUBJECTS = ("The board", "Management", "The group", "Our operations team", "The company",
            "The audit committee", "The executive team", "Our engineering division")
VERBS = ("continued to review", "made progress on", "completed an assessment of",
         "remained focused on", "invested further in", "reported regularly on",
         "strengthened its oversight of", "set new targets for")
OBJECTS = ("grid connection agreements", "maintenance of generating assets",
           "health and safety performance", "long-term supply contracts",
           "the replacement of ageing turbines", "customer service standards",
           "its hedging policy", "the digital metering programme", "network resilience",
           "procurement controls", "workforce training", "community engagement")
TAILS = ("during the period", "in line with the strategy set out last year",
         "following consultation with stakeholders", "as described in the previous section",
         "with the support of external advisers", "across all regions",
         "ahead of the regulatory deadline", "in a challenging market")

SECTIONS = ("Chair's statement", "Strategy and business model", "Market review",
            "Principal risks", "Corporate governance", "Directors' remuneration",
            "Operational review", "Financial review", "Sustainability",
            "Independent auditor's report")


def paragraph(rng: random.Random, sentences: int = 5) -> str:
    return " ".join(f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
                    f"{rng.choice(TAILS)}." for _ in range(sentences))
