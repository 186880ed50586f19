"""The ``references`` subcommand (the command line, docs/contracts.md): a task file whose references carry
their evidence, from a bench run. ``webfovea.cli.main`` adds it with :func:`register`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The handler imports what it runs when called (see webfovea.cli.main): parsing stays light.

Handler = Callable[[argparse.Namespace], int]


def register(subparsers: Any) -> dict[str, Handler]:
    p = subparsers.add_parser(
        "references", help="write a task file whose references carry their evidence",
        description="From a bench run, write TASKS.jsonl: each reference with where and when "
                    "it was seen (URL, time, evidence screenshot hash and a copy beside the "
                    "file). Answers that disagree with their reference are listed.")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    p.add_argument("--out", type=Path, required=True, metavar="TASKS.jsonl")
    p.add_argument("--accept", default="", metavar="ID,...",
                   help="take the run's answer of these tasks as their new reference")
    p.add_argument("--unreachable", default="", metavar="ID,...",
                   help="mark these tasks unreachable: score reports success without them")
    return {"references": cmd_references}


def _ids(text: str) -> frozenset[str]:
    return frozenset(t.strip() for t in text.split(",") if t.strip())


def cmd_references(ns: argparse.Namespace) -> int:
    from .references import write_references

    written = write_references(ns.run_dir, ns.out, accept=_ids(ns.accept),
                               unreachable=_ids(ns.unreachable))
    print(f"wrote {written.lines} task(s) to {ns.out}"
          + (f"; new references from the run: {', '.join(written.accepted)}"
             if written.accepted else ""))
    if written.disagreements:
        print("answers that differ from their reference (accept with --accept ID,...):")
        for d in written.disagreements:
            print(f"  {d.id}: reference {d.reference!r} | answer {d.answer!r} | "
                  f"evidence {d.evidence or '–'} ({d.url or 'no URL'})")
    return 0
