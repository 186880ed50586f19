"""MiniWoB++ on webfovea: the `miniwob` package's task pages served on loopback, episodes
started through the page's own API, the normal round trip, rewards read from the page."""
