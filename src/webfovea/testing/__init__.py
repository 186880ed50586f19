"""Test helpers that ship with webfovea, for users' own offline smoke tests."""

from webfovea.testing.fake_provider import (
    FakeProvider,
    FakeRequest,
    FakeTurn,
    Policy,
    ScriptedPolicy,
    fit_within,
)

__all__ = ["FakeProvider", "FakeRequest", "FakeTurn", "Policy", "ScriptedPolicy", "fit_within"]
