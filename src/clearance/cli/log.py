"""``clearance log``: read the review log, filtered, once or following it."""

from __future__ import annotations

import sys

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from clearance.cli._args import Args

__all__ = ["run_log"]


def run_log(args: Args) -> int:
    from clearance.audit.log import default_log_path
    from clearance.audit.reader import follow, format_line, parse_time, read_log
    from clearance.policy.state import state_root

    _check_filters(args)
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
        from clearance.cli._color import enabled

        render = _coloured if enabled(sys.stdout) else format_line  # type: ignore[assignment]
    try:
        for record in records:
            sys.stdout.write(render(record) + "\n")
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    return 0


def _check_filters(args: Args) -> None:
    """``--decision`` and ``--event`` take known words: a typo would silently match nothing."""
    from clearance.audit import review_event as names
    from clearance.cli._args import suggest
    from clearance.policy.rule import ACTIONS

    decision = args.value("--decision")
    if decision is not None and decision not in ACTIONS + names.RESOLUTIONS:
        known = (*ACTIONS, *names.RESOLUTIONS)
        raise UsageError(
            f"--decision {decision!r} is neither allow, ask, deny nor a resolution "
            f"({', '.join(names.RESOLUTIONS)}){suggest(decision, known)}"
        )
    events = args.value("--event")
    if events is None:
        return
    families = (
        names.WAITING.partition(".")[0],
        names.FORWARDED_PREFIX.rstrip("."),
        names.NOTIFY_ERROR.partition(".")[0],
        names.GATE_ERROR,
    )
    known_events = (
        *names.REQUEST_EVENTS, names.ALLOWED, names.DELEGATED, names.GATE_ERROR, names.NOTIFY_ERROR
    )  # fmt: skip
    for event in events.split(","):
        if any(c in event for c in "*?[") or event in families or event in known_events:
            continue
        family, dot, _ = event.partition(".")
        if dot and family in families and family != families[0]:
            continue  # forwarded_permission.* and notify.* names are open-ended
        raise UsageError(
            f"--event {event!r} is not a known event or family ({', '.join(families)}; "
            f"see docs/audit-log.md){suggest(event, (*families, *known_events))}"
        )


def _coloured(record: dict[str, Any]) -> str:
    """A log line with its decision word in the decision's colour."""
    from clearance.audit.reader import format_line
    from clearance.audit.review_event import decision_of
    from clearance.cli._color import paint

    line = format_line(record)
    decision = decision_of(record)
    if decision:
        word = f"  {decision}  "
        line = line.replace(word, f"  {paint(decision, decision, sys.stdout)}  ", 1)
    return line
