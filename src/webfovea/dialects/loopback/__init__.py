"""Each dialect's provider, played on loopback: fake OpenAI, Anthropic and Gemini servers and
the renderers that write their replies. ``--model oracle --dialect D`` answers through them
(the oracle bridge), so dialect D runs its real client; the tests script them the same way."""
