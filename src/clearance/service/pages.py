"""The console's HTML: server-rendered, escaped here, with one small script (``static/console.js``).

No build step and no framework: each page is a string; every value that comes from an agent
(commands, paths, reasons, names) goes through :func:`html.escape`.
"""

from __future__ import annotations

import os
import time
from html import escape

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.service.auth import ConsoleSession

__all__ = [
    "asks_fragment",
    "continue_page",
    "decisions_page",
    "grants_page",
    "home_page",
    "message_page",
]


def _e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def _layout(title: str, body: str, session: ConsoleSession | None) -> str:
    csrf = f'<meta name="csrf" content="{_e(session.csrf)}">' if session else ""
    nav = ""
    if session is not None:
        nav = (
            '<nav><a href="/">Pending</a> <a href="/decisions">Decisions</a> '
            '<a href="/grants">Grants</a></nav>'
        )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{csrf}<title>{_e(title)} · clearance</title>"
        '<link rel="stylesheet" href="/static/console.css">'
        '<script src="/static/console.js" defer></script></head><body>'
        f"<header><h1>clearance</h1>{nav}</header><main>{body}</main></body></html>"
    )


def message_page(title: str, text: str, session: ConsoleSession | None = None) -> str:
    return _layout(title, f"<h2>{_e(title)}</h2><p class=note>{_e(text)}</p>"
                   '<p><a href="/">Back to the console</a></p>', session)  # fmt: skip


def continue_page(path: str) -> str:
    """For a link followed from another site: one click here is same-origin, so the session
    cookie (SameSite=Strict) goes with it. The script carries the link's #fragment over."""
    body = (
        "<h2>Open the console</h2><p class=note>You followed a link from another site.</p>"
        f'<p><a id=continue class=button href="{_e(path)}">Continue to the console</a></p>'
    )
    return _layout("Open the console", body, None)


def _field(label: str, value: object) -> str:
    if value in (None, "", []):
        return ""
    return f"<dt>{_e(label)}</dt><dd>{_e(value)}</dd>"


def _ask_card(ask: dict[str, Any], session: ConsoleSession, files: list[tuple[str, str]]) -> str:
    ident = _e(ask["id"])
    gates = "".join(
        "<li><code>{}</code> <span class=surface>{}</span>{}<br><small>{}</small></li>".format(
            _e(g["unit"] or g["value"]), _e(g["surface"]),
            f' <span class=sentinel>{_e(g["sentinel"])}</span>' if g["sentinel"] else "",
            _e(g["message"]),
        )
        for g in ask["gates"]
    )  # fmt: skip
    patterns = ask["patterns"]
    pattern_text = "; ".join(f'{p["surface"]} "{p["pattern"]}"' for p in patterns)
    left = max(0, int(ask["expires"] - time.time()))
    csrf = f'<input type=hidden name=csrf value="{_e(session.csrf)}">'
    buttons = "<button name=action value=once class=allow>Yes, once</button>"
    if patterns:
        buttons += (
            f'<button name=action value=session class=allow title="{_e(pattern_text)}">'
            f"Yes, for the session: <code>{_e(pattern_text)}</code></button>"
            f'<button name=action value=agent class=allow title="{_e(pattern_text)}">'
            f"Yes, for this agent only: <code>{_e(pattern_text)}</code></button>"
        )
        options = "".join(f'<option value="{_e(k)}">{_e(label)}</option>' for k, label in files)
        first = patterns[0]
        buttons += (
            "<span class=always><button name=action value=always class=allow>"
            f'Always: <code>{_e(first["surface"])} "{_e(first["pattern"])}"</code></button> '
            f"<label>in <select name=file>{options}</select></label></span>"
        )
    deny = (
        '<span class=deny-row><input name=reason placeholder="Reason for the agent (optional)" '
        "maxlength=500><button name=action value=deny class=deny>Deny</button></span>"
    )
    facts = (
        _field("machine", ask["machine"]) + _field("host", ask["host"])
        + _field("agent", ask["agent"] or "(main agent or headless)")
        + _field("session", ask["session"]) + _field("cwd", ask["cwd"])
        + _field("tool", ask["tool"]) + _field("rule", ask["rule"])
        + _field("relayed by", " → ".join(ask["via"]))
        + _field("answer within", f"{left // 60} min {left % 60} s")
    )  # fmt: skip
    reasons = "".join(f"<li>{_e(r)}</li>" for r in ask["reasons"])
    return (
        f'<article class=ask id="ask-{ident}" data-id="{ident}">'
        f"<h3>{_e(ask['title'])}</h3>"
        f"<p class=requester>{_e(ask['requester'] or '')}</p>"
        f"<pre class=command>{_e(ask['value'])}</pre>"
        f'<form method=post action="/asks/{ident}" class=answer>{csrf}'
        f"<div class=buttons>{buttons}</div>{deny}</form>"
        f"<details open><summary>Why it asks</summary><ul>{reasons}</ul>"
        f"<ul class=gates>{gates}</ul></details>"
        f"<dl>{facts}</dl></article>"
    )


