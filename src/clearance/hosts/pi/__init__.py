"""clearance for pi: the shipped extension, its hook process and its installation."""
