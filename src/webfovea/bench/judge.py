"""The optional model judge: is a free-form answer semantically the reference answer?

Off unless asked for (``--judge SPEC``); the run records the judge's spec and every
verdict it decided says so.
"""

from __future__ import annotations

import re

from ..core.errors import ModelError
from ..models.base import Model, ModelRequest, Turn

SYSTEM = (
    "You grade answers to web retrieval questions. Say whether the candidate answer states "
    "the same answer as the reference answer. Formatting, wording, units written differently "
    "and extra explanation do not matter; a different value, entity or date does. "
    "Reply with exactly one word: YES or NO."
)


class Judge:
    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = model.name

    async def equivalent(self, *, question: str, reference: str, answer: str,
                         timeout: float = 60.0) -> bool:
        """The judge's yes or no; ModelError when it cannot be asked or its reply is not one."""
        text = (f"Question: {question}\nReference answer: {reference}\n"
                f"Candidate answer: {answer}\nSame answer? Reply YES or NO.")
        request = ModelRequest(system=SYSTEM, turns=(Turn("user", text),), max_tokens=8,
                               task=question)
        reply = await self.model.complete(request, timeout=timeout)
        word = re.match(r"\W*(\w+)", reply.text)
        verdict = word.group(1).lower() if word else ""
        if verdict not in ("yes", "no"):
            raise ModelError(f"the judge replied {reply.text[:60]!r} instead of YES or NO")
        return verdict == "yes"

    async def aclose(self) -> None:
        await self.model.aclose()
