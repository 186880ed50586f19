"""What every renderer of the reference policy shares (:mod:`.renderers` registers them,
:mod:`.native_renderers` holds the native protocols' ones): the key the oracle's clients
send, what a renderer reads off a request, and the renderer's interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ...actions.registry import Action
from ...models.base import Model
from .fake_provider import FakeProvider
from .fake_tools import FakeReply
from .fake_wire import FakeRequest, Provider

FAKE_KEY = "fake-key"


@dataclass(frozen=True)
class Seen:
    task: str
    step: int  # 1: a new task
    note: str  # what the last result (or feedback) said
    width: int  # the image the model answers about, as received
    height: int


def seen_in(request: FakeRequest, first_text: str, step: int, note: str) -> Seen:
    """What the request shows: the task from the first user text ("Task: …" up to the first
    blank line), the step, the note and the size of the last image as received."""
    image = request.images[-1]
    task = first_text.removeprefix("Task: ").split("\n\n", 1)[0]
    return Seen(task, step, note, image.width, image.height)


class Renderer(Protocol):
    provider: Provider

    def seen(self, request: FakeRequest) -> Seen: ...

    def render(self, action: Action, thought: str) -> FakeReply: ...

    def client(self, fake: FakeProvider) -> Model: ...
