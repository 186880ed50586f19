"""Reading a WACZ (Web Archive Collection Zipped, spec 1.1.1): a zip holding the crawl's
WARCs under ``archive/``, its pages under ``pages/*.jsonl`` and ``datapackage.json``
naming every file with its sha256. The WARCs are read by warc_import."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from .capture import Read, Skipped
from .warc_import import WarcReader

DATAPACKAGE = "datapackage.json"


def read_wacz(path: Path) -> Read:
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as e:
        raise ConfigError(f"{path} is not a WACZ (not a zip file): {e}") from e
    with zf:
        names = set(zf.namelist())
        if DATAPACKAGE not in names:
            raise ConfigError(f"{path} is not a WACZ: it has no {DATAPACKAGE}")
        read = Read(kind="wacz")
        package = _json(zf, DATAPACKAGE, path)
        _check_hashes(zf, package, read)
        reader = WarcReader(read)
        warcs = sorted(n for n in names if n.startswith("archive/")
                       and n.endswith((".warc", ".warc.gz")))
        if not warcs:
            raise ConfigError(f"{path} holds no WARC under archive/")
        for name in warcs:
            with zf.open(name) as stream:
                reader.feed(stream, f"{path.name}/{name}")
        for name in sorted(n for n in names if n.startswith("pages/") and n.endswith(".jsonl")):
            read.pages += _pages(zf.read(name))
        reader.finish()
    return read


def _json(zf: zipfile.ZipFile, name: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(zf.read(name))
    except ValueError as e:
        raise ConfigError(f"{path}: {name} is not JSON: {e}") from e
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: {name} is not a JSON object")
    return data


def _check_hashes(zf: zipfile.ZipFile, package: dict[str, Any], read: Read) -> None:
    """Files whose content does not match datapackage.json are listed, not refused."""
    for resource in package.get("resources") or []:
        name, expected = resource.get("path", ""), str(resource.get("hash", ""))
        algorithm, _, digest = expected.partition(":")
        if not name or algorithm not in ("sha256", "md5") or name not in zf.namelist():
            continue
        actual = hashlib.new(algorithm, zf.read(name)).hexdigest()
        if actual != digest:
            read.skipped.append(Skipped(name, f"its {algorithm} differs from "
                                              f"{DATAPACKAGE}'s (the file changed)"))


def _pages(data: bytes) -> list[str]:
    """The URLs of a pages.jsonl (its first line is a header with ``format``)."""
    urls = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and "url" in item:
            urls.append(str(item["url"]))
    return urls
