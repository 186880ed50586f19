"""Reading numbers, dates and text the way answers are compared: shared by the bench's scorer
and answer grounding (webfovea.answers), which both sit above it."""
