"""The terminal dialog: ask the human at ``/dev/tty`` and return their :class:`Answer`.

Loaded only when a human is actually asked. It talks to the controlling terminal directly, so
it works while stdin carries a hook payload, and restores the terminal whatever happens.

Keys (DESIGN §5, notes §8.1): ``y`` yes once; ``s`` yes for this session with the first
suggested pattern; ``b`` yes for this session in both directions (only when offered); ``n`` no;
``r`` no with a reason (a one-line editor: Enter sends, Esc returns, Ctrl-U clears; a reason is
required); ``↑``/``↓``/``j``/``k`` move the highlight and Enter picks it; ``v`` shows the whole
value. Ctrl-C, Ctrl-D, Esc, a closed terminal and the timeout all deny, saying which. With
``double_press`` every choice takes two presses of its key: the first only arms it.

It does not own: deciding whether to ask, recording grants, or falling back when there is no
terminal — :class:`NoTerminal` tells the caller to do that.
"""

from __future__ import annotations

import time

from clearance.authority import _screen, _tty
from clearance.authority._screen import BOLD, DIM, RESET, REVERSE
from clearance.authority.prompt import Answer

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading

    from clearance.authority.prompt import Choice, Prompt

__all__ = ["NoTerminal", "ask_on_terminal", "terminal_available"]

_POLL_CANCEL = 0.1  # seconds between checks of ``cancel``
_POLL = 0.25  # seconds between checks of the terminal's size while waiting for a key
_PREVIEW_LINES = 6
_VALUE_NAMES = {
    "bash": "Command",
    "mcp": "MCP tool",
    "skill": "Skill",
    **dict.fromkeys(("read", "write", "edit", "grep", "find", "ls"), "Path"),
}


class NoTerminal(OSError):
    """There is no terminal to ask on (``/dev/tty`` cannot be opened): fall back."""

    def __init__(self, path: str, cause: OSError) -> None:
        super().__init__(f"no terminal to ask on: {path}: {cause.strerror or cause}")
        self.path = path


def terminal_available(tty_path: str = "/dev/tty") -> bool:
    """Whether :func:`ask_on_terminal` could open ``tty_path`` as a terminal."""
    try:
        _tty.Terminal(tty_path).discard()
    except OSError:
        return False
    return True


def ask_on_terminal(
    prompt: Prompt,
    *,
    tty_path: str = "/dev/tty",
    double_press: bool = False,
    timeout: float | None = None,
    cancel: threading.Event | None = None,
) -> Answer:
    """Show ``prompt`` on the terminal at ``tty_path`` and wait for the human's answer.

    ``timeout`` (seconds, for the whole dialog) elapsing denies with reason ``timeout``;
    ``cancel`` being set (the ask was answered elsewhere) closes it with reason ``cancelled``.
    Raises :class:`NoTerminal` when the terminal cannot be opened; never raises once it is.
    """
    try:
        terminal = _tty.Terminal(tty_path)
    except OSError as error:
        raise NoTerminal(tty_path, error) from error
    deadline = None if timeout is None else time.monotonic() + timeout
    dialog = _Dialog(prompt, double_press)
    try:
        with terminal:
            shown: tuple[int, int] | None = None
            changed = True
            while True:
                size = terminal.size()
                if changed or size != shown:
                    terminal.draw(dialog.render(*size))
                    shown, changed = size, False
                wait = _POLL
                if deadline is not None:
                    wait = min(wait, deadline - time.monotonic())
                    if wait <= 0:
                        return Answer("deny", "timeout")
                if cancel is not None:
                    if cancel.is_set():
                        return Answer("deny", "cancelled")
                    wait = min(wait, _POLL_CANCEL)
                key = terminal.read_key(wait)
                if key is not None:
                    answer = dialog.handle(key, page=max(size[1] - 1, 1))
                    if answer is not None:
                        return answer
                    changed = True
    except EOFError:
        return Answer("deny", "eof")
    except _tty.Interrupted as interrupted:
        # A hangup is the terminal going away, like end of file; other signals interrupt.
        return Answer("deny", "eof" if interrupted.args == ("SIGHUP",) else "interrupted")


