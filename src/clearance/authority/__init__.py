"""clearance.authority."""
