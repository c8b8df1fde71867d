"""The harness: the engines that decide a line, and the check of its trace against its units."""

from __future__ import annotations

import os
from dataclasses import dataclass

from traced_bash import Sandbox, Trace

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell import analyze

PERMISSIVE = {
    "permission": {
        "*": "ask",
        "bash": {
            "*": "ask",
            "echo *": "allow",
            "cat *": "allow",
            "ls *": "allow",
            "ls": "allow",
            "true": "allow",
            "printf *": "allow",
            "grep *": "allow",
            "git status*": "allow",
            "wc *": "allow",
            "head *": "allow",
            # what makes links and copies, stores or replays history, runs a written file
            "ln *": "allow",
            "cp *": "allow",
            "mv *": "allow",
            "mkdir *": "allow",
            "tee *": "allow",
            "history": "allow",
            "history *": "allow",
            "fc *": "allow",
            "source *": "allow",
            ". *": "allow",
            "bash *": "allow",
            "sh *": "allow",
        },
        "external_directory": "ask",
        "path": {"~/.ssh/*": "deny"},
    }
}


@dataclass
class Harness:
    sandbox: Sandbox
    engines: dict[str, Engine]

    def allowed_by(self, line: str) -> list[str]:
        cwd = str(self.sandbox.work)
        call = ToolCall("bash", {"command": line}, cwd)
        return [name for name, e in self.engines.items() if e.check(call).action == "allow"]

    def command_words(self, line: str) -> set[str]:
        analysis = analyze(line, cwd=str(self.sandbox.work), home=str(self.sandbox.home))
        words = set()
        for unit in analysis.units:
            parts = unit.canonical.split()
            if parts:
                words.add(os.path.basename(parts[0].strip("'\"\\")))
        return words

    def violations(self, trace: Trace) -> list[str]:
        """What the allowed line did that its analysis did not account for."""
        words = self.command_words(trace.line)
        found = [
            f"executed {path} (units: {sorted(words)})"
            for path in trace.executed
            if os.path.basename(path) not in words
        ]
        found += [f"opened {path}" for path in self.sandbox.ssh_opens(trace)]
        return found

    def check(self, lines: list[str]) -> dict[str, list[str]]:
        """Run the allowed ones of ``lines``; map each violating line to its violations."""
        allowed = {line: self.allowed_by(line) for line in lines}
        run = [line for line in lines if allowed[line]]
        bad: dict[str, list[str]] = {}
        for trace in self.sandbox.run(run) if run else []:
            v = self.violations(trace)
            if v:
                bad[trace.line] = [f"allowed by {allowed[trace.line]}", *v]
        return bad
