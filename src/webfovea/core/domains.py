"""Which URLs a task's top-level navigations may reach (the domain lock's rule; no browser here).

A task stays on its entry URL's *site*: the registrable domain (eTLD+1, from the
public suffix list bundled with tldextract — never fetched) and its subdomains,
plus the ``--allow-domain`` list, minus the hosts a run refuses outright (the search
engines of the WebRetriever Challenge's preset: refused even where the site or the allow
list would let them through, the entry URL included). IP addresses and single-label hosts
(``localhost``) are sites of their own; a host under a suffix the list does not
know (``shop.fovea.test``) takes its last label as the suffix, as Chromium does.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .errors import ConfigError

if TYPE_CHECKING:
    from tldextract import TLDExtract


@cache
def _extractor() -> TLDExtract:
    # Imported on first use: tldextract brings requests and urllib3 (about a third of the
    # command line's start-up), and most commands never ask for a site.
    import tldextract

    # suffix_list_urls=() → the bundled snapshot only: the harness must not fetch anything.
    # Private suffixes (github.io, …) count, so two users' pages are two sites.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None,
                                 include_psl_private_domains=True)

WEB_SCHEMES = frozenset({"http", "https"})


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def site_of(host: str) -> str:
    """The site a host belongs to: ``www.shop.example.co.uk`` → ``example.co.uk``."""
    host = host.lower().rstrip(".")
    if _is_ip(host):
        return host
    parts = _extractor()(host)
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix:
        return host  # the host is itself a public suffix (github.io): only itself
    return ".".join(host.split(".")[-2:])


def normalise_domain(text: str) -> str:
    """An ``--allow-domain`` entry as a bare lower-case host; ConfigError when it is not one.

    Accepts ``example.com``, ``.example.com``, ``*.example.com`` or a URL.
    """
    raw = text.strip()
    candidate = raw.lower()
    if "://" in candidate:
        candidate = urlsplit(candidate).hostname or ""
    candidate = candidate.removeprefix("*.").removeprefix(".").rstrip(".")
    if not candidate or any(c in candidate for c in "/:@ \t*?#") or ".." in candidate:
        raise ConfigError(f"--allow-domain needs a domain name such as example.com, got {text!r}")
    return candidate


def _host_matches(host: str, domain: str) -> bool:
    return host == domain or host.endswith("." + domain)


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


@dataclass(frozen=True)
class DomainPolicy:
    """The entry URL plus the domains (entry site first) top-level documents may come from."""

    entry_url: str
    domains: tuple[str, ...]
    blocked: tuple[str, ...] = ()  # hosts (and their subdomains) never reached
    blocked_why: str = "refused in this run"  # what the verdict says about one of them

    @classmethod
    def for_task(cls, entry_url: str, allow_domains: tuple[str, ...] = (), *,
                 block_domains: tuple[str, ...] = (),
                 block_reason: str = "refused in this run") -> DomainPolicy:
        host = urlsplit(entry_url).hostname
        own = (site_of(host),) if host else ()
        extra = tuple(normalise_domain(d) for d in allow_domains)
        return cls(entry_url, tuple(dict.fromkeys(own + extra)),
                   tuple(normalise_domain(d) for d in block_domains), block_reason)

    def verdict(self, url: str) -> str | None:
        """None when a top-level document may load ``url``; else why not, as a short clause.

        ``""`` is a tab that has not loaded anything yet, like ``about:blank``.
        """
        if url in ("", "about:blank") or url.startswith(("about:blank#", "about:blank?")):
            return None
        parts = urlsplit(url)
        host = (parts.hostname or "").rstrip(".").lower()
        if any(_host_matches(host, d) for d in self.blocked):
            return f"{host} is {self.blocked_why}"
        if _same_url(url, self.entry_url):
            return None
        scheme = parts.scheme.lower()
        if scheme == "blob":  # blob:https://host/uuid belongs to the origin inside it
            return self.verdict(url[len("blob:"):])
        if scheme not in WEB_SCHEMES:
            return f"{scheme or 'scheme-less'}: pages are not allowed"
        if any(_host_matches(host, d) for d in self.domains):
            return None
        return f"it would leave {self.describe()}"

    def describe(self) -> str:
        """The allowed sites in words, for notes."""
        if not self.domains:
            return "the entry page"
        if len(self.domains) == 1:
            return f"the site {self.domains[0]}"
        return f"the sites {', '.join(self.domains)}"
