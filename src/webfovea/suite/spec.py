"""What a suite task is: the task-file fields plus the plan a competent user follows.

The plan is a sequence of semantic steps over elements that pages mark with
``data-fovea="<id>"``. Each acting step carries ``until``, a condition on the
page's reported layout that says the step has taken effect; ``Read`` steps
capture an element's *displayed* text, ``ReadText`` captures the text the
harness returns for a ``read_text`` call. The final ``Answer`` is computed from
those captures only, never from the data the site was generated from, so a
policy following the plan proves the answer is reachable through the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal[
    "document_extraction",
    "form_interaction",
    "multi_source_comparison",
    "complete_data_retrieval",
    "chart_analysis",
]
KINDS: tuple[Kind, ...] = (
    "document_extraction",
    "form_interaction",
    "multi_source_comparison",
    "complete_data_retrieval",
    "chart_analysis",
)
AnswerType = Literal["auto", "text", "number", "date"]


# -- conditions on the layout (see layout.Layout.holds) -------------------------------------


@dataclass(frozen=True)
class Shown:
    """The element is rendered, visible and its centre lies inside the viewport (and frame)."""

    target: str


@dataclass(frozen=True)
class Present:
    """The element is rendered and visible anywhere on the page (perhaps scrolled away)."""

    target: str


@dataclass(frozen=True)
class Gone:
    """The element is absent or not visible (a dismissed banner, a closed popup)."""

    target: str


@dataclass(frozen=True)
class TextHas:
    """The element is visible and its displayed text contains ``text`` (case-insensitive)."""

    target: str
    text: str


@dataclass(frozen=True)
class ValueIs:
    """A form control's value (a ``<select>``'s selected option text) equals ``value``."""

    target: str
    value: str


@dataclass(frozen=True)
class UrlHas:
    """The current top-level page URL contains ``text``."""

    text: str


Cond = Shown | Present | Gone | TextHas | ValueIs | UrlHas


# -- plan steps ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Click:
    target: str
    until: Cond


@dataclass(frozen=True)
class Hover:
    target: str
    until: Cond


@dataclass(frozen=True)
class Select:
    """Choose ``option`` in the native ``<select>`` ``target``; done when it shows that option."""

    target: str
    option: str

    @property
    def until(self) -> Cond:
        return ValueIs(self.target, self.option)


@dataclass(frozen=True)
class Fill:
    """Type ``text`` into the field ``target`` (``submit``: then press Enter)."""

    target: str
    text: str
    until: Cond
    submit: bool = True


@dataclass(frozen=True)
class FindText:
    """Use find_text to bring ``text`` into view; done when ``until`` holds."""

    text: str
    until: Cond


@dataclass(frozen=True)
class Wait:
    """Let the page move on by itself (a carousel, a loading view) until ``until`` holds."""

    until: Cond


@dataclass(frozen=True)
class Read:
    """Capture the displayed text of ``target`` as slot ``into`` (scrolling it into view first).

    ``pattern`` is a regular expression searched in the text; its ``value`` group
    (else the whole match) is the captured value and its ``label`` group, if any,
    the captured label. ``label_from`` names another element whose displayed text
    is the label instead (a table row's name cell); by default the label is ``into``.
    """

    target: str
    into: str
    pattern: str = r"(?P<value>.+)"
    label_from: str = ""


@dataclass(frozen=True)
class ReadText:
    """Call read_text(label) and capture from the returned text, like ``Read``."""

    label: str
    into: str
    pattern: str = r"(?P<value>.+)"


Step = Click | Hover | Select | Fill | FindText | Wait | Read | ReadText

AnswerOp = Literal["text", "number", "sum", "difference", "ratio", "max_label", "min_label",
                   "trend", "count"]


@dataclass(frozen=True)
class Answer:
    """How the final answer is computed from the captured slots (see plan.compute)."""

    op: AnswerOp
    slots: tuple[str, ...]
    decimals: int = 0
    # For ``count``: the value to count; for ``trend``: the words for up and down.
    match: str = ""


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    answer: Answer


@dataclass(frozen=True)
class SuiteTask:
    """One suite task. ``to_json`` gives exactly the task file's fields (no plan)."""

    id: str
    instruction: str
    url: str
    answer: str
    answer_type: AnswerType
    site: str
    kind: Kind
    plan: Plan
    extra_tags: tuple[str, ...] = ()

    @property
    def tags(self) -> tuple[str, ...]:
        return (self.site, self.kind, *self.extra_tags)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "instruction": self.instruction,
            "url": self.url,
            "answer": self.answer,
            "answer_type": self.answer_type,
            "tags": list(self.tags),
        }
