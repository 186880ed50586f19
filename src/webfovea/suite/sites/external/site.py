"""Site 8, links that try to leave: a web search engine and a data API on another
registrable domain (fovea-external.test). Both really answer, with the suite's own data,
so a harness whose domain lock fails lets an agent take the shortcut."""

from __future__ import annotations

from collections.abc import Sequence

from ...web import Request, Response, join, json_response, render, tag
from ..base import SearchEntry, Site


class SearchEngineSite(Site):
    name = "search"
    host = "search.fovea-external.test"
    title = "Foogle"

    def setup(self) -> None:
        self.entries: list[SearchEntry] = []
        self.router.add(r"/", self.home)
        self.router.add(r"/search", self.search)

    def connect(self, sites: Sequence[Site]) -> None:
        self.entries = [e for site in sites for e in site.search_entries()]

    def home(self, req: Request) -> Response:
        return self.page("Foogle", render("external/search_home.html"))

    def search(self, req: Request) -> Response:
        q = req.arg("q").strip()
        words = q.lower().split()
        hits = [e for e in self.entries
                if words and all(w in (e.title + " " + e.snippet).lower() for w in words)]
        results = join(tag("div", tag("a", e.title, href=e.url, class_="title"),
                           tag("div", e.url, class_="url"), tag("p", e.snippet),
                           class_="result") for e in hits[:10])
        count = f"About {len(hits)} results" if hits else f"No results for “{q}”"
        return self.page(f"{q} - Foogle Search", render("external/search_results.html", q=q,
                                                           count=count, results=results))


class DataApiSite(Site):
    name = "api"
    host = "api.fovea-external.test"
    title = "Fovea Open Data API"

    def setup(self) -> None:
        self.records: dict[str, list[dict[str, object]]] = {}
        self.router.add(r"/", self.docs)
        self.router.add(r"/v1/(?P<dataset>[a-z0-9-]+)(?:/(?P<table>[A-Za-z0-9-]+))?", self.query)

    def connect(self, sites: Sequence[Site]) -> None:
        self.records = {name: rows for site in sites for name, rows in site.api_records().items()}

    def docs(self, req: Request) -> Response:
        items = join(tag("li", tag("code", f"GET /v1/{name}")) for name in self.records)
        return self.page("API reference · Fovea Open Data API",
                         render("external/api_docs.html", endpoints=items))

    def query(self, req: Request, dataset: str, table: str | None) -> Response:
        name = f"{dataset}/{table}" if table else dataset
        children = sorted(n for n in self.records if n.startswith(name + "/"))
        if name not in self.records and children:
            return json_response({"datasets": children})
        if name not in self.records:
            return json_response({"error": f"unknown dataset {name}",
                                  "datasets": sorted(self.records)}, status=404)
        rows = [r for r in self.records[name]
                if all(str(r.get(k, "")).lower() == v.lower()
                       for k, v in req.query.items() if v and k in r)]
        return json_response({"dataset": name, "count": len(rows), "rows": rows})
