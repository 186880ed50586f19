"""Checks of what the user typed, before any browser or model starts.

Each check raises :class:`ConfigError` with one sentence naming the flag, the value and
what would be accepted; the command line prints it on one line and exits 2.
"""

from __future__ import annotations

import contextlib
import math
import re
import tempfile
from argparse import Namespace
from pathlib import Path
from urllib.parse import urlsplit

from ..core.config import Size
from ..core.errors import ConfigError

WEB_SCHEMES = ("http", "https")
# A bare host such as ``example.com`` or ``example.com:8080/path`` (task files accept it too).
_BARE_HOST = re.compile(r"(localhost|[\w-]+(\.[\w-]+)+)(:\d+)?([/?#]|$)", re.IGNORECASE)
# The largest screenshot side, in device pixels: Chromium captures it and the image
# pipeline decodes it in a few seconds (20000x20000 stalls the decoder for a minute).
MAX_SIDE = 8192
MIN_SIDE = 100
MAX_SCALE = 4.0


def web_url(value: str, *, flag: str = "--url") -> str:
    """An http(s) entry URL; a bare host gets ``https://``. Other schemes are refused:
    ``file:`` would show the model local files, ``javascript:``/``data:`` run no site."""
    url = value.strip()
    if not url:
        raise ConfigError(f"{flag} is empty: give the site's address, e.g. https://example.com")
    if "://" not in url and _BARE_HOST.match(url):
        url = "https://" + url
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "file":
        raise ConfigError(f"{flag} {value!r}: file: URLs are refused (screenshots of local files "
                          "would go to the model); serve the page over http instead")
    if scheme not in WEB_SCHEMES:
        why = f"{scheme}: URLs are not allowed" if scheme else "no http:// or https://"
        raise ConfigError(f"{flag} must be an http(s) URL, got {value!r} ({why})")
    try:
        parts.port  # noqa: B018 -- raises ValueError when out of range
    except ValueError:
        raise ConfigError(f"{flag} has an invalid port: {value!r}") from None
    if not parts.hostname:
        raise ConfigError(f"{flag} names no host: {value!r}")
    return url


def text(value: str, *, flag: str) -> str:
    if not value.strip():
        raise ConfigError(f"{flag} is empty: say what the agent should do")
    return value


def out_dir(path: Path, *, flag: str = "--out") -> Path:
    """A directory we can create and write into; ConfigError naming why not.

    Found out by trying (create it, write a file in it): a read-only filesystem, ``/proc``
    or a permission are only known that way (the superuser passes ``os.access`` checks that
    the filesystem then refuses). What the check creates it removes again, so a refused
    command leaves nothing behind.
    """
    try:
        _try_to_write(path, flag)
    except OSError as error:
        raise ConfigError(f"{flag} {path} cannot be created or written "
                          f"({error.strerror or error})") from None
    return path


def _try_to_write(path: Path, flag: str) -> None:
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{flag} {path} is an existing file, not a directory")
    missing = [path, *path.parents]
    missing = missing[: next(i for i, p in enumerate(missing) if p.exists())]
    if missing and not missing[-1].parent.is_dir():
        raise ConfigError(f"{flag} {path} cannot be created: {missing[-1].parent} is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    finally:
        for created in missing:  # deepest first
            with contextlib.suppress(OSError):
                created.rmdir()


def finite(value: float, *, flag: str, low: float = 0.0, high: float = math.inf) -> float:
    """A real number in (low, high]."""
    if not math.isfinite(value) or not low < value <= high:
        bound = f"at most {high:g}" if math.isfinite(high) else "finite"
        raise ConfigError(f"{flag} must be a number above {low:g} and {bound}, got {value}")
    return value


def viewport(value: str, scale: float) -> Size:
    size = Size.parse(value, flag="--viewport")
    if min(size.width, size.height) < MIN_SIDE or \
            max(size.width, size.height) * scale > MAX_SIDE:
        raise ConfigError(f"--viewport {value} at scale {scale:g} is outside what the browser and "
                          f"the image pipeline handle: each side at least {MIN_SIDE} and at most "
                          f"{MAX_SIDE} device pixels (viewport side × --device-scale-factor)")
    return size


def base_url(value: str | None, *, flag: str = "--base-url") -> str | None:
    """A provider endpoint: http(s)://host[:port][/path]."""
    if value is None:
        return None
    parts = urlsplit(value.strip())
    if parts.scheme.lower() not in WEB_SCHEMES or not parts.netloc:
        raise ConfigError(f"{flag} must be an http(s) URL such as http://127.0.0.1:8000/v1, "
                          f"got {value!r}")
    try:
        parts.port  # noqa: B018 -- raises ValueError when out of range
    except ValueError:
        raise ConfigError(f"{flag} has an invalid port: {value!r}") from None
    if not parts.hostname:
        raise ConfigError(f"{flag} names no host: {value!r}")
    return value.strip()


def check_run_options(ns: Namespace) -> None:
    """The options ``run`` and ``bench`` share (``add_run_options``)."""
    finite(ns.time_limit, flag="--time-limit")
    finite(ns.device_scale_factor, flag="--device-scale-factor", high=MAX_SCALE)
    if ns.max_steps < 1:
        raise ConfigError(f"--max-steps must be at least 1, got {ns.max_steps}")
    viewport(ns.viewport, ns.device_scale_factor)
    base_url(ns.base_url)


def check_run(ns: Namespace) -> None:
    """Everything ``webfovea run`` was given; normalises ``ns.url`` (a bare host → https)."""
    ns.url = web_url(ns.url)
    text(ns.task, flag="--task")
    check_run_options(ns)
