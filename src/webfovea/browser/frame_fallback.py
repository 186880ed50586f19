"""The iframe fallback: DOM mouse events for frames that ignore browser-level input.

Some embedded widgets (Tableau-like dashboards, old framesets) do not react to the mouse
input the browser synthesizes, yet react to DOM events. When a click lands in a child
frame and nothing anywhere changed, the full DOM mouse-event sequence is dispatched to
the element at that point inside the frame. Never inside a CAPTCHA frame: solving one is
for a human, and the note says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from . import fingerprint
from .locate import Hit
from .scripts import at_point
from .session import Tabs
from .settle import settle, settle_frame

_CAPTCHA_URLS = (
    (re.compile(r"(google\.com|recaptcha\.net|gstatic\.com)/recaptcha", re.I), "reCAPTCHA"),
    (re.compile(r"hcaptcha\.com", re.I), "hCaptcha"),
    (re.compile(r"challenges\.cloudflare\.com|/turnstile/", re.I), "Cloudflare Turnstile"),
)
_CAPTCHA_TITLES = (
    (re.compile(r"recaptcha", re.I), "reCAPTCHA"),
    (re.compile(r"hcaptcha", re.I), "hCaptcha"),
    (re.compile(r"turnstile|cloudflare security challenge", re.I), "Cloudflare Turnstile"),
    (re.compile(r"captcha|verify (that )?you are (a )?human", re.I), "CAPTCHA"),
)


@dataclass(frozen=True)
class FallbackReport:
    """Phrases for the note, and what was done."""

    facts: list[str] = field(default_factory=list)
    dispatched: bool = False
    captcha: str | None = None


def captcha_kind(url: str, title: str) -> str | None:
    """Which CAPTCHA a frame is, judged by its URL and title; None if it is not one."""
    for pattern, name in _CAPTCHA_URLS:
        if pattern.search(url):
            return name
    for pattern, name in _CAPTCHA_TITLES:
        if pattern.search(title):
            return name
    return None


async def _frame_captcha(frame: Frame) -> str | None:
    """The CAPTCHA kind of the frame or of any frame around it."""
    for f in _chain(frame):
        try:
            title = await f.title()
        except PlaywrightError:
            title = ""
        kind = captcha_kind(f.url, title)
        if kind:
            return kind
    return None


def _chain(frame: Frame) -> list[Frame]:
    out = []
    current: Frame | None = frame
    while current is not None and current.parent_frame is not None:
        out.append(current)
        current = current.parent_frame
    return out


async def after_click(tabs: Tabs, hit: Hit, *, cap: float) -> FallbackReport:
    """Called right after a trusted click landed in ``hit.frame``."""
    if not hit.in_child_frame:
        return FallbackReport()
    captcha = await _frame_captcha(hit.frame)
    if captcha:
        return FallbackReport(
            [f"the frame is a {captcha} challenge, which needs a human: the harness dispatches "
             "no events inside it"], captcha=captcha)
    page = tabs.page
    await settle(tabs, cap=cap)
    await settle_frame(hit.frame, cap)
    if tabs.page is not page or tabs.events or await fingerprint.peek(tabs, hit=hit):
        return FallbackReport()  # the click worked: dispatching again would click twice
    try:
        found = await hit.frame.evaluate(at_point("dom_click"), {"x": hit.x, "y": hit.y})
    except PlaywrightError:
        return FallbackReport()
    if not found:
        return FallbackReport()
    await settle_frame(hit.frame, cap)
    return FallbackReport(
        ["mouse input alone changed nothing in the frame, so the DOM mouse events (pointerdown, "
         "mousedown, pointerup, mouseup, click) were dispatched to the element there"],
        dispatched=True)
