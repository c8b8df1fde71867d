"""clearance for cursor: its payloads, answers and installation."""
