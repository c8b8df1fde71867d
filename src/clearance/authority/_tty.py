"""The controlling terminal, in raw mode, as a source of key names and a sink of screens.

Opened by path (``/dev/tty``), never through stdin, which may carry a hook payload. Entering
the context saves the terminal's modes, switches to raw mode on the alternate screen and turns
SIGINT/SIGTERM/SIGHUP/SIGQUIT into :class:`Interrupted`; leaving restores all of it, whatever
happened in between — an exception, a signal, or a terminal that went away.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import termios
import tty

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import FrameType, TracebackType
    from typing import Any

__all__ = ["Interrupted", "Terminal"]

_ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"  # alternate screen, hide cursor, clear
_LEAVE = "\x1b[0m\x1b[?25h\x1b[?1049l"  # reset style, show cursor, back to the main screen
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
# Background process group: let tcsetattr succeed (SIGTTOU) and make a read fail with EIO —
# an "eof" deny — instead of stopping the process (SIGTTIN).
_IGNORED = (signal.SIGTTOU, signal.SIGTTIN)
_ESCAPE_WAIT = 0.05  # seconds to tell a lone Esc from the start of an escape sequence

_CONTROL = {
    0x0D: "enter",
    0x0A: "enter",
    0x7F: "backspace",
    0x08: "backspace",
    0x03: "ctrl-c",
    0x04: "ctrl-d",
    0x15: "ctrl-u",
    0x09: "tab",
}
_CSI = {
    "A": "up",
    "B": "down",
    "C": "right",
    "D": "left",
    "H": "home",
    "F": "end",
    "Z": "shift-tab",
    "1~": "home",
    "7~": "home",
    "4~": "end",
    "8~": "end",
    "5~": "pgup",
    "6~": "pgdn",
    "3~": "delete",
}


class Interrupted(Exception):
    """A signal arrived while the terminal was in use."""


class Terminal:
    """One open terminal device. Use as a context manager around the whole conversation."""

    def __init__(self, path: str) -> None:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        try:
            if not os.isatty(fd):
                raise OSError(f"{path} is not a terminal")
            self._saved = termios.tcgetattr(fd)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        self._buffer = b""
        self._handlers: list[tuple[int, Any]] = []
        self._closing = False
        self._pending: list[int] = []

    def __enter__(self) -> Terminal:
        self._install()
        try:
            # TCSAFLUSH drops type-ahead: keys typed for the agent before the dialog appeared
            # must not answer it.
            tty.setraw(self.fd, termios.TCSAFLUSH)
            self.write(_ENTER)
        except BaseException:
            self._close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._close()

    def discard(self) -> None:
        """Close a terminal that was opened but never entered."""
        os.close(self.fd)

    def size(self) -> tuple[int, int]:
        """Columns and rows, 80×24 when the terminal does not say."""
        try:
            columns, rows = os.get_terminal_size(self.fd)
        except OSError:
            return 80, 24
        return columns or 80, rows or 24

    def draw(self, lines: Sequence[str]) -> None:
        """Paint ``lines`` (each already fitted to the width) from the top-left corner."""
        body = "\x1b[0m\x1b[K\r\n".join(lines)
        self.write("\x1b[H" + body + "\x1b[0m\x1b[K\x1b[J")

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        try:
            while data:
                data = data[os.write(self.fd, data) :]
        except OSError as error:
            raise EOFError("the terminal went away") from error

    def read_key(self, timeout: float) -> str | None:
        """The next key's name (``y``, ``up``, ``enter``, ``esc``...), None after ``timeout``.

        Printable characters are themselves; keys without a name are ``unknown``. Raises
        :class:`EOFError` when the terminal is closed.
        """
        key = self._take()
        if key is not None:
            return key
        if self._buffer:  # an incomplete sequence: a lone Esc, or bytes still on their way
            if not self._fill(min(timeout, _ESCAPE_WAIT)):
                return self._flush()
            return self._take() or self.read_key(timeout)
        if not self._fill(timeout):
            return None
        return self._take() or self.read_key(timeout)

    # -- input ---------------------------------------------------------------------------------

    def _fill(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        if not ready:
            return False
        try:
            data = os.read(self.fd, 4096)
        except OSError as error:  # EIO: the other side hung up
            raise EOFError("the terminal went away") from error
        if not data:
            raise EOFError("the terminal reached end of file")
        self._buffer += data
        return True

    def _flush(self) -> str:
        lone_escape = self._buffer == b"\x1b"
        self._buffer = b""
        return "esc" if lone_escape else "unknown"

    def _take(self) -> str | None:
        """Decode one key from the buffer; None when it is empty or holds an incomplete key."""
        data = self._buffer
        if not data:
            return None
        first = data[0]
        if first == 0x1B:
            return self._take_escape(data)
        if first < 0x20 or first == 0x7F:
            self._buffer = data[1:]
            return _CONTROL.get(first, "unknown")
        size = 1 if first < 0x80 else 2 if first < 0xE0 else 3 if first < 0xF0 else 4
        if len(data) < size:
            return None
        self._buffer = data[size:]
        char = data[:size].decode("utf-8", "replace")
        return char if char.isprintable() and len(char) == 1 else "unknown"

    def _take_escape(self, data: bytes) -> str | None:
        if len(data) < 2:
            return None
        if data[1] == 0x5B:  # "[": CSI parameters and intermediates, then one final byte
            end = 2
            while end < len(data) and 0x20 <= data[end] <= 0x3F:
                end += 1
            if end == len(data):
                return None
            self._buffer = data[end + 1 :]
            return _CSI.get(data[2 : end + 1].decode("latin-1"), "unknown")
        if data[1] == 0x4F:  # "O": SS3, as sent by arrows in application mode
            if len(data) < 3:
                return None
            self._buffer = data[3:]
            return _CSI.get(chr(data[2]), "unknown")
        if data[1] == 0x1B:  # Esc Esc: the first is a lone Esc
            self._buffer = data[1:]
            return "esc"
        self._buffer = data[2:]  # Alt+key: not a key of ours
        return "unknown"

    # -- modes and signals ---------------------------------------------------------------------

    def _install(self) -> None:
        def interrupt(number: int, frame: FrameType | None) -> None:
            if self._closing:
                self._pending.append(number)
            else:
                raise Interrupted(signal.Signals(number).name)

        try:
            for number in _SIGNALS:
                self._handlers.append((number, signal.signal(number, interrupt)))
            for number in _IGNORED:
                self._handlers.append((number, signal.signal(number, signal.SIG_IGN)))
        except ValueError:  # not the main thread: signals stay where they are
            pass

    def _close(self) -> None:
        self._closing = True
        with contextlib.suppress(EOFError):
            self.write(_LEAVE)
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        os.close(self.fd)
        for number, handler in reversed(self._handlers):
            signal.signal(number, handler)
        self._handlers = []
        for number in self._pending:  # arrived while restoring: deliver to the old handler
            os.kill(os.getpid(), number)
