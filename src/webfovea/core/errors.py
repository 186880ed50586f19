"""One error hierarchy for webfovea.

Every failure the harness can name derives from ``WebfoveaError``; each subclass
carries the task status (and ``run`` exit code) it maps to, so the translation
from exception to status happens in one place: :func:`status_for`.
"""

from __future__ import annotations

from typing import Literal

TaskStatus = Literal[
    "finished",
    "step_limit",
    "time_limit",
    "model_error",
    "browser_error",
    "unreachable",
    "gave_up",
    "harness_error",  # an unexpected exception inside webfovea: a bug to report
    "interrupted",  # the user stopped the run (Ctrl-C, SIGTERM)
    "needs_confirmation",  # a vendor's safety check the user did not acknowledge
]


class WebfoveaError(Exception):
    """Base of every error webfovea raises on purpose. Its status is neutral: a subclass
    that ends a task names its own; one that does not (and ends a task) is a harness bug."""

    status: TaskStatus = "harness_error"


class ConfigError(WebfoveaError):
    """Bad user input: a flag, a model spec, a task line. Exit code 2."""


class ParseError(WebfoveaError):
    """A model reply that is not exactly one valid action.

    The message is written for the model: it says what was wrong and what a
    valid action looks like, and is sent back as that step's note.
    """


class ModelError(WebfoveaError):
    """The model could not be used: retries exhausted or a request it will never accept."""

    status: TaskStatus = "model_error"

    def __init__(self, message: str, *, retryable: bool = False, status_code: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status_code = status_code
        self.retry_after = retry_after


class BrowserError(WebfoveaError):
    """The browser crashed, disconnected or could not be launched."""

    status: TaskStatus = "browser_error"


class PageTimeout(BrowserError):
    """A page operation ran out of time while the browser is still there (a busy page)."""


class SiteUnreachable(WebfoveaError):
    """The entry URL could not be loaded at all."""

    status: TaskStatus = "unreachable"


class DocumentError(WebfoveaError):
    """A document (PDF, spreadsheet, data file) that could not be opened: damaged, encrypted
    or over a cap. The document view shows it as a note; it never ends a task."""


class TimeLimit(WebfoveaError):
    """The task's wall-clock budget ran out."""

    status: TaskStatus = "time_limit"


EXIT_CODES: dict[TaskStatus | str, int] = {
    "finished": 0,
    "step_limit": 1,
    "time_limit": 1,
    "gave_up": 1,
    "needs_confirmation": 1,
    "config": 2,
    "model_error": 3,
    "browser_error": 4,
    "unreachable": 4,
    "harness_error": 4,
    "interrupted": 130,  # 128 + SIGINT, as shells report a Ctrl-C
}


def exit_code(status: str) -> int:
    """``webfovea run`` exit code for a task status (docs/contracts.md: 0 answer, 1 none, 3 model, 4 site)."""
    return EXIT_CODES.get(status, 1)


def error_exit(error: WebfoveaError) -> tuple[str, int]:
    """What the command line says for an error that ends a command, and its exit code: the
    one place errors meet exit codes (2 usage or configuration, 3 model, 4 site or browser)."""
    if isinstance(error, ConfigError):
        return str(error), EXIT_CODES["config"]
    if isinstance(error, ModelError):
        return f"model error: {error}", EXIT_CODES["model_error"]
    return str(error), exit_code(error.status)
