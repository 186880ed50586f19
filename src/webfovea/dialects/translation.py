"""What the OpenAI and Gemini translation tables share: the result record, scroll
directions, and the sentences of the refusals a dialect makes itself (new tabs, actions
outside the closed set, the domain lock). Coordinates go through
:func:`webfovea.dialects.native.to_space`, key names through :mod:`webfovea.dialects.keys`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from ..actions.registry import Action, Direction
from ..core.domains import DomainPolicy

Guardrail = str  # "new_tab", "closed_action_set", "domain_lock": recorded as the step's guardrail


@dataclass(frozen=True)
class Translation:
    """One native call as a closed-set action; ``action`` None when it cannot run.

    ``error`` without ``guardrail``: the call is malformed (a parse-stage finding); with
    ``guardrail``: a well-formed call the dialect refuses, ``error`` being the sentence the
    model reads in the protocol's error form.
    """

    action: Action | None
    error: str | None = None
    guardrail: Guardrail | None = None


def is_number(value: object) -> TypeGuard[float]:
    """A JSON number (a bool is not one, though Python counts it as an int)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def direction_of(dx: float, dy: float) -> Direction | None:
    """The direction of a scroll distance: the larger axis wins; None for no distance."""
    if dx == 0 and dy == 0:
        return None
    if abs(dy) >= abs(dx):
        return "down" if dy > 0 else "up"
    return "right" if dx > 0 else "left"


def new_tab_refusal(what: str) -> Translation:
    return Translation(None, f"Refused: {what}, and this task stays in one tab. Use a plain left "
                             "click.", "new_tab")


def closed_set_refusal(what: str, instead: str) -> Translation:
    return Translation(None, f"Refused: {what} is not in webfovea's closed action set. Use "
                             f"{instead} instead.", "closed_action_set")


def navigation(url: str, policy: DomainPolicy | None) -> Translation:
    """A navigation the model asked for by URL: off the locked site it is the domain lock's
    refusal, said at once; on it, the ``navigate`` action (which the executor judges again)."""
    reason = policy.verdict(url) if policy is not None else None
    if reason is not None:
        return Translation(None, f"Refused by the domain lock: a navigation to {url} was blocked: "
                                 f"{reason} (--allow-domain adds a site).", "domain_lock")
    return Translation(Action("navigate", {"url": url}))


def search_refusal(policy: DomainPolicy | None) -> Translation:
    where = policy.describe() if policy is not None else "the task's site"
    return Translation(None, "Refused by the domain lock: search opens a search engine, which "
                             f"would leave {where}. Use the site's own search box instead.",
                       "domain_lock")
