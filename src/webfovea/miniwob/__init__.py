"""MiniWoB++ on webfovea: the `miniwob` package's task pages served on loopback, episodes
started through the page's own API, the normal round trip, rewards read from the page."""

# The model spec of the reference policy (webfovea.miniwob.models.MiniwobOracle); here so
# the command line can name it without importing the browser side.
ORACLE = "miniwob-oracle"
