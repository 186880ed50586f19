"""``OUT/network.jsonl`` end to end: a real ``webfovea bench`` run (real Chromium, the model
a real OpenAI-protocol HTTP server) on a local site that calls its own JSON API; the agent
chooses a city in the page's select and the request the page then sends holds it.

One run is read by every test: the record's fields, redaction of the headers the real server
and page set, the cap, the iframe's request, no provider request; then its readers — the
viewer's requests panel and the evidence judge's request (a second fake server, real HTTP).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from network_site import BIG_SIZE, SELECT_AT, NetworkSite, network_site
from test_bench_support import TaskPolicy, finish, provider, run_cli, write_tasks
from viewer_helpers import opened
from webfovea.browser.session import BrowserSession
from webfovea.rundir.network import (
    BODY_CAP,
    NETWORK,
    REDACTED,
    NetworkRecord,
    Redactor,
    decoded,
    known_secrets,
    post_fields,
    read_network,
    textual,
)
from webfovea.testing import FakeProvider, FakeRequest

KEY = "sk-test-network-0123456789"  # the run's OPENAI_API_KEY, which the page echoes
INSTRUCTION = "cheapest flight to Tokyo"
CHOOSE = (f"Thought: choose Tokyo.\nAction: select(start_box='({SELECT_AT[0]},{SELECT_AT[1]})', "
          "option='Tokyo')")


@dataclass
class Run:
    out: Path
    code: int
    site: NetworkSite
    provider: FakeProvider

    @property
    def task_dir(self) -> Path:
        return self.out / "tasks" / "t-flights"

    def records(self) -> list[NetworkRecord]:
        read = read_network(self.task_dir)
        assert read.bad_lines == []
        return read.records

    def one(self, path: str) -> NetworkRecord:
        found = [r for r in self.records() if path in r.url]
        assert len(found) == 1, [r.url for r in self.records()]
        return found[0]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    tmp = tmp_path_factory.mktemp("network")
    with pytest.MonkeyPatch.context() as patch, network_site(KEY) as site:
        patch.setenv("OPENAI_API_KEY", KEY)
        tasks = write_tasks(tmp / "tasks.jsonl", [
            {"id": "t-flights", "instruction": INSTRUCTION, "url": site.url,
             "answer": "09:40"}])
        policy = TaskPolicy({INSTRUCTION: [CHOOSE, finish("09:40")]})
        with provider(policy) as fp:
            code = run_cli(["bench", str(tasks), "--out", str(tmp / "run"), "--model",
                            "openai:agent", "--base-url", fp.base_url, "--viewport", "800x600",
                            "--max-steps", "4", "--time-limit", "60"])
            yield Run(tmp / "run", code, site, fp)


def test_the_search_the_agent_chose_is_recorded(run: Run) -> None:
    assert run.code == 0
    steps = [json.loads(line) for line in (run.task_dir / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["action"]["name"] == "select"
    search = run.one("/api/search")
    assert search.url.endswith("/api/search?city=tokyo&sort=price")
    assert (search.method, search.resource_type, search.status) == ("GET", "xhr", 200)
    assert search.step == 1 and search.content_type == "application/json"
    assert json.loads(search.body or "") == {"city": "tokyo", "flights": ["Tokyo 09:40 €120"]}
    assert search.body_size == len((search.body or "").encode()) and not search.body_truncated
    posted = run.one("/api/filter")
    assert (posted.method, posted.resource_type, posted.step) == ("POST", "fetch", 1)
    assert posted.post_json == {"city": "tokyo", "stops": 0}
    assert posted.post_data == '{"city":"tokyo","stops":0}'
    assert bytes.fromhex(posted.post_data_hex or "") == posted.post_data.encode()
    assert posted.headers["content-type"] == "application/json"
    assert posted.page_url == posted.frame_url == run.site.url
    assert 0 < posted.time - search.time < 5


def test_loads_before_the_first_step_are_step_zero(run: Run) -> None:
    config, ping = run.one("/api/config"), run.one("/api/ping")
    assert config.step == ping.step == 0
    assert ping.url.startswith(run.site.other) and ping.status == 200  # another origin
    assert config.post_data is None and config.post_data_hex is None
    assert "post_json" not in json.loads(_line_of(run, "/api/config"))  # only when it parsed


def test_secrets_are_redacted(run: Run) -> None:
    config = run.one("/api/config")
    assert config.headers["authorization"] == REDACTED  # the page's own header
    # The cookie the server set rides on the request as the network stack sent it.
    assert config.headers["cookie"] == REDACTED
    assert config.headers["x-echo"] == REDACTED  # the run's key, echoed in a header
    assert config.url.endswith(f"?lang=en&token={REDACTED}")  # ... in a query value
    assert json.loads(config.body or "") == {"lang": "en", "echo": REDACTED}  # ... a body
    text = (run.task_dir / NETWORK).read_text()
    for secret in (KEY, "cookie-secret-1234", "page-token-5678"):
        assert secret not in text


def test_a_body_over_the_cap_is_cut_and_said(run: Run) -> None:
    big = run.one("/api/big")
    assert big.body_truncated and big.body_size == BIG_SIZE
    assert big.body == "x" * BODY_CAP and big.content_type == "text/plain; charset=utf-8"


def test_an_iframe_request_names_its_frame(run: Run) -> None:
    inframe = run.one("/api/inframe")
    assert inframe.frame_url == f"{run.site.other}/frame.html"
    assert inframe.page_url == run.site.url and inframe.resource_type == "fetch"


def test_only_the_pages_requests_are_recorded(run: Run) -> None:
    assert run.provider.requests  # the model was asked, over HTTP...
    port = run.provider.base_url.split(":")[2].split("/")[0]
    assert all(f":{port}/" not in r.url for r in run.records())  # ... from Python, not the page
    assert {r.resource_type for r in run.records()} == {"xhr", "fetch"}  # no documents, scripts
    assert all("/__fovea/" not in r.url for r in run.records())  # nor the suite's layout reports


# -- the readers ------------------------------------------------------------------------------


async def test_the_viewer_shows_each_steps_requests(browser: BrowserSession, run: Run) -> None:
    assert run_cli(["view", str(run.out)]) == 0
    async with opened(browser, run.task_dir / "view.html") as (page, problems):
        panel = page.locator("#step-1 details.requests")
        assert await panel.locator("> summary").inner_text() == "Requests (6)"  # the loads, then
        texts = await panel.locator("li.request").all_inner_texts()  # the search, in order
        assert any("GET http://" in t and "/api/search?city=tokyo&sort=price" in t and "200" in t
                   for t in texts)
        assert any(t.startswith("POST ") and '{"city":"tokyo","stops":0}' in t for t in texts)
        assert sum("before the first step" in t for t in texts) == 4
        assert any(f"from the frame {run.site.other}/frame.html" in t for t in texts)
        body = panel.locator("li.request", has_text="/api/search").locator("details.body")
        assert not await body.get_attribute("open")  # folded until asked
        await body.locator("summary").click()
        assert "Tokyo 09:40" in await body.locator("pre").inner_text()
        big = panel.locator("li.request", has_text="/api/big")
        assert "cut at the record's cap" in await big.inner_text()
        assert "6 XHR/fetch recorded" in await page.locator("dl.facts").first.inner_text()
        assert await page.locator("#step-2 details.requests").count() == 0  # none sent in it
        assert problems == []


def test_the_evidence_judge_reads_the_sites_requests(run: Run) -> None:
    with FakeProvider(_judge_said) as judge:
        assert run_cli(["score", str(run.out), "--judge-evidence", "openai:judge",
                        "--judge-evidence-base-url", judge.base_url]) == 0
        sent = "\n".join(t.text for t in judge.requests[0].turns)
    assert "The site's API requests (XHR and fetch, 6 recorded):" in sent
    assert (f"- step 1: GET {run.site.url.removesuffix('/index.html')}"
            "/api/search?city=tokyo&sort=price -> 200 application/json") in sent
    assert 'post data: {"city":"tokyo","stops":0}' in sent
    assert 'response: {"city": "tokyo", "flights": ["Tokyo 09:40 €120"]}' in sent
    score = json.loads((run.task_dir / "score.json").read_text())
    assert score["evidence"]["verdict"] == "supported"


def test_a_damaged_record_costs_its_line_only(run: Run, tmp_path: Path) -> None:
    copy = tmp_path / "t-flights"
    shutil.copytree(run.task_dir, copy)
    with (copy / NETWORK).open("a") as fh:
        fh.write('{"time": "soon", "url": 3}\nnot json at all\n{"time": 1, "ur')
    read = read_network(copy)
    assert len(read.records) == 6 and read.bad_lines == [7, 8, 9]
    assert "lines 7, 8, 9 unreadable (skipped)" in (_page_of(copy))
    (copy / NETWORK).unlink()
    assert read_network(copy).records == [] and "XHR/fetch" not in _page_of(copy)


def _page_of(task_dir: Path) -> str:
    assert run_cli(["view", str(task_dir)]) == 0
    return (task_dir / "view.html").read_text()


def _line_of(run: Run, path: str) -> str:
    lines = (run.task_dir / NETWORK).read_text().splitlines()
    return next(line for line in lines if path in json.loads(line)["url"])


def _judge_said(request: FakeRequest) -> str:
    return "Evidence: supported\nReason: the search response lists it."


# -- redaction and bodies, on their own ---------------------------------------------------------


def test_redaction_covers_every_place_a_key_can_land(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok/en+1234 56")
    monkeypatch.setenv("GROUNDER_SECRET_HOLDER", "grounder-0123456")
    monkeypatch.setenv("SHORT_KEY", "x")  # no key: every "x" would go
    monkeypatch.setenv("PLAIN", "plain-value-123")
    secrets = known_secrets("PLAIN")
    assert {"tok/en+1234 56", "grounder-0123456", "plain-value-123"} <= set(secrets)
    assert "x" not in secrets
    r = Redactor.of(secrets)
    assert r.headers({"Cookie": "a=b", "Set-Cookie": "c=d", "Proxy-Authorization": "Basic z",
                      "X-Key": "Bearer grounder-0123456", "Accept": "x"}) == {
        "cookie": REDACTED, "set-cookie": REDACTED, "proxy-authorization": REDACTED,
        "x-key": REDACTED, "accept": "x"}
    assert r.url("https://a.test/p?k=tok%2Fen%2B1234+56&q=1") == (
        f"https://a.test/p?k={REDACTED}&q=1")  # percent-encoded, form-encoded
    fields = post_fields(b'{"key": "plain-value-123", "n": 1}', r)
    assert fields["post_json"] == {"key": REDACTED, "n": 1}
    assert b"plain-value-123" not in bytes.fromhex(fields["post_data_hex"])
    assert "post_json" not in post_fields(b'{"n": NaN}', r)  # no JSON a record may hold
    assert post_fields(b"\xff\xfe", r) == {"post_data_hex": "fffe", "post_data_truncated": False}


def test_a_cut_body_never_splits_a_character() -> None:
    text = "价格" * 10
    body, cut = decoded(text.encode("utf-8"), "application/json", cap=7)  # 2 characters and
    assert (body, cut) == ("价格", True)  # a third of another
    body, cut = decoded(text.encode("gbk"), "text/html; charset=GBK", cap=1000)
    assert (body, cut) == (text, False)
    assert textual("application/vnd.api+json") and textual("text/csv") and not textual("image/png")
