"""``clearance log``: read the review log, filtered, once or following it."""

from __future__ import annotations

import sys

from clearance.cli._args import UsageError, parse_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

__all__ = ["run_log"]


def run_log(argv: list[str]) -> int:
    from clearance.audit.log import default_log_path
    from clearance.audit.reader import follow, format_line, parse_time, read_log
    from clearance.policy.state import state_root

    args = parse_args(
        argv,
        valued=("--event", "--tool", "--decision", "--session", "--since", "--until", "--file"),
        switches=("--follow", "--json"),
    )
    if args.positionals:
        raise UsageError("log takes options only, e.g. clearance log --decision deny --since 1h")
    path = args.value("--file") or default_log_path(state_root())
    since_text, until_text = args.value("--since"), args.value("--until")
    try:
        since = parse_time(since_text) if since_text else None
        until = parse_time(until_text) if until_text else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    events = args.value("--event")
    kinds = events.split(",") if events else None
    tool, decision = args.value("--tool"), args.value("--decision")
    session = args.value("--session")
    records: Iterator[dict[str, Any]]
    if args.on("--follow"):
        records = follow(path, events=kinds, tool=tool, decision=decision, session=session,
                         since=since, until=until, from_start=True)  # fmt: skip
    else:
        records = read_log(path, events=kinds, tool=tool, decision=decision, session=session,
                           since=since, until=until)  # fmt: skip
    if args.on("--json"):
        from clearance._json import dumps

        render = dumps
    else:
        render = format_line  # type: ignore[assignment]
    try:
        for record in records:
            sys.stdout.write(render(record) + "\n")
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    return 0
