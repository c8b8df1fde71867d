"""clearance.intent."""
