"""`design-agent mcp`: design-agent's methods, guides, checks and project memory as a Model
Context Protocol server, for the agent a designer already uses (Claude Code, Gemini CLI,
Codex, Cursor). Tools, resources and prompts over stdio (`design-agent mcp`) and over
streamable HTTP at /mcp of `design-agent serve`; `mcp install` registers the server in a
client's own configuration. The SDK (`mcp`) is imported only here, when a server starts.
"""
