"""What kind of page an answer was given on: an ordinary page, or a CAPTCHA, login wall,
error or blocked page, which cannot show the answer to a question about the site.

Titles are always read; the page's text only when it is short (an interstitial says little),
so an article that mentions "captcha" or "404" is not taken for one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..browser.capture import FrameText
from ..rundir.trajectory import PageKind

SHORT_PAGE_CHARS = 2500

_SIGNS: tuple[tuple[PageKind, str, re.Pattern[str]], ...] = (
    ("captcha", "a CAPTCHA or browser check", re.compile(
        r"captcha|i'?m not a robot|i am not a robot|are you a robot|verify (?:that )?you are "
        r"(?:a )?human|checking your browser|confirm (?:that )?you are a (?:person|human)|"
        r"unusual traffic|press and hold|security check", re.I)),
    ("login", "a login wall", re.compile(
        r"(?:sign|log) ?in to (?:continue|view|see|access)|please (?:sign|log) ?in|"
        r"login required|you must be (?:signed|logged) in|members only", re.I)),
    ("blocked", "an access-denied page", re.compile(
        r"access denied|403 forbidden|you have been blocked|request (?:was )?blocked|"
        r"access to this page has been denied", re.I)),
    ("error", "an error page", re.compile(
        r"404 not found|error 404|404 error|page not found|not found on this server|"
        r"500 internal server error|502 bad gateway|503 service unavailable|this site can.t be reached|"
        r"\berr_[a-z_]+\b|something went wrong", re.I)),
)
_CHALLENGE_FRAMES = re.compile(r"captcha|challenges\.cloudflare\.com|arkoselabs", re.I)


@dataclass(frozen=True)
class PageVerdict:
    kind: PageKind
    reason: str = ""


def classify(title: str, frames: Sequence[FrameText]) -> PageVerdict:
    """The kind of the page whose title and frame texts are given."""
    text = "\n".join(f.text for f in frames)
    short = len(text) <= SHORT_PAGE_CHARS
    for kind, what, pattern in _SIGNS:
        m = pattern.search(title) or (pattern.search(text) if short else None)
        if m is not None:
            return PageVerdict(kind, f"the page looks like {what} ('{m.group(0)}')")
    for frame in frames:
        if frame.frame and _CHALLENGE_FRAMES.search(frame.frame):
            return PageVerdict("captcha", f"the page embeds a challenge frame ({frame.frame})")
    return ORDINARY


ORDINARY = PageVerdict("ok")
