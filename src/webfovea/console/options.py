"""Typed options between commands: built once from the command line, passed as values.

``run``, ``bench``, ``suite run`` and ``demo`` hand each other these dataclasses, never
argument lists. Flag defaults come from the config dataclasses, so ``--help`` and what a
run does cannot disagree.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..actions.registry import REGISTRY
from ..core.ablations import ABLATIONS, parse_ablate
from ..core.config import (
    COORD_SPACES,
    DEFAULT_ACTION_BUDGETS,
    GROUNDING_POLICIES,
    HISTORY_LAYOUTS,
    OBSERVATION_MODES,
    AgentConfig,
    BrowserConfig,
    GrounderConfig,
    Size,
    SkillsConfig,
    SmartResize,
    VerifierConfig,
)
from ..core.errors import ConfigError
from ..core.sites import SiteOptions
from ..dialects import dialect_names
from ..models import profiles
from ..models.keys import check_key
from . import inputs

_AGENT, _BROWSER = AgentConfig(), BrowserConfig()
MODEL_HINT = ("give --model (openai:<name>, anthropic:<name>, oracle or scripted:<file>), or "
              "set WEBFOVEA_MODEL")


@dataclass(frozen=True)
class RunFlags:
    """The options of one task's run as given on the command line (JSON-friendly: a bench
    records them with the run, and ``--resume`` compares them)."""

    model: str | None = None
    base_url: str | None = None
    max_steps: int = _AGENT.max_steps
    time_limit: float = _AGENT.time_limit
    image_cap: str | None = None  # None: the profile's, else the config's default
    viewport: str = str(_BROWSER.viewport)
    device_scale_factor: float = _BROWSER.device_scale_factor
    coords: str | None = None  # None: the profile's, else image
    cdp_url: str | None = None
    headed: bool = False
    allow_domain: tuple[str, ...] = ()
    budget: tuple[str, ...] = ()
    allow_downloads: bool = False
    max_download_mb: float = _AGENT.max_download_mb
    history: str | None = None  # None: the profile's, else blocks
    config: str | None = None  # a TOML config file (else ./webfovea.toml, the user's)
    no_preflight: bool = False
    record_site: str | None = None
    replay_site: str | None = None
    dialect: str | None = None  # None: the profile's, else text
    dialect_version: str | None = None  # None: the profile's, else from the model name
    acknowledge_safety_checks: bool = False
    grounding: str = _AGENT.grounding
    verifier: str | None = None  # a model spec or profile
    verifier_base_url: str | None = None
    verifier_rejections: int = 2
    verifier_timeout: float = 120.0
    skills: str | None = None  # --skills DIR
    skill_cap: int = 4000
    grounder: str | None = None  # a model spec or profile
    grounder_base_url: str | None = None
    grounder_coords: str | None = None  # None: the grounder profile's, else image
    grounder_image_cap: str | None = None  # None: the grounder profile's, else 1440x810
    grounder_retries: int = 2
    grounder_timeout: float = 60.0
    grounder_api_key_env: str | None = None  # None: the grounder provider's usual variable
    observation: str = _AGENT.observation
    elements_cap: int = _AGENT.elements_cap
    ablate: tuple[str, ...] = ()  # fixes turned off (webfovea.core.ablations)

    def __post_init__(self) -> None:
        # One spelling, the registry's order: `--ablate enter,ratio` and `--ablate ratio
        # --ablate enter` are the same settings (a resumed bench compares them).
        chosen = parse_ablate(self.ablate)
        object.__setattr__(self, "ablate", tuple(n for n in ABLATIONS if n in chosen))

    def options(self, *, host_rules: tuple[str, ...] = (), per_task: bool = False) -> RunOptions:
        """The validated options (ConfigError names the bad flag); the model side resolved
        by precedence: flags > environment > config file > profile > defaults."""
        ns = argparse.Namespace(**{f.name: getattr(self, f.name) for f in fields(RunFlags)})
        ns.config = Path(self.config) if self.config else None
        inputs.check_run_options(ns)
        resolved = profiles.apply(ns)  # the winners are written back into ns
        if resolved.dialect not in dialect_names():
            raise ConfigError(f"--dialect {resolved.dialect!r} is not a dialect: use one of "
                              f"{', '.join(dialect_names())}")
        return RunOptions(model=ns.model or "", base_url=ns.base_url,
                          agent=self._agent(ns, resolved, per_task),
                          browser=self._browser(host_rules), preflight=not self.no_preflight)

    def _agent(self, ns: argparse.Namespace, resolved: profiles.Resolved,
               per_task: bool) -> AgentConfig:
        cap = None if ns.image_cap.lower() == "none" else Size.parse(ns.image_cap,
                                                                     flag="--image-cap")
        return AgentConfig(max_steps=self.max_steps, time_limit=self.time_limit, image_cap=cap,
                           coords=ns.coords,
                           allow_domains=self.allow_domain,
                           action_budgets={**DEFAULT_ACTION_BUDGETS,
                                           **parse_budgets(self.budget)},
                           site=site_options(self.record_site, self.replay_site,
                                             per_task=per_task),
                           acknowledge_safety_checks=self.acknowledge_safety_checks,
                           max_download_mb=self.max_download_mb,
                           grounding=self.grounding,  # type: ignore[arg-type]  # checked there
                           verifier=self._verifier(ns.config),
                           skills=self._skills(),
                           grounder=self._grounder(ns.config),
                           observation=self.observation,  # type: ignore[arg-type]  # checked there
                           elements_cap=self.elements_cap,
                           ablate=parse_ablate(self.ablate),
                           **resolved.agent_settings())

    def _verifier(self, config_file: Path | None) -> VerifierConfig | None:
        if not self.verifier:
            return None
        spec, base_url, price = profiles.resolve_other(
            self.verifier, self.verifier_base_url, profiles.load_config(config_file))
        return VerifierConfig(spec, base_url, rejections=self.verifier_rejections,
                              timeout=self.verifier_timeout, price=price)

    def _grounder(self, config_file: Path | None) -> GrounderConfig | None:
        """The grounder's own settings: flags, else its profile's, else the defaults."""
        if not self.grounder:
            return None
        config = profiles.load_config(config_file)
        spec, base_url, price = profiles.resolve_other(self.grounder, self.grounder_base_url,
                                                       config)
        profile = profiles.profile_of(self.grounder, config)
        check_key(spec, self.grounder_api_key_env, base_url, role="grounder",
                  flag="--grounder-api-key-env")
        cap = str(self.grounder_image_cap or profile.get("image_cap") or "1440x810")
        return GrounderConfig(
            spec, base_url,
            coords=self.grounder_coords or profile.get("coords", "image"),  # type: ignore[arg-type]  # checked there
            image_cap=None if cap.lower() == "none" else Size.parse(
                cap, flag="--grounder-image-cap"),
            smart_resize=SmartResize(**(profile.get("smart_resize") or {})),
            attempts=self.grounder_retries + 1, timeout=self.grounder_timeout, price=price,
            api_key_env=self.grounder_api_key_env)

    def _skills(self) -> SkillsConfig | None:
        if not self.skills:
            return None
        from ..dialects.skills import check_directory

        check_directory(self.skills)
        return SkillsConfig(str(Path(self.skills).resolve()), cap=self.skill_cap)

    def _browser(self, host_rules: tuple[str, ...]) -> BrowserConfig:
        if self.device_scale_factor <= 0:
            raise ConfigError("--device-scale-factor must be positive, got "
                              f"{self.device_scale_factor}")
        return BrowserConfig(headless=not self.headed, cdp_url=self.cdp_url,
                             downloads=self.allow_downloads,
                             viewport=Size.parse(self.viewport, flag="--viewport"),
                             device_scale_factor=self.device_scale_factor, host_rules=host_rules)


@dataclass(frozen=True)
class RunOptions:
    """What running one task needs: the model and the two validated configs."""

    model: str
    base_url: str | None = None
    agent: AgentConfig = field(default_factory=AgentConfig)
    browser: BrowserConfig = field(default_factory=BrowserConfig)
    preflight: bool = True  # check the endpoint before any browser starts

    def __post_init__(self) -> None:
        if not self.model:
            raise ConfigError(MODEL_HINT)


@dataclass(frozen=True)
class BenchSettings(RunFlags):
    """A bench run's settings, recorded with it: a resumed run keeps them."""

    judge: str | None = None
    judge_base_url: str | None = None
    split: str | None = None
    part: str | None = None
    host_resolver_rules: tuple[str, ...] = ()
    trials: int = 1
    preset: str | None = None  # --preset NAME: a benchmark's rules (webfovea.bench.presets)
    no_keytra: bool = False  # leave the task file's keytra out of the prompt (Protocol I)
    step_budget: str | None = None  # reference_length[*K]: per-task steps (bench.budgets)

    def host_rules(self) -> tuple[tuple[str, ...], ...]:
        """Chromium host rules per concurrent slot (``--host-resolver-rules``, split on ,)."""
        return tuple(tuple(r.strip() for r in entry.split(",") if r.strip())
                     for entry in self.host_resolver_rules)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BenchSettings:
        """Recorded settings (lists for tuples); keys this version does not know are dropped."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                  for k, v in data.items() if k in known}
        return cls(**values)


@dataclass(frozen=True)
class Prices:
    """USD per million tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1e6