class _Dialog:
    """The dialog's state and its rendering; no I/O, so every key's effect is plain code."""

    def __init__(self, prompt: Prompt, double_press: bool) -> None:
        self.prompt = prompt
        self.double_press = double_press
        options: list[tuple[str, str, Choice | None]] = [("y", "Yes", "once")]
        if prompt.suggestions:
            label = prompt.suggestions[0].label
            if len(prompt.grants) > 1:  # every one is listed above the choices
                label = f"Yes, allow the {len(prompt.grants)} patterns listed for this session"
            options.append(("s", label, "session"))
        if prompt.both_label:
            options.append(("b", prompt.both_label, "session_both"))
        if prompt.always_label:
            options.append(("a", prompt.always_label, "always"))
        options.append(("n", "No", "deny"))
        options.append(("r", "No, with a reason", None))  # None: opens the reason editor
        self.options = options
        self.selected = 0
        self.mode = "options"
        self.armed: str | None = None
        self.notice = ""
        self.reason = ""
        self.top = 0  # first line shown by the value viewer
        self._full: tuple[int, list[str]] | None = None  # the whole value, wrapped, per width

    # -- keys ----------------------------------------------------------------------------------

    def handle(self, key: str, page: int) -> Answer | None:
        """Apply one key; the answer when the dialog is over."""
        if key == "ctrl-c":
            return Answer("deny", "interrupted")
        if key == "ctrl-d":
            return Answer("deny", "eof")
        if self.mode == "reason":
            return self._edit(key)
        if self.mode == "view":
            self._scroll(key, page)
            return None
        keys = [option[0] for option in self.options]
        if key == "esc":
            return Answer("deny", "escape")
        if key in ("up", "k", "shift-tab", "down", "j", "tab"):
            step = -1 if key in ("up", "k", "shift-tab") else 1
            self.selected = (self.selected + step) % len(self.options)
            self.armed, self.notice = None, ""
        elif key == "enter":
            return self._choose(keys[self.selected])
        elif key in keys:
            return self._choose(key)
        elif key == "v":
            self.mode, self.notice = "view", ""
        return None

    def _choose(self, key: str) -> Answer | None:
        index = [option[0] for option in self.options].index(key)
        self.selected = index
        if self.double_press and self.armed != key:
            self.armed, self.notice = key, f"Press {key} again to confirm."
            return None
        self.armed, self.notice = None, ""
        choice = self.options[index][2]
        if choice is None:
            self.mode = "reason"
            return None
        return Answer(choice)

    def _edit(self, key: str) -> Answer | None:
        if key == "enter":
            reason = self.reason.strip()
            if reason:
                return Answer("deny_reason", reason)
            self.notice = "A reason is required: type one, or press Esc to go back."
        elif key == "esc":
            self.mode, self.notice = "options", ""
        elif key == "backspace":
            self.reason = self.reason[:-1]
        elif key == "ctrl-u":
            self.reason = ""
        elif len(key) == 1:
            self.reason += key
            self.notice = ""
        return None

    def _scroll(self, key: str, page: int) -> None:
        moves = {"up": -1, "k": -1, "down": 1, "j": 1, "pgup": -page, "pgdn": page, " ": page}
        if key in moves:
            self.top += moves[key]
        elif key in ("home", "g"):
            self.top = 0
        elif key in ("end", "G"):
            self.top = 1 << 30
        else:
            self.mode = "options"  # any other key returns
        self.top = max(self.top, 0)  # the upper bound depends on the width: see _render_view

    # -- screen --------------------------------------------------------------------------------

    def render(self, width: int, height: int) -> list[str]:
        """The screen for a terminal of ``width`` × ``height`` cells, one string per row."""
        width, height = max(width, 20), max(height, 8)
        if self.mode == "view":
            return self._render_view(width, height)
        bottom = self._render_choices(width)
        return self._render_facts(width, height - len(bottom)) + bottom

    def _render_facts(self, width: int, room: int) -> list[str]:
        prompt = self.prompt
        head = [BOLD + _screen.fit(prompt.title, width) + RESET]
        if prompt.requester:
            head.append(_screen.fit(f"Requested by: {prompt.requester}", width))
        head.append(_screen.fit(f"Tool: {prompt.tool}", width))
        head.append(_screen.fit(_VALUE_NAMES.get(prompt.tool, "Value") + ":", width))
        facts: list[str] = []
        if len(prompt.asking) > 1 or (prompt.asking and prompt.asking[0] != prompt.value):
            marked = " · ".join(f"«{part}»" for part in prompt.asking)
            facts += _wrapped("Asks: ", marked, width, 3)
        if prompt.rule:
            facts += _wrapped("Rule: ", prompt.rule, width, 2)
        for number, reason in enumerate(prompt.reasons):
            facts += _wrapped("Why:  " if number == 0 else "      ", reason, width, 2)
        if len(prompt.grants) > 1:
            facts.append(_screen.fit("s allows, for this session:", width))
            facts += ["  " + _screen.fit(grant, width - 2) for grant in prompt.grants]
        if prompt.both_grants and len(prompt.both_grants) > 1:
            facts.append(_screen.fit("b allows, for this session:", width))
            facts += ["  " + _screen.fit(grant, width - 2) for grant in prompt.both_grants]
        lines = max(1, min(_PREVIEW_LINES, room - len(head) - len(facts) - 1))
        preview, shown = _screen.wrap(prompt.value, width - 2, lines)
        value = ["  " + line for line in preview] if prompt.value else [DIM + "  (empty)" + RESET]
        left = len(prompt.value) - shown
        if left > 0:
            more = f"  … ({left} more characters, press v to view all)"
            value.append(DIM + _screen.fit(more, width) + RESET)
        screen = head + value + facts
        if len(screen) > room:
            screen = [*screen[: max(room - 1, 0)], DIM + "…" + RESET]
        return screen

    def _render_choices(self, width: int) -> list[str]:
        if self.mode == "reason":
            line = _screen.visible(self.reason)
            room = width - 3
            while _screen.cells(line) > room:  # keep the end, where the typing is
                line = line[1:]
            notice = self.notice or "Enter send · Esc back · Ctrl-U clear"
            return [
                "",
                _screen.fit("No, with a reason — the agent is told why:", width),
                "> " + line + REVERSE + " " + RESET,
                "",
                DIM + _screen.fit(notice, width) + RESET,
            ]
        rows = [""]
        for index, (key, label, _choice) in enumerate(self.options):
            text = _screen.fit_middle(label, width - 5)
            if index == self.selected:
                rows.append(REVERSE + f"> {key}  {text}" + RESET)
            else:
                rows.append(f"  {key}  {text}")
        hint = "↑↓ move · Enter choose · Esc deny · v view value"
        rows += ["", _screen.fit(self.notice, width) if self.notice else DIM + hint[:width] + RESET]
        return rows

    def _render_view(self, width: int, height: int) -> list[str]:
        if self._full is None or self._full[0] != width:
            self._full = (width, _screen.wrap(_everything(self.prompt), width)[0])
        lines = self._full[1]
        page = height - 1
        self.top = min(self.top, max(len(lines) - page, 0))
        shown = lines[self.top : self.top + page]
        last = self.top + len(shown)
        status = (
            f"lines {self.top + 1}–{last} of {len(lines)} · ↑↓ Space PgUp PgDn · other keys return"
        )
        return [*shown, *[""] * (page - len(shown)), REVERSE + _screen.fit(status, width) + RESET]