def asks_fragment(
    asks: list[dict[str, Any]], session: ConsoleSession, files: list[tuple[str, str]]
) -> str:
    if not asks:
        return "<p class=empty>No ask is waiting. New ones appear here by themselves.</p>"
    return "".join(_ask_card(a, session, files) for a in asks)


def home_page(fragment: str, count: int, session: ConsoleSession, info: str) -> str:
    body = (
        f"<h2>Pending asks <span id=count class=count>{count}</span></h2>"
        "<p id=live class=note>Connecting…</p><div id=flash role=status></div>"
        f"<section id=asks>{fragment}</section>"
        f"<footer><p class=note>{_e(info)}</p>"
        f'<form method=post action="/login-links"><input type=hidden name=csrf '
        f'value="{_e(session.csrf)}"><button>New login link (for another device)</button>'
        "</form></footer>"
    )
    return _layout("Pending asks", body, session)


def decisions_page(
    records: list[dict[str, Any]],
    filters: dict[str, str],
    session: ConsoleSession,
    note: str | None = None,
) -> str:
    def box(name: str, label: str) -> str:
        return (f'<label>{_e(label)} <input name={name} value="{_e(filters.get(name, ""))}" '
                "size=10></label>")  # fmt: skip

    form = (
        '<form method=get class=filters>'
        + box("tool", "tool") + box("decision", "decision") + box("session", "session")
        + box("since", "since") + "<button>Filter</button></form>"
    )  # fmt: skip
    rows = []
    for r in records:
        who = r.get("answeredBy") or r.get("decidedBy") or r.get("decided_by") or ""
        if r.get("console"):
            who = f"{r['console']} from {r.get('address', '?')}"
        if r.get("instance"):  # a broker audit entry: the serving instance that decided it
            who = f"{who} (instance {r['instance']})" if who else f"instance {r['instance']}"
        value = r.get("command") or r.get("value") or r.get("path") or ""
        rows.append(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td>"
            "<td>{}</td></tr>".format(
                _e(str(r.get("timestamp", ""))[:19]), _e(r.get("event")),
                _e(record_machine(r)), _e(r.get("tool")), _e(value),
                _e(r.get("decision") or r.get("result") or r.get("answer") or r.get("resolution")),
                _e(who),
            )
        )  # fmt: skip
    table = (
        "<div class=scroll><table><thead><tr><th>time</th><th>event</th><th>machine</th>"
        "<th>tool</th><th>what</th><th>decision</th><th>by</th></tr></thead><tbody>"
        + ("".join(rows) or "<tr><td colspan=7>No matching decision.</td></tr>")
        + "</tbody></table></div>"
    )
    warning = f"<p class=note id=broker-note>{_e(note)}</p>" if note else ""
    body = "<h2>Recent decisions</h2>" + warning + form + table
    return _layout("Recent decisions", body, session)


def record_machine(record: dict[str, Any]) -> str:
    """Which machine a review-log record's ask came from: a forwarded ask's record names the
    requester's machine (``machine``, ``None`` when it gave none); any other record was written
    by a hook of the machine whose log it is, this one."""
    from clearance.service.broker import machine_label

    if "machine" in record:
        machine = record["machine"]
        return machine_label(machine if isinstance(machine, str) else None)
    return machine_label(os.uname().nodename)


def grants_page(grants: list[tuple[str, str]], serving: str, session: ConsoleSession) -> str:
    items = "".join(
        f'<li><code>{_e(surface)} "{_e(pattern)}"</code>'
        '<form method=post action="/grants/revoke" class=inline>'
        f'<input type=hidden name=csrf value="{_e(session.csrf)}">'
        f'<input type=hidden name=surface value="{_e(surface)}">'
        f'<input type=hidden name=pattern value="{_e(pattern)}">'
        "<button class=deny>Revoke</button></form></li>"
        for surface, pattern in grants
    )
    body = (
        f"<h2>Session grants</h2><p class=note>Grants of the serving session "
        f"<code>{_e(serving)}</code> (“yes, for the session”).</p>"
        f"<ul class=grants id=grants>{items or '<li>No grant.</li>'}</ul>"
    )
    return _layout("Session grants", body, session)