@dataclass(frozen=True)
class BenchOptions:
    """One ``bench`` invocation. ``given`` names the settings typed this time: a resumed run
    compares only those with what it recorded."""

    tasks: Path
    out: Path
    settings: BenchSettings = field(default_factory=BenchSettings)
    given: frozenset[str] = frozenset()
    workers: int = 1
    executor: str = "local"
    ray_address: str | None = None
    resume: bool = False
    force: bool = False  # with resume: accept a task file or settings other than the run's
    prices: Prices | None = None
    command: str = ""
    task_format: str = "auto"  # webfovea.bench.formats: a published benchmark's task file
    references: Path | None = None  # WebVoyager's reference answers file

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError(f"--workers must be at least 1, got {self.workers}")
        if self.settings.trials < 1:
            raise ConfigError(f"--trials must be at least 1, got {self.settings.trials}")
        if self.settings.trials > 1 and self.settings.record_site:
            # Trials of one task would record over each other's DIR/<task id>.
            raise ConfigError(f"--trials {self.settings.trials} with --record-sites: record "
                              "each task's site once, then run the trials with --replay-sites")


def default_settings() -> BenchSettings:
    return BenchSettings(model=os.environ.get("WEBFOVEA_MODEL"))


def add_run_options(p: argparse.ArgumentParser, *, recorded: bool = False) -> None:
    """The flags of RunFlags. ``recorded``: no defaults in the namespace (a bench tells what
    was typed from what was not, for --resume); the defaults then come from RunFlags."""

    def default(value: Any) -> Any:
        return argparse.SUPPRESS if recorded else value

    p.add_argument("--model", default=default(os.environ.get("WEBFOVEA_MODEL")),
                   help="openai:<name> | anthropic:<name> | oracle | scripted:<file>")
    p.add_argument("--base-url", default=default(None),
                   help="provider endpoint (else OPENAI_BASE_URL / ANTHROPIC_BASE_URL)")
    p.add_argument("--max-steps", type=int, default=default(_AGENT.max_steps),
                   help=f"default {_AGENT.max_steps}")
    p.add_argument("--time-limit", type=float, default=default(_AGENT.time_limit),
                   help=f"seconds per task (default {_AGENT.time_limit:g})")
    p.add_argument("--image-cap", default=default(None),
                   help=f"WxH, or 'none' for full-size images (default: the profile's, else "
                        f"{_AGENT.image_cap})")
    p.add_argument("--viewport", default=default(str(_BROWSER.viewport)),
                   help=f"default {_BROWSER.viewport}")
    p.add_argument("--device-scale-factor", type=float,
                   default=default(_BROWSER.device_scale_factor))
    p.add_argument("--coords", choices=COORD_SPACES, default=default(None),
                   help="the space the model answers in (default: the profile's, else image)")
    p.add_argument("--cdp-url", default=default(None),
                   help="attach to a running Chromium instead of launching one; "
                        "bench: a comma-separated list, worker i uses the i-th")
    p.add_argument("--headed", action="store_true", default=default(False),
                   help="show the browser window")
    p.add_argument("--allow-domain", action="append", default=default([]),
                   help="another site top-level navigation may go to (repeatable)")
    p.add_argument("--budget", action="append", default=default([]), metavar="CLASS=N",
                   help="per-task budget of an action class: reload, hotkey, go_back, "
                        "navigate, pointer, keyboard, observe, wait (repeatable; e.g. reload=5)")
    p.add_argument("--allow-downloads", action="store_true", default=default(False),
                   help="let pages download files")
    p.add_argument("--max-download-mb", type=float, default=default(_AGENT.max_download_mb),
                   help="PDFs and data files (CSV, TSV, XLSX, XLS, ODS, JSON, TXT) up to this "
                        "size open as readable pages and are saved under OUT/documents/; "
                        f"0 leaves them to the browser (default {_AGENT.max_download_mb:g})")
    p.add_argument("--history", choices=HISTORY_LAYOUTS, default=default(None),
                   help="blocks (default): earlier steps as turns, a prefix providers cache; "
                        "rolling: the old single-turn layout, for comparison")
    add_dialect_options(p, default)
    p.add_argument("--config", default=default(None),
                   help="TOML config file (default ./webfovea.toml, else "
                        "~/.config/webfovea/config.toml): [run] settings, [profiles.NAME], "
                        "[prices.\"provider:model\"]")
    p.add_argument("--no-preflight", action="store_true", default=default(False),
                   help="skip the check of the endpoint and model made before the browser starts")
    # bench spells them --record-sites/--replay-sites (one snapshot per task under DIR).
    p.add_argument("--record-site", "--record-sites", dest="record_site", metavar="DIR",
                   default=default(None),
                   help="record every response the run loads into a site snapshot at DIR "
                        "(bench: one per task, DIR/<task id>)")
    p.add_argument("--replay-site", "--replay-sites", dest="replay_site", metavar="DIR",
                   default=default(None),
                   help="serve the pages only from the site snapshot at DIR; nothing reaches "
                        "the network (bench: DIR/<task id>)")
    p.add_argument("--grounding", choices=GROUNDING_POLICIES, default=default(_AGENT.grounding),
                   help="check each answer against the page text the session saw: off, record "
                        "(mark it), challenge (default: also send an ungrounded answer back once)")
    p.add_argument("--verifier", metavar="SPEC", default=default(None),
                   help="an independent model (spec or profile) that checks each answer with "
                        "the final screenshot before it is accepted (default: none)")
    p.add_argument("--verifier-base-url", default=default(None), metavar="URL",
                   help="the verifier's endpoint (else its profile's or the provider's)")
    p.add_argument("--verifier-rejections", type=int, default=default(2), metavar="N",
                   help="rejections sent back to the agent before the answer stands as "
                        "disputed (default 2)")
    p.add_argument("--verifier-timeout", type=float, default=default(120.0), metavar="S",
                   help="seconds for one verdict (default 120)")
    p.add_argument("--grounder", metavar="SPEC", default=default(None),
                   help="a model (spec or profile) that places the planner's target='…' "
                        "descriptions on the screenshot; the planner then names targets "
                        "instead of giving points (docs/grounding.md)")
    p.add_argument("--grounder-base-url", default=default(None), metavar="URL",
                   help="the grounder's endpoint (else its profile's or the provider's)")
    p.add_argument("--grounder-coords", choices=COORD_SPACES, default=default(None),
                   help="the grounder's coordinate convention (default: its profile's, else "
                        "image)")
    p.add_argument("--grounder-image-cap", default=default(None), metavar="WxH",
                   help="the grounder's image cap (default: its profile's, else 1440x810)")
    p.add_argument("--grounder-retries", type=int, default=default(2), metavar="N",
                   help="retries of one grounder request (default 2)")
    p.add_argument("--grounder-timeout", type=float, default=default(60.0), metavar="S",
                   help="seconds for one placement, retries included (default 60)")
    p.add_argument("--grounder-api-key-env", default=default(None), metavar="NAME",
                   help="the environment variable holding the grounder's API key (default: "
                        "its provider's usual one, e.g. OPENAI_API_KEY)")
    p.add_argument("--observation", choices=OBSERVATION_MODES,
                   default=default(_AGENT.observation),
                   help="what the model sees: screenshot (default), marks (numbered labels on "
                        "the interactive elements; mark=N accepted wherever a point is), "
                        "elements (a list of them beside the screenshot), marks+elements")
    p.add_argument("--elements-cap", type=int, default=default(_AGENT.elements_cap),
                   metavar="N", help=f"entries of the element list (default "
                                     f"{_AGENT.elements_cap})")
    p.add_argument("--skills", metavar="DIR", default=default(None),
                   help="notes put in the system prompt: DIR/all.md, DIR/sites/<host>.md (the "
                        "host and its subdomains), DIR/tasks/<tag>.md (tasks with that tag); "
                        "see docs/skills.md")
    p.add_argument("--skill-cap", type=int, default=default(4000), metavar="CHARS",
                   help="characters of one skill put in the prompt; the cut is said (default "
                        "4000)")
    add_ablate_option(p, default)


