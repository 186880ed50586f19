"""``webfovea mcp``'s options as one validated value (no browser, no SDK imported here)."""

from __future__ import annotations

import argparse
import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..console.options import parse_budgets, site_options
from ..core.config import DEFAULT_ACTION_BUDGETS, AgentConfig, BrowserConfig, Size
from ..core.domains import WEB_SCHEMES
from ..core.errors import ConfigError

# Below what MCP hosts' model providers resize (about 1.15 megapixels, 1568 px a side), so
# the image the client's model sees is, as a rule, the image the server declares.
DEFAULT_IMAGE_CAP = Size(1280, 720)
DEFAULT_OUT = Path("runs/mcp")


@dataclass(frozen=True)
class HttpAddress:
    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> HttpAddress:
        """``127.0.0.1:PORT`` (or ``[::1]:PORT``, ``localhost:PORT``): loopback only; port 0
        takes a free one (the server prints its URL on standard error)."""
        host, sep, port = text.strip().rpartition(":")
        host = host.strip("[]")
        if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
            raise ConfigError(f"--http takes HOST:PORT such as 127.0.0.1:8765, got {text!r}")
        if not _loopback(host):
            raise ConfigError(f"--http serves on loopback only (127.0.0.1, ::1 or localhost), "
                              f"got {host!r}: the server drives a browser for whoever connects")
        return cls(host, int(port))

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/mcp"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServeSettings:
    """What every MCP session of one server runs with."""

    agent: AgentConfig
    browser: BrowserConfig
    out: Path = DEFAULT_OUT
    url: str | None = None  # the entry page; None: the client's first open(url) names it
    http: HttpAddress | None = None  # None: stdio

    @classmethod
    def from_args(cls, ns: argparse.Namespace) -> ServeSettings:
        url = ns.url
        if url is not None and urlsplit(url).scheme.lower() not in WEB_SCHEMES:
            raise ConfigError(f"--url must be an http(s) URL, got {url!r}")
        cap = None if ns.image_cap.lower() == "none" else Size.parse(ns.image_cap,
                                                                     flag="--image-cap")
        agent = AgentConfig(max_steps=ns.max_steps, time_limit=ns.time_limit, image_cap=cap,
                            coords="image", dialect="mcp",
                            allow_domains=tuple(ns.allow_domain),
                            action_budgets={**DEFAULT_ACTION_BUDGETS,
                                            **parse_budgets(tuple(ns.budget))},
                            site=site_options(ns.record_site, ns.replay_site),
                            # The client agent ends its session when it calls finish: the
                            # answer's grounding is recorded, never sent back as a challenge.
                            grounding="record")
        rules = tuple(r.strip() for entry in ns.host_resolver_rules for r in entry.split(",")
                      if r.strip())
        browser = BrowserConfig(headless=not ns.headed, cdp_url=ns.cdp_url, downloads=False,
                                viewport=Size.parse(ns.viewport, flag="--viewport"),
                                host_rules=rules)
        http = HttpAddress.parse(ns.http) if ns.http else None
        if http and ns.record_site:  # sessions side by side would record over each other
            raise ConfigError("--record-site records one session: serve it over stdio, not --http")
        return cls(agent=agent, browser=browser, out=ns.out, url=url, http=http)
