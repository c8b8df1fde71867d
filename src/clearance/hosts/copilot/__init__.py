"""clearance for copilot: its payloads, answers and installation."""
