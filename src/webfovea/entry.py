"""The ``webfovea`` command's first code: a stop during the imports ends in one line.

Importing the command (pydantic, Playwright, PIL, the SDKs) takes a second or more, and
Python's own Ctrl-C handling would end it in a KeyboardInterrupt traceback. Until the
command line's own handlers are in place (``interrupts.install_handlers``), SIGINT and
SIGTERM end the process at once: nothing has been written yet, nothing needs cleaning up.

What those imports build (modules, classes, the SDKs' hundreds of pydantic models) lives
as long as the process, so it is frozen out of the cyclic garbage collector: its
collections no longer walk it during the run, and at exit, frozen again, the process does
not spend a second (on a loaded machine, several) collecting its whole heap on the way
out (``benchmarks/bench_workers.py``: a bench's exit 0.5-2.9 s -> under 0.1 s).
"""

# _signal, not signal: the public module imports enum, functools and collections first
# (tens of ms under load), time in which a Ctrl-C would still meet Python's traceback.
import _signal
import atexit
import gc
import os

NAMES = {_signal.SIGINT: "SIGINT", _signal.SIGTERM: "SIGTERM"}


def _stop_now(signum: int, frame: object) -> None:
    os.write(2, f"webfovea: interrupted by {NAMES[signum]}\n".encode())
    os._exit(128 + signum)  # the shell's code for a signal (130 for SIGINT, 143 for SIGTERM)


def main() -> None:
    for signum in NAMES:
        if _signal.getsignal(signum) is not _signal.SIG_IGN:  # e.g. a shell's background job
            _signal.signal(signum, _stop_now)
    from webfovea.cli.main import main as run_command  # the heavy imports; cli.main takes over

    gc.freeze()
    atexit.register(gc.freeze)  # runs before the interpreter's final collections
    run_command()