ABLATE_HELP = (f"turn fixes off, as the naive harness was (comma-separated, repeatable, or all): "
               f"{', '.join(ABLATIONS)}; see docs/ablations.md")


def add_ablate_option(p: argparse.ArgumentParser, default: Any = lambda v: v) -> None:
    """--ablate FIX[,FIX…] (run, bench, suite run, miniwob)."""
    p.add_argument("--ablate", action="append", default=default([]), metavar="FIX[,FIX…]",
                   help=ABLATE_HELP)


DIALECT_HELP = ("how the model is asked and how its reply becomes actions: text, tools, "
                "anthropic-computer, openai-computer, gemini-computer (default: the profile's, "
                "else text); see docs/dialects.md")


def add_dialect_options(p: argparse.ArgumentParser, default: Any = lambda v: v) -> None:
    """--dialect, --dialect-version, --acknowledge-safety-checks (run, bench, suite run)."""
    p.add_argument("--dialect", default=default(None), help=DIALECT_HELP)
    p.add_argument("--dialect-version", default=default(None),
                   help="a native protocol's tool version, e.g. computer_20251124 (default: "
                        "the profile's, else picked from the model name)")
    p.add_argument("--acknowledge-safety-checks", action="store_true", default=default(False),
                   help="acknowledge a provider's safety checks (each is recorded in the step) "
                        "instead of stopping the task with status needs_confirmation")


