"""Finding (and if need be installing) a Chromium, and the flags to launch it with.

Order: $WEBFOVEA_CHROMIUM, a system Chromium/Chrome, a Playwright-managed one;
``--ensure`` then tries ``playwright install chromium`` and, as root, apt-get.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

_SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

# Quiet, deterministic Chromium: no background traffic (this harness must not
# talk to anything but the sites under test), no first-run UI. No --disable-features here:
# Chromium keeps only the last one, and Playwright passes its own list (MediaRouter and
# OptimizationHints among them, and the ones its screenshots and routing rely on).
BASE_ARGS = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)


def launch_args(*, host_rules: tuple[str, ...] = ()) -> list[str]:
    args = list(BASE_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    if host_rules:
        args.append("--host-resolver-rules=" + ", ".join(host_rules))
    return args


def _playwright_managed() -> str | None:
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache" / "ms-playwright"))
    for pattern in ("chromium-*/chrome-linux*/chrome", "chromium_headless_shell-*/chrome-*/headless_shell"):
        found = sorted(cache.glob(pattern))
        if found:
            return str(found[-1])
    return None


def find_chromium() -> str | None:
    """Path of a usable Chromium executable, or None."""
    env = os.environ.get("WEBFOVEA_CHROMIUM")
    if env and Path(env).exists():
        return env
    for name in _SYSTEM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return _playwright_managed()


def ensure_chromium() -> str:
    found = find_chromium()
    if found:
        return found
    print("webfovea: no Chromium found; trying `playwright install chromium`", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=False)
    found = find_chromium()
    if found:
        return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("webfovea: installing Debian's chromium with apt-get", file=sys.stderr)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=False, env=env)
        found = find_chromium()
        if found:
            return found
    raise SystemExit("webfovea: could not find or install Chromium; set WEBFOVEA_CHROMIUM to its path")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m webfovea.browser.chromium")
    parser.add_argument("--ensure", action="store_true", help="install Chromium if none is found")
    ns = parser.parse_args(argv)
    path = ensure_chromium() if ns.ensure else find_chromium()
    print(path or "no Chromium found")


if __name__ == "__main__":
    main()
