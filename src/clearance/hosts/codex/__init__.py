"""clearance for Codex: its payloads, answers and installation."""
