"""Issue 4: the guardrails' rules without a browser (sites, hotkeys, repeats, budgets); answer
grounding is tested in test_answers.py.

The browser side (domain lock, the whole loop) is in test_guard_browser.py.
"""

from __future__ import annotations

import time

import pytest

from webfovea.actions.hotkeys import blacklisted
from webfovea.actions.registry import Action, Point
from webfovea.core.config import AgentConfig
from webfovea.core.domains import DomainPolicy, normalise_domain, site_of
from webfovea.core.errors import ConfigError
from webfovea.loop.guard import Guard
from webfovea.loop.repeats import RepeatDetector


@pytest.mark.parametrize(("host", "site"), [
    ("www.example.com", "example.com"),
    ("a.b.example.co.uk", "example.co.uk"),  # a multi-label public suffix
    ("alice.github.io", "alice.github.io"),  # a private suffix: each user is a site
    ("github.io", "github.io"),
    ("EXAMPLE.com.", "example.com"),
    ("127.0.0.1", "127.0.0.1"),
    ("::1", "::1"),
    ("localhost", "localhost"),
    ("shop.fovea.test", "fovea.test"),  # unknown suffix: the last label, as Chromium does
])
def test_site_of(host: str, site: str) -> None:
    assert site_of(host) == site


ENTRY = "https://www.shop.example.com/start?q=1"


@pytest.mark.parametrize("url", [
    ENTRY, "https://shop.example.com/other", "http://example.com/", "https://cdn.example.com/x",
    "about:blank", "about:blank#top", "", "blob:https://www.example.com/9f1c",
    "https://partner.org/login", "https://sso.partner.org/",
])
def test_policy_allows_the_site_and_the_allowed_domains(url: str) -> None:
    policy = DomainPolicy.for_task(ENTRY, ("partner.org",))
    assert policy.verdict(url) is None


@pytest.mark.parametrize(("url", "reason"), [
    ("https://evil.com/", "it would leave the sites example.com, partner.org"),
    ("https://example.com.evil.com/", "it would leave"),
    ("https://notexample.com/", "it would leave"),
    ("https://apartner.org/", "it would leave"),
    ("file:///etc/passwd", "file: pages are not allowed"),
    ("chrome://settings", "chrome: pages are not allowed"),
    ("view-source:https://www.example.com/", "view-source: pages are not allowed"),
    ("javascript:alert(1)", "javascript: pages are not allowed"),
    ("data:text/html,<h1>hi</h1>", "data: pages are not allowed"),
    ("blob:https://evil.com/9f1c", "it would leave"),
])
def test_policy_refuses_other_sites_and_schemes(url: str, reason: str) -> None:
    verdict = DomainPolicy.for_task(ENTRY, ("partner.org",)).verdict(url)
    assert verdict is not None and verdict.startswith(reason)


def test_ip_sites_are_exact_and_the_entry_url_always_works() -> None:
    policy = DomainPolicy.for_task("http://127.0.0.1:8000/index.html")
    assert policy.verdict("http://127.0.0.1:9999/other") is None  # ports share a site
    assert policy.verdict("http://127.0.0.2:8000/") == "it would leave the site 127.0.0.1"
    assert policy.verdict("http://localhost:8000/") is not None
    file_entry = DomainPolicy.for_task("file:///tmp/page.html")
    assert file_entry.verdict("file:///tmp/page.html") is None
    assert file_entry.verdict("file:///etc/passwd") is not None


@pytest.mark.parametrize(("text", "domain"), [
    ("Example.COM", "example.com"), ("*.example.com", "example.com"), (".example.com", "example.com"),
    ("https://docs.example.com/path", "docs.example.com"), ("127.0.0.2", "127.0.0.2"),
])
def test_allow_domain_entries_are_normalised(text: str, domain: str) -> None:
    assert normalise_domain(text) == domain


@pytest.mark.parametrize("text", ["", "  ", "example.com/path", "exa mple.com", "a..b", "*", "x:80"])
def test_bad_allow_domain_is_a_config_error(text: str) -> None:
    with pytest.raises(ConfigError, match="--allow-domain"):
        normalise_domain(text)


