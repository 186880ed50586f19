"""``webfovea export``: run directories as a training set (webfovea.research.examples).

``openai-jsonl``: ``train.jsonl``, one chat per line in the fine-tuning format (system,
the turns as sent with the images inline as data URLs, the reply as the assistant's last
message), and ``metadata.jsonl`` beside it, line for line (the fine-tuning format takes
nothing but ``messages``). ``hf``: ``data/train-00000.parquet`` that
``datasets.load_dataset("parquet", data_dir=OUT)`` loads: ``messages`` with ``{"type":
"image"}`` placeholders in order, ``images`` (an Image feature, the PNG bytes as sent),
``target`` and the same metadata as columns. Both declare the coordinate space and the
image size of every example.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from ..core.errors import ConfigError
from ..models.base import ModelRequest, SentImage
from ..models.openai_compat import to_messages
from .examples import Example, LeftOut, examples

Format = Literal["hf", "openai-jsonl"]
FORMATS: tuple[Format, ...] = ("hf", "openai-jsonl")


@dataclass(frozen=True)
class Exported:
    examples: int
    tasks: int
    bytes: int
    unfaithful: int  # examples whose rebuilt text differs from the recorded one
    files: tuple[Path, ...]
    left_out: tuple[LeftOut, ...] = ()  # steps whose request carried a missing/unreadable image


def export(run_dirs: list[Path], out: Path, *, fmt: Format, only_correct: bool = False
           ) -> Exported:
    if fmt not in FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    out.mkdir(parents=True, exist_ok=True)
    found = list(examples(run_dirs, only_correct=only_correct))
    chosen = [e for e in found if isinstance(e, Example)]
    files = _openai(chosen, out) if fmt == "openai-jsonl" else _hf(chosen, out)
    return Exported(len(chosen), len({(e.run, e.task_id, e.trial) for e in chosen}),
                    sum(f.stat().st_size for f in files),
                    sum(1 for e in chosen if e.faithful is False), files,
                    tuple(e for e in found if isinstance(e, LeftOut)))


def metadata(e: Example) -> dict[str, Any]:
    return {"id": e.id, "run": e.run, "task_id": e.task_id, "trial": e.trial, "step": e.step,
            "status": e.status, "correct": e.correct, "coords": e.coords,
            "image_width": e.image_size[0], "image_height": e.image_size[1],
            "model_width": e.model_size[0], "model_height": e.model_size[1],
            "faithful": e.faithful}


def chat(e: Example) -> list[dict[str, Any]]:
    """The chat-completions messages as sent (redacted), the reply appended."""
    messages: list[Any] = to_messages(_redacted(e.request, e))
    return [*messages, {"role": "assistant", "content": e.redact(e.target)}]


def _redacted(request: ModelRequest, e: Example) -> ModelRequest:
    turns = tuple(replace(t, text=e.redact(t.text), images=tuple(
        replace(i, label=e.redact(i.label)) for i in t.images)) for t in request.turns)
    return replace(request, system=e.redact(request.system), turns=turns)


def _openai(chosen: Iterable[Example], out: Path) -> tuple[Path, ...]:
    train, meta = out / "train.jsonl", out / "metadata.jsonl"
    with train.open("w", encoding="utf-8") as t, meta.open("w", encoding="utf-8") as m:
        for e in chosen:
            t.write(json.dumps({"messages": chat(e)}, ensure_ascii=False) + "\n")
            m.write(json.dumps(metadata(e), ensure_ascii=False) + "\n")
    return train, meta


def hf_messages(e: Example) -> tuple[list[dict[str, Any]], list[SentImage]]:
    """Messages in the Hugging Face chat-template form (content parts, images as
    placeholders) and the images in the order of their placeholders."""
    request = _redacted(e.request, e)
    messages: list[dict[str, Any]] = [{"role": "system", "content": [_text(request.system)]}]
    images: list[SentImage] = []
    for turn in request.turns:
        parts = [_text(turn.text)] if turn.text else []
        for image in turn.images:
            if image.label:
                parts.append(_text(image.label))
            parts.append({"type": "image", "text": None})
            images.append(image)
        messages.append({"role": turn.role, "content": parts})
    messages.append({"role": "assistant", "content": [_text(e.redact(e.target))]})
    return messages, images


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _hf(chosen: list[Example], out: Path) -> tuple[Path, ...]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("--format hf needs pyarrow: pip install 'webfovea[research]'"
                          ) from None
    rows: list[dict[str, Any]] = []
    for e in chosen:
        messages, images = hf_messages(e)
        rows.append({**metadata(e), "messages": messages, "target": e.redact(e.target),
                     "images": [{"bytes": i.png, "path": f"{e.id}.{n}.png"}
                                for n, i in enumerate(images)]})
    part = pa.struct([("type", pa.string()), ("text", pa.string())])
    schema = pa.schema([
        *[(k, pa.string()) for k in ("id", "run", "task_id")], ("trial", pa.int64()),
        ("step", pa.int64()), ("status", pa.string()), ("correct", pa.bool_()),
        ("coords", pa.string()), ("image_width", pa.int64()), ("image_height", pa.int64()),
        ("model_width", pa.float64()), ("model_height", pa.float64()),
        ("faithful", pa.bool_()),
        ("messages", pa.list_(pa.struct([("role", pa.string()),
                                         ("content", pa.list_(part))]))),
        ("target", pa.string()),
        ("images", pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))),
    ], metadata={"huggingface": json.dumps({"info": {"features": _FEATURES}})})
    path = out / "data" / "train-00000.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return (path,)


def _value(dtype: str) -> dict[str, str]:
    return {"dtype": dtype, "_type": "Value"}


# The columns' Hugging Face features, so `datasets` decodes `images` as images.
_FEATURES: dict[str, Any] = {
    **{k: _value("string") for k in ("id", "run", "task_id")},
    "trial": _value("int64"), "step": _value("int64"), "status": _value("string"),
    "correct": _value("bool"), "coords": _value("string"),
    "image_width": _value("int64"), "image_height": _value("int64"),
    "model_width": _value("float64"), "model_height": _value("float64"),
    "faithful": _value("bool"),
    "messages": [{"role": _value("string"),
                  "content": [{"type": _value("string"), "text": _value("string")}]}],
    "target": _value("string"),
    "images": [{"_type": "Image"}],
}
