"""One bench process per run directory: ``RUN_DIR/bench.lock``.

The lock is an ``flock`` on that file, held for the process's life; the file names its
holder (pid, host, start time) for the message a second process gets. The kernel drops
the lock when the holder dies, however it dies, so a lock file left by a killed process
is stale by construction and simply taken over. (``flock`` is per host: two machines
sharing a run directory over NFS are not kept apart.)
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType

from ..core.errors import ConfigError

LOCK_NAME = "bench.lock"


class RunLock:
    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise ConfigError(f"{self.path.parent} is in use by another bench ({holder}); wait "
                              "for it to end or stop it, then --resume") from None
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                 "started": time.time()}).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock; the file stays, harmless
            self._fd = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(info["started"])))
        return f"pid {info['pid']} on {info['host']}, since {started}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that has not written its name yet"
