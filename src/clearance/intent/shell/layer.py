"""One wrapper layer: what kind of wrapper a command is and where its inner command is.

:mod:`wrapper` and :mod:`runners` build :class:`Layer` values; :mod:`assembly` reads them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from clearance.intent.shell.word import Word

    Kind = Literal["opaque", "indirection"]

__all__ = ["Layer", "basename", "glued", "join"]


def basename(value: str) -> str:
    if "/" not in value:
        return value  # the usual command word: already its own basename
    return value.rstrip("/").rsplit("/", 1)[-1] or value


def join(words: Sequence[Word]) -> str:
    """The text of consecutive words as typed (the first word's separator dropped)."""
    if not words:
        return ""
    return words[0].raw + "".join([w.sep + w.raw for w in words[1:]])


def glued(word: Word, prefix: str) -> Word:
    """The part of ``word`` after an option spelled into it (``-xrm`` → ``rm``,
    ``--exec=rm`` → ``rm``): a word of its own, computed when ``word`` is."""
    from clearance.intent.shell.word import Word

    raw = word.raw[len(prefix) :] if word.raw.startswith(prefix) else word.raw
    rest = Word(word.end - len(raw.encode("utf-8", "surrogatepass")), word.end, raw)
    if word.value is not None:
        rest.value = word.value[len(prefix) :]
    rest.quoted = word.quoted
    rest.glob = word.glob
    rest.lead_dyn = word.value is None
    rest.sep = ""
    return rest


class Layer:
    """One wrapper layer: its kind, name, and where its inner command or payload is.

    ``start``/``end`` delimit the inner command's words (``start`` is ``None`` when the peel
    failed or no command is given); ``head`` is a first inner word glued to an option
    (``fd -xrm``); ``payload`` is an opaque wrapper's literal command string; ``stdin`` marks a
    wrapper that reads its commands from standard input (``bash -s``, ``source /dev/stdin``,
    ``at now``), whose literal here-string or heredoc the assembly parses as its payload.
    """

    __slots__ = ("end", "head", "kind", "name", "own", "payload", "start", "stdin")

    def __init__(
        self,
        kind: Kind,
        name: str,
        start: int | None,
        end: int,
        payload: str | None = None,
        *,
        stdin: bool = False,
        head: Word | None = None,
    ) -> None:
        self.kind: Kind = kind
        self.name = name
        self.start = start  # first word of the inner command (None: the peel failed)
        self.end = end  # one past its last word
        self.payload = payload  # an opaque wrapper's literal payload
        self.stdin = stdin
        self.head = head
        self.own: Sequence[Word] = ()  # the wrapper's own words (set while peeling)

    def inner(self, words: Sequence[Word]) -> Sequence[Word]:
        """The inner command's words (empty when there is none)."""
        if self.start is None:
            return ()
        rest = words[self.start : self.end]
        return [self.head, *rest] if self.head is not None else rest
