"""The gates: each looks at one aspect of a call and answers allow, ask or deny."""
