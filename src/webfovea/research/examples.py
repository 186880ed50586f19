"""Each recorded step as a training example: the request as the model saw it, its reply.

The text dialect's request is rebuilt from the run directory by the very code that built it
(:func:`webfovea.prompt.build_request`): the task, the history of thoughts, actions and
notes, the screenshots as sent (``screens/``, the capped PNG), the coordinate sentence.
Where the step recorded the text it was sent (``request.turn_text``), the rebuilt one is
compared with it and the example says whether they agree (``faithful``).

A step whose request would carry a screenshot that is missing or does not decode is left
out (:class:`LeftOut`, the file named once on stderr): the example would not be the request
the model saw.

Typed secrets never leave: what was typed into a masked field (``details.masked``, a
password input) and the values of key-like environment variables are replaced in every
text by ``[redacted]``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..actions.geometry import ModelSpace
from ..core.config import AgentConfig, GrounderConfig, Size
from ..core.errors import ConfigError
from ..dialects.text.prompt import (
    HistoryItem,
    Shown,
    asks_targets,
    build_request,
    coordinate_text,
    first_shown,
)
from ..models.base import ModelRequest, SentImage
from ..rundir.images import RunImages
from ..rundir.network import known_secrets
from ..rundir.store import TaskRun, load_run
from ..rundir.trajectory import StepRecord

REDACTED = "[redacted]"
# The settings that shape the request; the rest of a recorded config does not matter here.
_REQUEST_SETTINGS = ("coords", "history", "history_images", "history_block", "max_tokens",
                     "sampling", "ablate")


@dataclass(frozen=True)
class Example:
    """One step: ``request`` as sent, ``target`` the model's reply."""

    id: str
    run: str
    task_id: str
    trial: int | None
    step: int
    status: str
    correct: bool | None
    request: ModelRequest
    target: str
    coords: str  # the model's coordinate space: image | norm1000 | smart_resize
    image_size: tuple[int, int]  # the last image as sent, in pixels
    model_size: tuple[float, float]  # the space its points are in
    faithful: bool | None  # the rebuilt turn text equals the recorded one (None: not recorded)
    secrets: tuple[str, ...] = field(default=(), repr=False)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text


@dataclass(frozen=True)
class LeftOut:
    """A step not exported: a screenshot its request carried is missing or unreadable."""

    id: str


def examples(run_dirs: list[Path], *, only_correct: bool = False
             ) -> Iterator[Example | LeftOut]:
    keys = known_secrets()
    images = RunImages()  # one for every run: each damaged file is named once
    for run_dir in run_dirs:
        for task in load_run(run_dir).tasks:
            if only_correct and not (task.score and task.score.correct):
                continue
            yield from task_examples(task, run_dir, keys, images)


def task_examples(task: TaskRun, run_dir: Path, keys: tuple[str, ...] = (),
                  images: RunImages | None = None) -> Iterator[Example | LeftOut]:
    """The task's steps as examples, the request of each rebuilt as the text dialect did."""
    config = request_config(task)
    secrets = (*typed_secrets(task), *keys)
    images = images or RunImages()
    history: list[HistoryItem] = []
    shown: list[Shown] = []
    unusable: set[int] = set()  # steps whose screenshot is missing or unreadable
    note = ""
    for rec in task.steps:
        width, height = rec.sent_size
        png = images.read(task.dir / rec.screenshot)
        if not isinstance(png, bytes):
            unusable.add(rec.step)
        # An unusable screenshot stays in the window only to leave out the steps that show it.
        image = SentImage(png if isinstance(png, bytes) else b"", width, height)
        oldest = first_shown(rec.step, config)
        shown = [s for s in [*shown, Shown(rec.step, image, coordinate_text(
            ModelSpace(*rec.model_size), width, height, config.coords,
            points=not asks_targets(config.point_forms)))] if s.step >= oldest]
        example_id = (f"{task.result.task_id}{'' if task.trial is None else f'.t{task.trial}'}"
                      f".s{rec.step:03d}")
        if any(s.step in unusable for s in shown):
            yield LeftOut(example_id)
        else:
            request = build_request(task=task.result.task, config=config, history=history,
                                    shown=shown, note=note)
            yield _example(task, rec, example_id, request, run=str(run_dir), coords=config.coords,
                           secrets=secrets)
        history.append(HistoryItem(rec.step, rec.thought, rec.action_source or "(none)",
                                   rec.note))
        note = rec.note


def _example(task: TaskRun, rec: StepRecord, example_id: str, request: ModelRequest, *,
             run: str, coords: str, secrets: tuple[str, ...]) -> Example:
    space = ModelSpace(*rec.model_size)
    recorded = rec.request.get("turn_text") if rec.request else None
    return Example(
        id=example_id, run=run, task_id=task.result.task_id, trial=task.trial, step=rec.step,
        status=task.result.status, correct=task.score.correct if task.score else None,
        request=request, target=rec.raw_reply, coords=coords, image_size=rec.sent_size,
        model_size=(space.width, space.height),
        faithful=None if recorded is None else recorded == request.turns[-1].text,
        secrets=secrets)


def request_config(task: TaskRun) -> AgentConfig:
    """The recorded settings that shape the text dialect's request."""
    recorded = task.result.config
    dialect = recorded.get("dialect", "text")
    if dialect != "text":
        raise ConfigError(f"{task.dir}: the run used the {dialect} dialect; export rebuilds "
                          "text-dialect requests only (--dialect text)")
    known = {f.name for f in dataclasses.fields(AgentConfig)}
    values: dict[str, Any] = {k: recorded[k] for k in _REQUEST_SETTINGS
                              if k in recorded and k in known}
    values["ablate"] = frozenset(values.get("ablate", ()))
    grounder = recorded.get("grounder")
    if isinstance(grounder, dict) and grounder.get("model"):  # its planner was asked for targets
        values["grounder"] = GrounderConfig(str(grounder["model"]))
    cap = recorded.get("image_cap")
    return AgentConfig(image_cap=Size.parse(cap) if cap else None, **values)


def typed_secrets(task: TaskRun) -> tuple[str, ...]:
    """What the model typed into masked fields (passwords): never exported."""
    found = {str(rec.details["typed"]).strip() for rec in task.steps
             if rec.details.get("masked") and rec.details.get("typed")}
    return tuple(sorted((s for s in found if s), key=len, reverse=True))


