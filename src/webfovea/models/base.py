"""The model interface: one request in, one reply text out.

A request is provider-neutral (a system text and a list of turns holding text
and images); each client translates it to its wire format. Clients raise only
:class:`webfovea.core.errors.ModelError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from webfovea.core.text import well_formed


@dataclass(frozen=True)
class SentImage:
    """An image exactly as sent to the model: PNG bytes and their measured size."""

    png: bytes
    width: int
    height: int
    label: str = ""


@dataclass(frozen=True)
class Turn:
    """One conversation turn. ``cache``: the stable prefix may end after this turn, so a
    provider with explicit prompt caching puts a breakpoint on its last block."""

    role: Literal["user", "assistant"]
    text: str
    images: tuple[SentImage, ...] = ()
    cache: bool = False


@dataclass(frozen=True)
class ModelRequest:
    system: str
    turns: tuple[Turn, ...]
    max_tokens: int = 1024
    # What the harness knows as data, so readers (the oracle, the step record) never
    # parse the prompt's wording: the task, the step number, the note on the last action.
    task: str = ""
    step: int = 0
    note: str = ""
    cache_system: bool = False  # a breakpoint after the system text
    sampling: dict[str, float] = field(default_factory=dict)  # temperature, top_p from the profile


@dataclass
class Usage:
    """Tokens as the provider reported them. ``input_tokens`` are the prompt tokens billed
    at the base rate: neither read from nor written to the prompt cache."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    calls: int = 0
    retries: int = 0
    reasoning_tokens: int = 0  # part of output_tokens (billed as output), counted apart too

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens
        self.calls += other.calls
        self.retries += other.retries
        self.reasoning_tokens += other.reasoning_tokens


@dataclass(frozen=True)
class ModelReply:
    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""

    def __post_init__(self) -> None:  # one place for every provider's reply
        object.__setattr__(self, "text", well_formed(self.text))


@runtime_checkable
class Model(Protocol):
    """Anything that answers a request with reply text."""

    name: str

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        """Answer within ``timeout`` seconds or raise ModelError."""
        ...

    async def aclose(self) -> None:
        ...
