"""Run configuration: typed, validated once, shared by every stage."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from .ablations import check as check_ablate
from .domains import normalise_domain
from .errors import ConfigError
from .sites import SiteOptions


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_read: float
    cache_write: float

    def cost(self, *, input_tokens: int, output_tokens: int, cache_read_tokens: int = 0,
             cache_write_tokens: int = 0) -> float:
        return (input_tokens * self.input + output_tokens * self.output
                + cache_read_tokens * self.cache_read
                + cache_write_tokens * self.cache_write) / 1e6



CoordSpace = Literal["image", "norm1000", "smart_resize"]
COORD_SPACES: tuple[CoordSpace, ...] = ("image", "norm1000", "smart_resize")
ObservationMode = Literal["screenshot", "marks", "elements", "marks+elements"]
OBSERVATION_MODES: tuple[ObservationMode, ...] = ("screenshot", "marks", "elements",
                                                  "marks+elements")
HistoryLayout = Literal["blocks", "rolling"]
HISTORY_LAYOUTS: tuple[HistoryLayout, ...] = ("blocks", "rolling")


@dataclass(frozen=True)
class Size:
    width: int
    height: int

    @classmethod
    def parse(cls, text: str, *, flag: str = "size") -> Size:
        m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
        if not m or int(m.group(1)) <= 0 or int(m.group(2)) <= 0:
            raise ConfigError(f"{flag} must look like WIDTHxHEIGHT with positive numbers, got {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass(frozen=True)
class BrowserConfig:
    headless: bool = True
    executable: str | None = None
    cdp_url: str | None = None
    viewport: Size = Size(1920, 1080)
    device_scale_factor: float = 1.0
    # Chromium --host-resolver-rules entries, e.g. "MAP *.fovea.test 127.0.0.1".
    host_rules: tuple[str, ...] = ()
    downloads: bool = False


@dataclass(frozen=True)
class SmartResize:
    """Qwen2.5-VL / UI-TARS image grid: sides multiples of ``factor`` within a pixel range."""

    factor: int = 28
    min_pixels: int = 100 * 28 * 28
    max_pixels: int = 16384 * 28 * 28


GroundingPolicy = Literal["off", "record", "challenge"]
GROUNDING_POLICIES: tuple[GroundingPolicy, ...] = ("off", "record", "challenge")


@dataclass(frozen=True)
class VerifierConfig:
    """The independent verifier asked before an answer is accepted (``--verifier SPEC``)."""

    model: str  # a model spec, resolved from a profile when one was named
    base_url: str | None = None
    rejections: int = 2  # rejections that go back to the agent; one more: "disputed"
    timeout: float = 120.0  # seconds for one verdict, retries included
    price: Price | None = None  # USD per million tokens; None: cost "unknown"

    def __post_init__(self) -> None:
        if self.rejections < 0:
            raise ConfigError(f"--verifier-rejections must be 0 or more, got {self.rejections}")
        if self.timeout <= 0:
            raise ConfigError(f"--verifier-timeout must be positive, got {self.timeout}")


@dataclass(frozen=True)
class SkillsConfig:
    """``--skills DIR``: site notes and task checklists for the system text (dialects.skills)."""

    directory: str
    cap: int = 4000  # characters of one skill put in the prompt (--skill-cap)

    def __post_init__(self) -> None:
        if self.cap < 1:
            raise ConfigError(f"--skill-cap must be at least 1, got {self.cap}")


@dataclass(frozen=True)
class GrounderConfig:
    """``--grounder SPEC``: the model that turns the planner's ``target='…'`` into a point,
    with its own image cap, coordinate convention, retries and endpoint."""

    model: str  # a model spec, resolved from a profile when one was named
    base_url: str | None = None
    coords: CoordSpace = "image"
    image_cap: Size | None = Size(1440, 810)
    smart_resize: SmartResize = SmartResize()
    attempts: int = 3  # tries per request (the shared retry policy's max_attempts)
    timeout: float = 60.0  # seconds for one placement, retries included
    price: Price | None = None  # USD per million tokens; None: cost "unknown"
    # The environment variable holding its key (--grounder-api-key-env); None: its
    # provider's usual one. The name is kept, never the key: the config is recorded.
    api_key_env: str | None = None

    def __post_init__(self) -> None:
        if self.coords not in COORD_SPACES:
            raise ConfigError(f"--grounder-coords must be one of {', '.join(COORD_SPACES)}, "
                              f"got {self.coords!r}")
        if self.attempts < 1:
            raise ConfigError(f"--grounder-retries must leave at least 1 attempt, got "
                              f"{self.attempts}")
        if self.timeout <= 0:
            raise ConfigError(f"--grounder-timeout must be positive, got {self.timeout}")


DEFAULT_ACTION_BUDGETS: dict[str, int] = {"reload": 3, "hotkey": 20, "go_back": 20,
                                          "navigate": 20}


@dataclass(frozen=True)
class AgentConfig:
    max_steps: int = 80
    time_limit: float = 1800.0
    # None disables the cap (full-size images): only for experiments that show why it exists.
    image_cap: Size | None = Size(1440, 810)
    coords: CoordSpace = "image"
    smart_resize: SmartResize = SmartResize()
    history_images: int = 5  # at least this many of the most recent screenshots in every request
    history: HistoryLayout = "blocks"  # see webfovea.dialects.text.prompt
    history_block: int = 10  # blocks: screenshots leave the window this many at a time
    sampling: dict[str, float] = field(default_factory=dict)  # temperature, top_p (profiles)
    action_budgets: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_ACTION_BUDGETS))
    allow_domains: tuple[str, ...] = ()
    settle_cap: float = 5.0
    max_tokens: int = 1024
    price: Price | None = None  # USD per million tokens; None: cost "unknown"
    site: SiteOptions = field(default_factory=SiteOptions)  # live, or recording/replaying a site snapshot
    dialect: str = "text"  # how the model is asked (webfovea.dialects); the profile's or --dialect
    dialect_version: str | None = None  # a native protocol's tool version (None: the dialect's)
    acknowledge_safety_checks: bool = False  # else a vendor's safety check ends needs_confirmation
    grounding: GroundingPolicy = "challenge"  # webfovea.answers: check answers against page text
    verifier: VerifierConfig | None = None
    # The document view (webfovea.documents): PDFs and data downloads up to this size are
    # opened as pages and saved under OUT/documents/; 0 leaves them to the browser.
    max_download_mb: float = 50.0
    skills: SkillsConfig | None = None  # --skills DIR: notes in the system text
    grounder: GrounderConfig | None = None  # --grounder SPEC: the planner names targets
    observation: ObservationMode = "screenshot"  # --observation (browser.marks)
    elements_cap: int = 80  # entries of the element list (--elements-cap)

    @property
    def point_forms(self) -> frozenset[str]:
        """What a reply may give instead of a point (actions.POINT_FORMS): ``target`` with a
        grounder, ``mark`` with marks drawn on the observation."""
        forms = {"target"} if self.grounder else set()
        return frozenset(forms | ({"mark"} if "marks" in self.observation else set()))

    ablate: frozenset[str] = frozenset()  # fixes turned off (core.ablations, --ablate)
    # The task file's operational documentation (WebRetriever's keytra) in the task text;
    # bench --no-keytra leaves it out (dialects.task_prompt).
    keytra: bool = True
    # One model request's seconds, and its retries (None: the shared retry policy's own;
    # 0: a failed call fails the task). bench --preset sets them (bench.presets).
    model_timeout: float = 120.0
    model_retries: int | None = None
    # Hosts top-level navigation never reaches, even the entry URL or an --allow-domain
    # (the preset's search engines), and what a refusal says about one.
    block_domains: tuple[str, ...] = ()
    block_reason: str = "refused in this run"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ablate", check_ablate(self.ablate))
        if self.model_timeout <= 0:
            raise ConfigError(f"the model timeout must be positive, got {self.model_timeout}")
        if self.model_retries is not None and self.model_retries < 0:
            raise ConfigError(f"model retries must be 0 or more, got {self.model_retries}")
        object.__setattr__(self, "block_domains",
                           tuple(normalise_domain(d) for d in self.block_domains))
        if self.max_download_mb < 0:
            raise ConfigError(f"--max-download-mb must be 0 or more, got {self.max_download_mb}")
        if self.max_steps < 1:
            raise ConfigError(f"--max-steps must be at least 1, got {self.max_steps}")
        if self.time_limit <= 0:
            raise ConfigError(f"--time-limit must be positive, got {self.time_limit}")
        # Validated here so a bad --allow-domain is a usage error, not a failed task.
        object.__setattr__(self, "allow_domains",
                           tuple(normalise_domain(d) for d in self.allow_domains))
        if self.history not in HISTORY_LAYOUTS:
            raise ConfigError(f"--history must be one of {', '.join(HISTORY_LAYOUTS)}, "
                              f"got {self.history!r}")
        if self.history_images < 1 or self.history_block < 1:
            raise ConfigError("history_images and history_block must be at least 1")
        if self.grounding not in GROUNDING_POLICIES:
            raise ConfigError(f"--grounding must be one of {', '.join(GROUNDING_POLICIES)}, "
                              f"got {self.grounding!r}")
        if self.coords not in COORD_SPACES:
            raise ConfigError(f"--coords must be one of {', '.join(COORD_SPACES)}, got {self.coords!r}")
        if self.observation not in OBSERVATION_MODES:
            raise ConfigError(f"--observation must be one of {', '.join(OBSERVATION_MODES)}, "
                              f"got {self.observation!r}")
        if self.elements_cap < 1:
            raise ConfigError(f"--elements-cap must be at least 1, got {self.elements_cap}")