@pytest.mark.parametrize(("key", "why"), [
    ("ctrl w", "closes"), ("Ctrl+W", "closes"), ("cmd w", "closes"), ("ctrl shift w", "closes"),
    ("alt f4", "closes"), ("ctrl t", "opens a tab"), ("ctrl shift t", "opens a tab"),
    ("ctrl n", "opens a tab"), ("ctrl shift n", "opens a tab"), ("ctrl tab", "switches"),
    ("ctrl l", "address bar"), ("alt d", "address bar"), ("F6", "address bar"),
    ("ctrl p", "prints"), ("ctrl s", "saves"), ("f12", "developer tools"),
    ("ctrl shift i", "developer tools"), ("ctrl shift j", "developer tools"),
    ("cmd alt i", "developer tools"), ("ctrl u", "page source"), ("ctrl h", "browser page"),
    ("alt left", "go_back()"), ("f5", "reload()"), ("ctrl shift r", "reload()"),
    ("ctrl =", "zooms"),
])
def test_blacklisted_hotkeys(key: str, why: str) -> None:
    reason = blacklisted(key)
    assert reason is not None and why in reason


@pytest.mark.parametrize("key", ["ctrl a", "ctrl c", "ctrl v", "ctrl z", "ctrl f", "ctrl k",
                                 "enter", "tab", "shift tab", "escape", "ctrl enter", "pagedown",
                                 "alt", "ctrl"])
def test_page_hotkeys_are_allowed(key: str) -> None:
    assert blacklisted(key) is None


def click(x: float, y: float) -> Action:
    return Action("click", {"start_box": Point(x, y)})


def test_repeats_escalate_from_the_third_and_never_stop() -> None:
    detector = RepeatDetector()
    notes = [detector.record(click(1, 1), "no_change", ((500, 400),)) for _ in range(6)]
    assert notes[:2] == ["", ""]
    assert notes[2] == "This has had no effect 3 times; try something else."
    assert "no effect 4 times; try something else:" in notes[3]
    assert "6 times" in notes[5] and "will not work" in notes[5]


def test_repeats_tolerate_a_few_pixels_but_not_another_target() -> None:
    detector = RepeatDetector()
    for point in ((500, 400), (508, 395), (492, 410)):
        note = detector.record(click(1, 1), "no_change", (point,))
    assert "3 times" in note
    assert detector.record(click(1, 1), "no_change", ((700, 400),)) == ""


def test_a_change_clears_the_counts() -> None:
    detector = RepeatDetector()
    for _ in range(2):
        detector.record(click(1, 1), "no_change", ((500, 400),))
    detector.record(click(1, 1), "changed", ((900, 100),))
    assert detector.record(click(1, 1), "no_change", ((500, 400),)) == ""


def test_failures_count_and_unknown_outcomes_do_not() -> None:
    detector = RepeatDetector()
    fill = Action("fill", {"start_box": Point(1, 1), "content": "x"})
    assert [detector.record(fill, "error", ((10, 10),)) for _ in range(3)][-1].startswith("This")
    wait = Action("wait", {})
    assert [detector.record(wait, "unknown", ()) for _ in range(4)] == [""] * 4


def test_scrolling_that_moves_nothing_trips_the_breaker_anywhere() -> None:
    detector = RepeatDetector()
    down = [Action("scroll", {"start_box": Point(x, 300), "direction": "down"}) for x in (1, 2, 3)]
    notes = [detector.record(a, "no_change", ((x * 300, 300),)) for x, a in enumerate(down)]
    assert notes[2].startswith("Scrolling this way has had no effect 3 times; try something else")
    up = Action("scroll", {"start_box": Point(1, 300), "direction": "up"})
    assert detector.record(up, "no_change", ((300, 300),)) == ""


def test_budgets_refuse_past_the_limit_with_the_guardrail_name() -> None:
    guard = Guard(AgentConfig(action_budgets={"reload": 2}))
    reload = Action("reload", {})
    assert [guard.check(reload) for _ in range(2)] == [None, None]
    refusal = guard.check(reload)
    assert refusal is not None and refusal.guardrail == "budget:reload"
    assert "at most 2 times" in refusal.note


def test_a_refused_hotkey_names_the_blacklist_and_spends_no_budget() -> None:
    guard = Guard(AgentConfig(action_budgets={"hotkey": 1}))
    refusal = guard.check(Action("hotkey", {"key": "ctrl w"}))
    assert refusal is not None and refusal.guardrail == "hotkey_blacklist"
    assert guard.check(Action("hotkey", {"key": "ctrl a"})) is None


def test_stop_reasons() -> None:
    guard = Guard(AgentConfig(max_steps=3, time_limit=60))
    assert guard.stop_reason(2) is None
    assert guard.stop_reason(3) == "step_limit"
    late = Guard(AgentConfig(time_limit=1), started=time.monotonic() - 2)
    assert late.stop_reason(0) == "time_limit"
