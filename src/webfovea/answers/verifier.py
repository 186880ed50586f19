"""The independent verifier: one fresh-context request per candidate answer.

It sees only the task, the page where the answer was given (screenshot and a text excerpt),
the candidate answer and the grounding result, never the agent's history, and replies with a
verdict and a reason. A provider error, a timeout or a reply without a verdict is a verifier
``error``: recorded with its cause, never taken for acceptance.
"""

from __future__ import annotations

import asyncio
import re
import time

from ..browser.capture import downsample
from ..core.config import Size, VerifierConfig
from ..core.errors import ConfigError, ModelError
from ..models.base import ModelRequest, SentImage, Turn, Usage
from ..models.loader import load_model
from ..rundir.trajectory import CallVerdict, GroundingRecord, UsageRecord, VerifierCall
from .excerpt import excerpt

EXCERPT_CHARS = 4000
MAX_TOKENS = 400
SYSTEM = """You are an independent verifier of a web agent's answer. You took no part in the task.
Judge only from what you are shown: the task, the screenshot of the page where the agent gave its
answer, an excerpt of that page's text, the candidate answer and the harness's grounding check
(whether the answer's numbers, dates and names appear in text the agent saw). Reject an answer the
evidence does not show, or one read from the wrong row, column, table, year, unit or page.
Reply with exactly two lines:
Verdict: accept   (or: Verdict: reject)
Reason: <one sentence>"""
_VERDICT = re.compile(r"^\W*verdict\W*[:=]\W*(accept|reject)(?:ed)?\b", re.I | re.M)
_REASON = re.compile(r"^\W*reason\W*[:=]\s*(.+)$", re.I | re.M)


def request(*, task: str, answer: str, grounding: GroundingRecord, url: str, page_text: str,
            evidence: SentImage | None) -> ModelRequest:
    text = (f"Task: {task}\nCandidate answer: {answer}\n"
            f"Grounding check: {grounding.status.replace('_', ' ')}: {grounding.note}\n"
            f"Page: {url}\nPage text (excerpt):\n{excerpt(page_text, answer, EXCERPT_CHARS)}")
    images = (evidence,) if evidence is not None else ()
    return ModelRequest(system=SYSTEM, turns=(Turn("user", text, images),),
                        max_tokens=MAX_TOKENS, task=task)


def evidence_image(png: bytes | None, cap: Size | None) -> SentImage | None:
    if png is None:
        return None
    small, size, _ = downsample(png, cap)
    return SentImage(small, size.width, size.height, label="evidence")


def parse_verdict(text: str) -> tuple[CallVerdict, str]:
    """(accept | reject | error, reason) from the verifier's reply."""
    m = _VERDICT.search(text)
    if m is None:
        return "error", f"malformed verdict (no 'Verdict: accept|reject' line): {text[:200]!r}"
    reason = _REASON.search(text)
    verdict: CallVerdict = "accept" if m.group(1).lower() == "accept" else "reject"
    return verdict, reason.group(1).strip() if reason else ""


async def verify(config: VerifierConfig, req: ModelRequest, *, step: int, answer: str,
                 timeout: float) -> VerifierCall:
    """Ask the verifier once; every failure becomes an ``error`` call naming its cause."""
    started = time.monotonic()
    usage, reply_text, name = Usage(), "", config.model
    verdict: CallVerdict
    limit = max(1.0, min(config.timeout, timeout))
    try:
        model = load_model(config.model, base_url=config.base_url, timeout=limit)
    except ConfigError as e:
        return VerifierCall(step=step, answer=answer, verdict="error", model=name,
                            reason=f"verifier not usable: {e}")
    try:
        reply = await asyncio.wait_for(model.complete(req, timeout=limit), limit)
        usage, reply_text, name = reply.usage, reply.text, reply.model or name
        verdict, reason = parse_verdict(reply.text)
    except asyncio.TimeoutError:
        verdict, reason = "error", f"the verifier did not answer within {limit:g} s"
    except ModelError as e:
        verdict, reason = "error", f"the verifier could not be reached: {e}"
    finally:
        await model.aclose()
    return VerifierCall(step=step, answer=answer, verdict=verdict,
                        reason=reason, reply=reply_text, model=name,
                        seconds=round(time.monotonic() - started, 3),
                        usage=usage_record(usage, config))


def usage_record(usage: Usage, config: VerifierConfig) -> UsageRecord:
    price = config.price
    cost = None if price is None else price.cost(
        input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens)
    return UsageRecord(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                       cache_read_tokens=usage.cache_read_tokens,
                       cache_write_tokens=usage.cache_write_tokens, calls=usage.calls,
                       retries=usage.retries, cost=cost)
