"""The results store: ``RUN/results.sqlite`` (WAL) with runs, tasks and steps.

One bench run lives in one directory; ``runs`` holds one row per invocation (the
first and every ``--resume``), ``tasks`` one row per task and trial (``bench --trials``;
trial 1 only without it), ``steps`` one row per step.
A task's final row and its steps are written in one transaction when it ends, so a
kill -9 leaves every task either wholly recorded or still to do — never half, never twice.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..core.errors import ConfigError
from ..core.task import OPTIONAL_FIELDS, AnswerType, Task
from ..rundir.trajectory import ResultRecord, StepRecord
from .scorer import Verdict
from .tasks import task_dir_name

SCHEMA_VERSION = "2"  # 2: a row per trial
DB_NAME = "results.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at REAL NOT NULL, ended_at REAL, state TEXT NOT NULL,
    resumed INTEGER NOT NULL, executor TEXT NOT NULL, workers INTEGER NOT NULL,
    command TEXT NOT NULL, invocation TEXT NOT NULL, versions TEXT NOT NULL,
    browser_replacements INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tasks (
    task_id TEXT NOT NULL, trial INTEGER NOT NULL DEFAULT 1,
    position INTEGER NOT NULL, dir TEXT NOT NULL,
    instruction TEXT NOT NULL, url TEXT NOT NULL, reference TEXT, answer_type TEXT NOT NULL,
    tags TEXT NOT NULL, extras TEXT,
    state TEXT NOT NULL DEFAULT 'pending',
    status TEXT, answer TEXT, correct INTEGER, matcher TEXT, verdict TEXT,
    decision TEXT, rule TEXT,
    steps INTEGER, elapsed REAL, input_tokens INTEGER, output_tokens INTEGER,
    calls INTEGER, retries INTEGER, error TEXT,
    run_id INTEGER, worker TEXT, attempts INTEGER NOT NULL DEFAULT 0,
    browser_replaced INTEGER NOT NULL DEFAULT 0, started_at REAL, finished_at REAL,
    PRIMARY KEY (task_id, trial)
);
CREATE TABLE IF NOT EXISTS steps (
    task_id TEXT NOT NULL, trial INTEGER NOT NULL DEFAULT 1, step INTEGER NOT NULL,
    url TEXT, action TEXT, outcome TEXT,
    parse_error TEXT, guardrail TEXT, note TEXT, model_seconds REAL, harness_seconds REAL,
    input_tokens INTEGER, output_tokens INTEGER, screenshot TEXT, record TEXT NOT NULL,
    PRIMARY KEY (task_id, trial, step)
);
CREATE TABLE IF NOT EXISTS events (
    run_id INTEGER, at REAL NOT NULL, kind TEXT NOT NULL, task_id TEXT, detail TEXT NOT NULL
);
"""
# Named, because a store migrated from schema 1 has its trial column last.
STEP_COLUMNS = ("task_id", "trial", "step", "url", "action", "outcome", "parse_error",
                "guardrail", "note", "model_seconds", "harness_seconds", "input_tokens",
                "output_tokens", "screenshot", "record")


