"""The ``view``, ``replay`` and ``diagnose`` subcommands of ``webfovea``.

``register`` adds them to the main parser.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from ..console import inputs
from ..core.errors import ConfigError

# Handlers import what they run when called (see webfovea.cli.main): parsing stays light.

Command = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> dict[str, Command]:
    view = subparsers.add_parser(
        "view", help="write a static HTML report of a task or bench run; of two runs side by "
                     "side (RUN_A RUN_B); or an index of every run under a folder")
    view.add_argument("run_dirs", type=Path, nargs="+", metavar="RUN_OR_FOLDER",
                      help="a task or bench run, two runs, or a folder of runs")
    view.add_argument("--embed", action="store_true",
                      help="embed the screenshots in the page (one file that travels alone)")
    rep = subparsers.add_parser("replay", help="re-parse every recorded reply with the current "
                                               "parser and list the steps it would change")
    rep.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    rep.add_argument("--json", action="store_true", help="print JSON")
    rep.add_argument("--fail-on-change", action="store_true",
                     help="exit 1 when any step would parse to a different action")
    diag = subparsers.add_parser("diagnose", help="attribute each unfinished or wrong task to "
                                                  "the stage that broke first, with evidence")
    diag.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    diag.add_argument("--json", action="store_true", help="print JSON")
    diag.add_argument("--all", action="store_true", dest="every_task",
                      help="diagnose every task: also those scored correct or not scored")
    return {"view": cmd_view, "replay": cmd_replay, "diagnose": cmd_diagnose}


def _existing(path: Path) -> Path:
    if not path.is_dir():
        raise ConfigError(f"{path} is not a directory")
    return path


def cmd_view(ns: argparse.Namespace) -> int:
    from .multi import is_run, write_folder, write_pair
    from .report import write_report

    # The pages are written into the runs themselves (links to their screenshots stay short).
    dirs = [inputs.out_dir(_existing(d), flag="view: the folder") for d in ns.run_dirs]
    if len(dirs) > 2:
        raise ConfigError("view takes one run (or folder of runs), or two runs to put side by side")
    if len(dirs) == 2:
        print(write_pair(*dirs))
    elif is_run(dirs[0]):
        print(write_report(dirs[0], embed=ns.embed))
    else:
        print(write_folder(dirs[0]))
    return 0


def cmd_replay(ns: argparse.Namespace) -> int:
    from ..tools.replay import format_report, replay

    report = replay(_existing(ns.run_dir))
    print(json.dumps(report.to_json(), indent=2) if ns.json else format_report(report))
    return 1 if ns.fail_on_change and report.changes else 0


def cmd_diagnose(ns: argparse.Namespace) -> int:
    from ..tools.diagnose import diagnose, format_diagnosis

    result = diagnose(_existing(ns.run_dir), every_task=ns.every_task)
    print(json.dumps(result.to_json(), indent=2) if ns.json else format_diagnosis(result))
    return 0

