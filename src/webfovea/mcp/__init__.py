"""webfovea as an MCP server: any MCP client's agent drives the harness's browser.

The server is a dialect (:class:`~webfovea.mcp.dialect.McpDialect`) whose ``decide()``
awaits the client's next tool call; the ordinary agent loop runs one task per MCP session,
so guardrails, budgets, the domain lock and the run directory are the loop's own. See
docs/mcp.md.
"""
