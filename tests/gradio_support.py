"""Gradio for the gallery: the app (tests/gallery/apps/gradio_app.py) in a subprocess on
127.0.0.1, reached through the same 100 ms-each-way proxy as Streamlit (streamlit_support),
as a deployed app's network is."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from streamlit_support import LATENCY, LatencyProxy, _free_port

APP = Path(__file__).parent / "gallery" / "apps" / "gradio_app.py"
START_TIMEOUT = 120.0  # importing gradio takes long on a busy machine


@contextlib.contextmanager
def gradio_app(*, latency: float = LATENCY) -> Iterator[str]:
    """Run the app behind the latency proxy; yields the URL the browser opens."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False",
           "HF_HUB_OFFLINE": "1", "GRADIO_SERVER_NAME": "127.0.0.1"}
    with tempfile.TemporaryFile() as log:  # a file, not a pipe nobody reads
        proc = subprocess.Popen([sys.executable, str(APP)], stdout=log, stderr=log, env=env)
        try:
            _wait_up(port, proc, log)
            with LatencyProxy(port, latency=latency) as proxy:
                yield f"http://127.0.0.1:{proxy.port}/"
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _wait_up(port: int, proc: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            err = log.read().decode(errors="replace")
            raise RuntimeError(f"gradio exited with {proc.returncode}: {err[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)  # polling a starting server: no event to wait on
    raise RuntimeError(f"gradio did not answer on port {port} within {START_TIMEOUT:.0f} s")