@dataclass(frozen=True)
class TaskRow:
    """One task as the store holds it (what reports read)."""

    task_id: str
    trial: int
    dir: str
    instruction: str
    url: str
    reference: str | None
    answer_type: AnswerType
    tags: tuple[str, ...]
    extras: dict[str, Any]  # the task's OPTIONAL_FIELDS that are set (WebRetriever's)
    state: str
    status: str | None
    answer: str | None
    correct: bool | None
    matcher: str | None
    verdict: str | None  # the verdict's detail: why
    steps: int
    elapsed: float
    input_tokens: int
    output_tokens: int
    error: str | None
    attempts: int
    browser_replaced: bool
    worker: str | None
    run_id: int | None
    finished_at: float | None
    decision: str | None = None  # correct, wrong, undecided, unscored (None: not scored)
    rule: str | None = None  # the typed rule that decided

    @property
    def task(self) -> Task:
        return Task(instruction=self.instruction, url=self.url, id=self.task_id,
                    answer=self.reference, answer_type=self.answer_type, tags=self.tags,
                    **self.extras)


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL survives a killed process (not a power cut) and keeps commits cheap.
        self.conn.execute("PRAGMA synchronous=NORMAL")
        with self.conn:
            self.conn.executescript(SCHEMA)
            self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            _add_trials(self.conn)
            _add_decisions(self.conn)

    @classmethod
    def open_existing(cls, run_dir: Path) -> Store:
        path = run_dir / DB_NAME
        if not path.is_file():
            raise ConfigError(f"{run_dir} holds no bench run (no {DB_NAME})")
        if path.stat().st_size == 0:  # sqlite would take it for a new run and start over
            raise ConfigError(f"{path} is empty: the run's results are gone; restore the file "
                              "or start again with a new --out")
        try:  # read-only first: opening it for writing would create a fresh, empty schema
            with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)) as db:
                found = db.execute("SELECT COUNT(*) FROM meta WHERE key = 'schema'").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise ConfigError(f"{path} is not a readable results store ({e}); restore the "
                              "file or start again with a new --out") from None
        if not found:
            raise ConfigError(f"{path} holds no recorded bench run; restore the file or start "
                              "again with a new --out")
        return cls(path)

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed as a whole, or rolled back on an exception."""
        with self.conn:
            yield self.conn

    # -- meta ---------------------------------------------------------------------------------

    def get_meta(self, key: str) -> Any:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row["value"])

    def set_meta(self, key: str, value: Any) -> None:
        with self._tx() as c:
            c.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    # -- runs (invocations) -------------------------------------------------------------------

    def begin_run(self, *, executor: str, workers: int, command: str,
                  invocation: dict[str, Any], versions: dict[str, Any]) -> int:
        with self._tx() as c:
            # A previous invocation still 'running' was killed: say so, and of its tasks.
            c.execute("UPDATE runs SET state = 'killed' WHERE state = 'running'")
            c.execute("UPDATE tasks SET state = 'killed' WHERE state = 'running'")
            resumed = c.execute("SELECT COUNT(*) FROM runs").fetchone()[0] > 0
            cur = c.execute(
                "INSERT INTO runs (started_at, state, resumed, executor, workers, command, "
                "invocation, versions) VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
                (time.time(), int(resumed), executor, workers, command, json.dumps(invocation),
                 json.dumps(versions)))
            return int(cast(int, cur.lastrowid))

    def update_versions(self, run_id: int, versions: dict[str, Any]) -> None:
        with self._tx() as c:
            c.execute("UPDATE runs SET versions = ? WHERE run_id = ?",
                      (json.dumps(versions), run_id))

    def end_run(self, run_id: int, state: str) -> None:
        """End the invocation; a task it left unfinished takes its state ('interrupted'),
        never a stale 'running' (``--resume`` reruns every task not 'done')."""
        with self._tx() as c:
            c.execute("UPDATE runs SET state = ?, ended_at = ? WHERE run_id = ?",
                      (state, time.time(), run_id))
            c.execute("UPDATE tasks SET state = ? WHERE state = 'running' AND run_id = ?",
                      (state, run_id))

    def runs(self) -> list[dict[str, Any]]:
        rows = self.conn.execute("SELECT * FROM runs ORDER BY run_id").fetchall()
        return [{**dict(r), "invocation": json.loads(r["invocation"]),
                 "versions": json.loads(r["versions"])} for r in rows]

    def event(self, run_id: int | None, kind: str, detail: str, task_id: str | None = None) -> None:
        with self._tx() as c:
            c.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                      (run_id, time.time(), kind, task_id, detail))
            if kind == "browser_replaced" and run_id is not None:
                c.execute("UPDATE runs SET browser_replacements = browser_replacements + 1 "
                          "WHERE run_id = ?", (run_id,))

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM events" + (" WHERE kind = ?" if kind else "") + " ORDER BY at"
        return [dict(r) for r in self.conn.execute(sql, (kind,) if kind else ())]

    # -- tasks --------------------------------------------------------------------------------

    def add_tasks(self, tasks: Sequence[Task], *, trials: int = 1) -> None:
        """Record the run's tasks, ``trials`` rows each; a task already recorded must be
        defined the same way."""
        known = {r["task_id"]: _definition(r) for r in self.conn.execute("SELECT * FROM tasks")}
        changed = [t.id for t in tasks if t.id in known and not _same(known[t.id], t)]
        if changed:
            raise ConfigError(f"these tasks are defined differently than in the run being "
                              f"resumed: {', '.join(changed[:10])}; use a new --out")
        with self._tx() as c:
            position = c.execute("SELECT COALESCE(MAX(position), -1) FROM tasks").fetchone()[0]
            for task in (t for t in tasks if t.id not in known):
                position += 1
                c.executemany(
                    "INSERT INTO tasks (task_id, trial, position, dir, instruction, url, "
                    "reference, answer_type, tags, extras) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(task.id, trial, position, task_dir_name(task.id), task.instruction,
                      task.url, task.answer, task.answer_type, json.dumps(list(task.tags)),
                      json.dumps(_extras(task), ensure_ascii=False))
                     for trial in range(1, trials + 1)])

    def unfinished(self, task_ids: Sequence[str], *, trials: int = 1) -> list[tuple[str, int]]:
        """(task id, trial) of each trial of ``task_ids`` not done yet, task by task."""
        done = {(r["task_id"], r["trial"]) for r in
                self.conn.execute("SELECT task_id, trial FROM tasks WHERE state = 'done'")}
        return [(t, n) for t in task_ids for n in range(1, trials + 1) if (t, n) not in done]

    def task_dir(self, task_id: str) -> str:
        return str(self.conn.execute("SELECT dir FROM tasks WHERE task_id = ?",
                                     (task_id,)).fetchone()[0])

    def mark_running(self, task_id: str, trial: int, *, run_id: int, worker: str) -> None:
        with self._tx() as c:
            c.execute("UPDATE tasks SET state = 'running', run_id = ?, worker = ?, "
                      "attempts = attempts + 1, started_at = ? WHERE task_id = ? AND trial = ?",
                      (run_id, worker, time.time(), task_id, trial))

    def finish(self, task_id: str, trial: int, *, run_id: int, result: ResultRecord,
               verdict: Verdict, steps: Sequence[StepRecord], worker: str,
               browser_replaced: bool) -> None:
        """The trial's outcome and all its steps, atomically."""
        with self._tx() as c:
            c.execute("DELETE FROM steps WHERE task_id = ? AND trial = ?", (task_id, trial))
            c.executemany(f"INSERT INTO steps ({', '.join(STEP_COLUMNS)}) VALUES "
                          f"({', '.join('?' * len(STEP_COLUMNS))})",
                          [_step_row(task_id, trial, s) for s in steps])
            c.execute(
                "UPDATE tasks SET state = 'done', status = ?, answer = ?, correct = ?, "
                "matcher = ?, verdict = ?, decision = ?, rule = ?, steps = ?, elapsed = ?, "
                "input_tokens = ?, output_tokens = ?, calls = ?, retries = ?, error = ?, "
                "run_id = ?, worker = ?, "
                "browser_replaced = ?, finished_at = ? WHERE task_id = ? AND trial = ?",
                (result.status, result.answer, _bool(verdict.correct), verdict.matcher,
                 verdict.detail, verdict.decision, verdict.rule, result.steps, result.elapsed,
                 result.usage.prompt_tokens, result.usage.output_tokens, result.usage.calls,
                 result.usage.retries,
                 result.error, run_id, worker, int(browser_replaced), time.time(), task_id,
                 trial))

    def set_verdict(self, task_id: str, trial: int, verdict: Verdict) -> None:
        with self._tx() as c:
            c.execute("UPDATE tasks SET correct = ?, matcher = ?, verdict = ?, decision = ?, "
                      "rule = ? WHERE task_id = ? AND trial = ?",
                      (_bool(verdict.correct), verdict.matcher, verdict.detail,
                       verdict.decision, verdict.rule, task_id, trial))

    def rows(self) -> list[TaskRow]:
        return [_task_row(r) for r in
                self.conn.execute("SELECT * FROM tasks ORDER BY position, trial").fetchall()]

    def step_count(self, task_id: str, trial: int = 1) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM steps WHERE task_id = ? AND "
                                     "trial = ?", (task_id, trial)).fetchone()[0])


