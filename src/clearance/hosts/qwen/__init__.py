"""clearance for qwen: its payloads, answers and installation."""
