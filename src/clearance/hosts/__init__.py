"""clearance.hosts."""
