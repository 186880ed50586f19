"""One registry: prompt, parser and executor can never disagree about the action set."""

from __future__ import annotations

from webfovea.actions.registry import REGISTRY, TEXT_ACTIONS
from webfovea.browser.executor import Executor
from webfovea.dialects.text.prompt import system_text


def test_every_registered_action_is_executable_and_nothing_else() -> None:
    assert Executor.handled_actions() == set(REGISTRY)


def test_the_prompt_describes_exactly_the_text_action_set() -> None:
    text = system_text()
    for spec in TEXT_ACTIONS.values():
        assert spec.signature in text
    described = {line.split("(")[0] for line in text.split("Actions:\n")[1].split("\n\n")[0]
                 .splitlines()}
    assert described == set(TEXT_ACTIONS)
    # Only what a native protocol asks for is left out (the dialects offer it themselves):
    # zoom, and navigate (MCP's open, Gemini's navigate), which the domain lock judges.
    assert set(REGISTRY) - set(TEXT_ACTIONS) == {"zoom", "navigate"}


def test_the_text_action_set_has_no_way_to_open_a_url_or_run_javascript() -> None:
    assert not {"goto", "open_url", "navigate", "evaluate", "execute_js"} & set(TEXT_ACTIONS)
    assert "navigate" not in system_text()
    # And nothing at all runs JavaScript.
    assert not {"evaluate", "execute_js", "goto", "open_url"} & set(REGISTRY)
