"""``--replay-site ARCHIVE``: an archive file is imported once, into a snapshot beside it.

The cache is ``<archive>.snapshot/`` next to the file. It is used again while its manifest
names the archive's sha256; an archive that changed is imported afresh.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ...core.errors import ConfigError
from ..manifest import Snapshot
from .importer import archive_kind, file_sha256, import_archive

CACHE_SUFFIX = ".snapshot"


def is_archive(path: Path) -> bool:
    try:
        archive_kind(path)
    except ConfigError:
        return False
    return path.is_file()


def cached_snapshot(archive: Path) -> Path:
    """The snapshot directory that replays ``archive``, imported now if need be."""
    cache = archive.with_name(archive.name + CACHE_SUFFIX)
    sha = file_sha256(archive)
    if (cache / "manifest.json").is_file():
        manifest = Snapshot(cache).read()
        if manifest.archive is not None and manifest.archive.sha256 == sha:
            return cache
    try:
        staging = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=archive.parent))
    except OSError as e:
        raise ConfigError(f"--replay-site: cannot import {archive} beside it ({e}); import "
                          "it with `webfovea snapshot import` into a directory you own") from e
    try:
        import_archive(archive, staging / "snapshot")
        shutil.rmtree(cache, ignore_errors=True)
        (staging / "snapshot").rename(cache)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return cache
