"""Reading numbers, dates and text the way answers are compared, and the typed answer
matcher (:mod:`answer`: correct, wrong or undecided, with the rule that decided): shared by
the bench's scorer and answer grounding (webfovea.answers), which both sit above it."""
