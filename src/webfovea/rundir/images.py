"""A run directory's images as its readers open them: decoded, or a typed reason why not.

Screenshots and evidence get damaged after the run wrote them (bit rot, a bad copy, an
imported trajectory, a file deleted by hand), and Pillow reports the damage in many ways:
``SyntaxError`` for a broken chunk, ``OSError`` for a truncated file, its own
``UnidentifiedImageError`` for an empty or foreign one, ``FileNotFoundError`` for a gone one.
Every reader (view, export, references, score --judge-evidence) asks here, so each gets the
same answer: the image, or :class:`Unreadable` saying why, and one warning line naming the
file, once, whoever asked first. What the reader then shows or leaves out is its own call.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PIL import Image, UnidentifiedImageError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
Warn = Callable[[str], None]


@dataclass(frozen=True)
class Unreadable:
    """An image a reader cannot use: ``missing`` (no such file) or ``unreadable`` (the bytes
    do not decode), with the reason in words."""

    path: Path
    kind: Literal["missing", "unreadable"]
    reason: str

    def shown(self) -> str:
        """What a page says where the image would be."""
        return "image missing" if self.kind == "missing" else f"image unreadable ({self.reason})"


def stderr_warning(line: str) -> None:
    print(f"webfovea: {line}", file=sys.stderr)


class RunImages:
    """Opens a run's images; remembers each file's verdict, so an image several parts of a
    reader look at is warned about once, and a known bad one is not read again."""

    def __init__(self, warn: Warn = stderr_warning) -> None:
        self._warn = warn
        self._verdicts: dict[Path, Unreadable | None] = {}

    def decode(self, path: Path) -> Image.Image | Unreadable:
        """The image's pixels (loaded), or why there are none."""
        found = self._verdicts.get(path) or self._judge(path)
        return found if isinstance(found, Unreadable) else found[1]

    def read(self, path: Path) -> bytes | Unreadable:
        """The file's bytes, once they are known to decode (for readers that pass the PNG
        on as it is: an embedded page, a training set, a copied reference)."""
        found = self._verdicts.get(path) or self._judge(path)
        return found if isinstance(found, Unreadable) else found[0]

    def check(self, path: Path) -> Unreadable | None:
        """None when the image decodes; else why not (decoded only when not yet known)."""
        if path in self._verdicts:
            return self._verdicts[path]
        found = self._judge(path)
        return found if isinstance(found, Unreadable) else None

    def _judge(self, path: Path) -> tuple[bytes, Image.Image] | Unreadable:
        """Read and decode the file; record the verdict, warning the first time it is bad."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            found: tuple[bytes, Image.Image] | Unreadable = Unreadable(path, "missing",
                                                                         "no such file")
        except OSError as e:  # a directory, no permission
            found = Unreadable(path, "unreadable", e.strerror or type(e).__name__)
        else:
            decoded = _decode(path, data)
            found = decoded if isinstance(decoded, Unreadable) else (data, decoded)
        verdict = found if isinstance(found, Unreadable) else None
        if verdict is not None and path not in self._verdicts:
            self._warn(f"{path}: {verdict.shown()}")
        self._verdicts[path] = verdict
        return found


def _decode(path: Path, data: bytes) -> Image.Image | Unreadable:
    """Pillow's verdict on ``data``: ``verify`` checks every chunk's checksum (bit rot that
    still happens to decompress), ``load`` the compressed stream itself."""
    if not data:
        return Unreadable(path, "unreadable", "empty file")
    try:
        with Image.open(io.BytesIO(data)) as probe:
            probe.verify()
        image = Image.open(io.BytesIO(data))
        image.load()
        return image
    except UnidentifiedImageError:
        what = "damaged PNG header" if data.startswith(PNG_SIGNATURE) else "not an image"
        return Unreadable(path, "unreadable", what)
    # Pillow's decoders raise more than OSError on hostile bytes (SyntaxError for a broken PNG
    # chunk, ValueError, EOFError, a decompression bomb's error): all mean "cannot be read".
    except Exception as e:
        return Unreadable(path, "unreadable", _plain(e))


def _plain(e: Exception) -> str:
    text = str(e).strip() or type(e).__name__
    return "truncated" if "truncated" in text.lower() else text
