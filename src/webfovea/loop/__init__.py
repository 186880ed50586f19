"""The agent loop (one task: observe, ask, parse, execute, feedback) and its guards: the
guardrails on each action and the repeat detector."""
