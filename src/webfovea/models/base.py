"""The model interface: one request in, one reply text out.

A request is provider-neutral (a system text and a list of turns holding text
and images); each client translates it to its wire format. Clients raise only
:class:`webfovea.errors.ModelError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable


@dataclass(frozen=True)
class SentImage:
    """An image exactly as sent to the model: PNG bytes and their measured size."""

    png: bytes
    width: int
    height: int
    label: str = ""


@dataclass(frozen=True)
class Turn:
    role: Literal["user", "assistant"]
    text: str
    images: tuple[SentImage, ...] = ()


@dataclass(frozen=True)
class ModelRequest:
    system: str
    turns: tuple[Turn, ...]
    max_tokens: int = 1024
    # Context the harness knows but a real model would only see in the text or
    # image (the oracle reads the task and image sizes from here instead of OCR).
    task: str = ""


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0
    retries: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.calls += other.calls
        self.retries += other.retries


@dataclass(frozen=True)
class ModelReply:
    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""


@runtime_checkable
class Model(Protocol):
    """Anything that answers a request with reply text."""

    name: str

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        """Answer within ``timeout`` seconds or raise ModelError."""
        ...

    async def aclose(self) -> None:
        ...