def _bool(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _extras(task: Task) -> dict[str, Any]:
    return {name: getattr(task, name) for name in OPTIONAL_FIELDS
            if getattr(task, name) is not None}


def _row_extras(row: sqlite3.Row) -> dict[str, Any]:
    """A row's extras; a store written before they existed has none (NULL)."""
    value = json.loads(row["extras"] or "{}")
    return {k: v for k, v in value.items() if k in OPTIONAL_FIELDS}


def _same(recorded: tuple[Any, ...], task: Task) -> bool:
    """Whether ``task`` is defined as the store recorded it. A row from before the extras
    were stored (None) is compared without them: the same file, read by this version, may
    give a task extras it had all along (Online-Mind2Web's reference_length)."""
    *rest, extras = recorded
    now = [task.instruction, task.url, task.answer, task.answer_type, list(task.tags)]
    return rest == now and extras in (None, _extras(task))


def _definition(row: sqlite3.Row) -> tuple[Any, ...]:
    extras = None if row["extras"] is None else _row_extras(row)
    return (row["instruction"], row["url"], row["reference"], row["answer_type"],
            json.loads(row["tags"]), extras)


def _add_trials(conn: sqlite3.Connection) -> None:
    """A store of schema 1 (one row per task) gets the trial column, every row trial 1; a
    store from before WebRetriever's task fields gets their column (NULL: none)."""
    for table in ("tasks", "steps"):
        columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        if "trial" not in columns:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN trial INTEGER NOT NULL DEFAULT 1")
    if "extras" not in {r[1] for r in conn.execute("PRAGMA table_info(tasks)")}:
        conn.execute("ALTER TABLE tasks ADD COLUMN extras TEXT")


def _add_decisions(conn: sqlite3.Connection) -> None:
    """A store written before three verdicts gets the decision and rule columns (empty:
    its verdicts were correct or wrong, read from ``correct``)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(tasks)")}
    for column in ("decision", "rule"):
        if column not in columns:
            conn.execute(f"ALTER TABLE tasks ADD COLUMN {column} TEXT")


def _step_row(task_id: str, trial: int, s: StepRecord) -> tuple[Any, ...]:
    action = (s.action or {}).get("name")
    return (task_id, trial, s.step, s.url, action, s.outcome, s.parse_error, s.guardrail, s.note,
            s.model_seconds, s.harness_seconds, s.usage.prompt_tokens, s.usage.output_tokens,
            s.screenshot, s.model_dump_json())


def _task_row(r: sqlite3.Row) -> TaskRow:
    return TaskRow(
        task_id=r["task_id"], trial=r["trial"], dir=r["dir"], instruction=r["instruction"], url=r["url"],
        reference=r["reference"], answer_type=r["answer_type"], tags=tuple(json.loads(r["tags"])),
        extras=_row_extras(r),
        state=r["state"], status=r["status"], answer=r["answer"],
        correct=None if r["correct"] is None else bool(r["correct"]), matcher=r["matcher"],
        verdict=r["verdict"], steps=r["steps"] or 0, elapsed=r["elapsed"] or 0.0,
        input_tokens=r["input_tokens"] or 0, output_tokens=r["output_tokens"] or 0,
        error=r["error"], attempts=r["attempts"], browser_replaced=bool(r["browser_replaced"]),
        worker=r["worker"], run_id=r["run_id"], finished_at=r["finished_at"],
        decision=r["decision"], rule=r["rule"])
