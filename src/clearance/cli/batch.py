"""``clearance check --batch``: JSON lines in, one JSON result per line out.

Each line is ``{"tool", "input", "cwd"?, "agent"?, "session"?, "policy"?}``; engines are loaded
once per distinct (cwd, agent, policy), so hundreds of calls cost one process start.
"""

from __future__ import annotations

import json
import os
import sys

from clearance._json import dumps, loads
from clearance.cli.render import decision_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args
    from clearance.decide.engine import Engine

__all__ = ["run_batch"]


def run_batch(args: Args) -> int:
    from clearance.cli.calls import call_input, load_engine
    from clearance.intent.call import ToolCall

    default_cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    engines: dict[tuple[str, str | None, str | None], Engine] = {}
    absolute: dict[str, str] = {}  # each line's cwd made absolute (the process never moves)
    flag_agent, flag_policy = args.value("--agent"), args.value("--policy")
    status = 0
    out = sys.stdout
    # The C encoder, made once; compact output is the same text as clearance._json.dumps.
    # (No cycle check: a result is a tree of fresh dicts and lists.)
    encode = json.JSONEncoder(separators=(",", ":"), default=str, check_circular=False).encode
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            try:
                item = json.loads(line)  # the C reader: a batch is thousands of lines
            except json.JSONDecodeError as exc:
                try:
                    item = loads(line)  # comments, trailing commas
                except ValueError:
                    raise ValueError(
                        f"not a JSON object: {exc.msg.removesuffix(' at')} at column {exc.colno}"
                    ) from None
            if not isinstance(item, dict) or not isinstance(item.get("tool"), str):
                raise ValueError('expected an object with "tool" and "input"')
            cwd = item.get("cwd") or default_cwd
            agent = item.get("agent") or flag_agent
            policy = item.get("policy")
            if policy is not None and not isinstance(policy, str):
                policy = dumps(policy)
            policy = policy if policy is not None else flag_policy
            session = item.get("session")
            if not isinstance(cwd, str) or any(
                v is not None and not isinstance(v, str) for v in (agent, session)
            ):
                raise ValueError('"cwd", "agent" and "session" must be strings')
            where = absolute.get(cwd)
            if where is None:
                where = absolute[cwd] = os.path.abspath(cwd)
            key = (where, agent, policy)
            engine = engines.get(key)
            if engine is None:
                engine = engines[key] = load_engine(key[0], args, agent, policy)
            raw = item.get("input")
            data = call_input(item["tool"], raw) if isinstance(raw, str) else (raw or {})
            call = ToolCall(item["tool"], data, key[0], agent, session)
            result = decision_json(engine.check(call), engine.policy)
            result["line"] = number
            if engine.policy.errors:
                status = 1
        except ValueError as exc:
            result = {"line": number, "error": str(exc)}
            status = 1
        except Exception as exc:  # one bad line never stops the others
            from clearance.cli._errors import describe

            result = {"line": number, "error": describe(exc)}
            status = 1
        out.write(encode(result) + "\n")
    out.flush()
    return status
