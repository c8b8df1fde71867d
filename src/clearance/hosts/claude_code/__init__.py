"""The Claude Code host: hook payloads in, hook answers out, and its ``settings.json``.

Modules: ``payload`` (parse and map a payload to a ``ToolCall``), ``response`` (the JSON Claude
Code reads back), ``hook`` (``clearance hook claude-code``), ``settings`` (install, uninstall,
sync), ``doctor``. Nothing is imported here: the hook process loads only what it uses.
"""