def flags_from(ns: argparse.Namespace, cls: type[RunFlags] = RunFlags) -> dict[str, Any]:
    """The fields of ``cls`` present in ``ns`` (lists as tuples, paths as text)."""
    names = {f.name for f in fields(cls)}
    return {k: tuple(v) if isinstance(v, list) else str(v) if isinstance(v, Path) else v
            for k, v in vars(ns).items() if k in names}


def site_options(record: str | None, replay: str | None, *, per_task: bool = False
                 ) -> SiteOptions:
    """Live, recording or replaying a site snapshot (``--record-site``/``--replay-site``)."""
    if record and replay:
        raise ConfigError("give --record-site or --replay-site, not both")
    if replay and Path(replay).is_file():
        # A web archive: imported once into a snapshot beside it, replayed for every task.
        from ..snapshot.archive.cache import cached_snapshot, is_archive

        if is_archive(Path(replay)):
            replay, per_task = str(cached_snapshot(Path(replay))), False
    if replay and not Path(replay).is_dir():
        raise ConfigError(f"--replay-site: {replay} is not a directory (nor a web archive: "
                          ".warc, .warc.gz, .arc, .arc.gz, .wacz, .har)")
    if record:
        return SiteOptions("record", str(record), per_task)
    if replay:
        return SiteOptions("replay", str(replay), per_task)
    return SiteOptions()


def parse_budgets(items: tuple[str, ...]) -> dict[str, int]:
    """``--budget CLASS=N`` entries as a budget table (ConfigError names a bad one)."""
    known = {spec.budget for spec in REGISTRY.values()} - {"finish"}
    out: dict[str, int] = {}
    for item in items:
        name, _, value = item.partition("=")
        if name not in known or not value.isdigit():
            raise ConfigError(f"--budget takes CLASS=N with CLASS one of "
                              f"{', '.join(sorted(known))} and N a whole number, got {item!r}")
        out[name] = int(value)
    return out
