"""clearance: a permission system for AI coding agents.

Every tool call an agent makes (a shell command, a file read or write, an MCP tool) is decided
allow, ask or deny from a policy the user wrote. See ``docs/`` and ``clearance --help``.
"""

__version__ = "0.1.0"
