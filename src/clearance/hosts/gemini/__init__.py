"""clearance for gemini: its payloads, answers and installation."""
