"""clearance for OpenCode: the shipped plugin, its hook process and its installation."""