def _everything(prompt: Prompt) -> str:
    """What ``v`` shows: the whole value, what asked, and every pattern an answer grants."""
    parts = [prompt.value]
    if prompt.asking:
        parts.append("Asks about:\n" + "\n".join(f"  {a}" for a in prompt.asking))
    if prompt.grants:
        parts.append("s allows, for this session:\n" + "\n".join(f"  {g}" for g in prompt.grants))
    if prompt.both_grants:
        parts.append(
            "b allows, for this session:\n" + "\n".join(f"  {g}" for g in prompt.both_grants)
        )
    return "\n\n".join(parts)


def _short_home(text: str) -> str:
    """Prose with the home directory written ``~`` (``/home/me/src/x`` → ``~/src/x``)."""
    import os

    home = os.environ.get("HOME", "").rstrip("/")
    if len(home) < 2 or home not in text:
        return text
    return text.replace(home + "/", "~/")


def _wrapped(label: str, text: str, width: int, limit: int) -> list[str]:
    """``label`` then ``text`` on at most ``limit`` lines under it, broken between words, with
    the home directory shortened to ``~``; ``…`` when some is left out."""
    indent = " " * len(label)
    text = _short_home(text)
    lines, shown = _screen.wrap_words(text, width - len(label) - 1, limit)
    if shown < len(text):
        lines[-1] += "…"
    return [(indent if number else label) + line for number, line in enumerate(lines)]
