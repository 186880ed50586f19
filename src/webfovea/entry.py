"""The ``webfovea`` command's first code: a stop during the imports ends in one line.

Importing the command (pydantic, Playwright, PIL, the SDKs) takes a second or more, and
Python's own Ctrl-C handling would end it in a KeyboardInterrupt traceback. Until the
command line's own handlers are in place (``interrupts.install_handlers``), SIGINT and
SIGTERM end the process at once: nothing has been written yet, nothing needs cleaning up.
"""

# _signal, not signal: the public module imports enum, functools and collections first
# (tens of ms under load), time in which a Ctrl-C would still meet Python's traceback.
import _signal
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

    run_command()
