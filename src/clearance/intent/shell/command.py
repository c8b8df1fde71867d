"""The state of a tree walk, and its simple commands.

:class:`Commands` holds what a :class:`~clearance.intent.shell.walk.Walk` accumulates (the
statements, the salvage ranges, the error regions met inside words) and builds the
:class:`~clearance.intent.shell.statement.Statement` of a simple command: its words, its own
redirects, the substitutions and subshells in it. The walk owns one :class:`Commands` and hands
it simple commands, words and error regions; it gets back the subshells, substitutions and
heredoc continuations of a command through :meth:`Walk.statement`, :meth:`Walk.nested` and
:meth:`Walk.finish`. This is the hot path of the analyzer, so the
common shapes are read with as few tree accesses as possible:

* a command written only in safe characters (letters, digits, ``-_./:,@%+=``, single spaces)
  takes its words from the text once the tree confirms one leaf per token (``_literal_words``);
* otherwise a word, number or single-quoted string without children is built inline from the
  text, and everything else goes through :func:`~clearance.intent.shell.word.build_word`.

ASCII text is sliced as a ``str`` (byte offsets are character offsets); other text goes through
:meth:`Source.slice`.
"""

from __future__ import annotations

from clearance.intent.shell.grammar import KIND, REDIRECTS, STATEMENTS
from clearance.intent.shell.names import SEARCH_PATH_VARIABLES, rereads
from clearance.intent.shell.redirect import Pending, read_redirect
from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import (
    EXPANDING,
    SUBSTITUTIONS,
    Word,
    abutting,
    expansion_floor,
    literal_word,
    scan_substitutions,
)
from clearance.intent.shell.word_build import build_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.reeval import Finding
    from clearance.intent.shell.source import Source
    from clearance.intent.shell.statement import Redirect
    from clearance.intent.shell.walk import Walk

__all__ = ["Commands"]

_BLANK = " \t\\\n"
_LEAVES = frozenset({"word", "number", "raw_string"})  # kinds a command's arguments mostly have
# Text of only these bytes (single spaces apart) splits into words the way the grammar does.
# The table maps them to a letter and keeps every other byte, none of which is a letter: text
# is safe when its translation is all letters.
_SAFE = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,@%+= "
_SAFE_TABLE = bytes.maketrans(_SAFE, b"a" * len(_SAFE))


class Commands:
    """The walk's state and its simple-command builder, owned by one :class:`walk.Walk`."""

    __slots__ = (
        "floor",
        "glued",
        "home_ok",
        "plain",
        "pwd_ok",
        "reread",
        "safe",
        "salvage",
        "src",
        "statements",
        "strays",
        "text",
        "walk",
    )

    def __init__(self, walk: Walk, src: Source, home_ok: bool, pwd_ok: bool) -> None:
        self.walk = walk  # takes back a command's subshells, substitutions and heredocs
        self.src = src
        # ASCII text: byte offsets index the str itself. Safe: only letters, digits, spaces and
        # the punctuation of _SAFE. Plain: no word of it needs more than a slice (nothing to
        # unquote or expand, no line break).
        self.text: str | None = None
        self.safe = self.plain = False
        if src.ascii:
            text = self.text = src.text
            self.safe = src.data.translate(_SAFE_TABLE).isalpha()
            self.plain = self.safe or ("\n" not in text and EXPANDING.isdisjoint(text))
        self.home_ok = home_ok
        self.pwd_ok = pwd_ok
        # The line may hide a string bash evaluates again as code (see reeval.py).
        self.reread = rereads(src.text)
        self.statements: list[Statement] = []
        # Byte ranges worth re-parsing for salvage, with the context of their error region.
        self.salvage: list[tuple[int, int, str]] = []
        self.strays: list[Node] = []  # ERROR nodes met inside words and redirects
        self.glued = False  # a word swallowed a line break (see _glued)
        # The first floor met in the words of the command being built (see sentinel.py).
        self.floor: Floor | None = None

    def record(self, stmt: Statement) -> None:
        """Append ``stmt``, then the error regions met while building it (as their own units)."""
        if self.glued:
            stmt.unresolved = True
            self.glued = False
        if self.floor is not None:
            if stmt.floor is None:
                stmt.floor = self.floor
            self.floor = None
        self.statements.append(stmt)
        if self.strays:
            strays = self.strays
            self.strays = []
            context = stmt.context if stmt.kind != "compound" else ""
            for node in strays:
                self.error(node, context, stmt.scope)

    def error(self, node: Node, ctx: str, scope: Scope, salvage: bool = True) -> None:
        start = node.start_byte
        end = node.end_byte
        text = self.src.slice(start, end)
        if not text.strip():
            return
        self.statements.append(Statement("error", text, ctx, scope, True))
        if not salvage:
            return
        ranges = self.salvage
        ranges.append((start, end, ctx))
        parent = node.parent
        if parent is not None and KIND[parent.kind_id] != "program" and parent.end_byte > end:
            ranges.append((end, parent.end_byte, ctx))
        for child in node.children:
            if KIND[child.kind_id] == "ERROR":
                ranges.append((child.end_byte, end, ctx))
            elif KIND[child.kind_id] in STATEMENTS:
                ranges.append((child.start_byte, child.end_byte, ctx))

    def reevaluated(self, node: Node, stmt: Statement, arith: bool = False) -> list[Finding]:
        """Strings of ``node`` that bash evaluates again as code: floor ``stmt`` with them
        (:data:`~clearance.intent.sentinel.REEVALUATED`); :meth:`rerun` then adds the
        code they run, once ``stmt`` is recorded."""
        from clearance.intent.shell import reeval  # only for a line that may re-read a string
        from clearance.intent.shell.reeval_tree import tree

        found = tree(node, self.src, arith)
        if found and stmt.floor is None:
            stmt.floor = reeval.floor(found)
        return found

    def rerun(self, found: list[Finding], stmt: Statement) -> None:
        """The code each finding runs, as programs of their own (in a fresh shell)."""
        from clearance.intent.shell import reeval

        for finding in found[: reeval.MAX_FINDINGS]:
            for text, sure in reeval.inner_code(finding):
                if text.strip():
                    own = Scope(stmt.scope)
                    unres = stmt.unresolved or not sure
                    self.statements.append(
                        Statement("nested", text, "command_substitution", own, unres)
                    )

    def redirect(self, node: Node, pending: Pending) -> None:
        read_redirect(node, pending, self.src, self.word, self.strays)

    def word(self, node: Node, subs: list[Node]) -> Word:
        if node.has_error:
            self.find_errors(node)
        word = build_word(node, self.src, subs, self.home_ok, self.pwd_ok)
        if "\n" in word.raw and KIND[node.kind_id] == "word":
            self._glued(word)
        if word.floor is not None and self.floor is None:
            self.floor = word.floor
        return word

    def _glued(self, word: Word) -> None:
        """The grammar glues a line that starts with a backslash to the previous command
        (``ls\n\\rm x`` parses as ``ls`` with argument ``\n\\rm``); bash runs it as its own
        command. Mark the statement unresolved and salvage from the newline on."""
        raw = word.raw
        index = raw.find("\n")
        while index > 0 and raw[index - 1] == "\\":
            index = raw.find("\n", index + 1)
        if index < 0:
            return
        self.glued = True
        offset = word.start + len(raw[:index].encode("utf-8", "surrogatepass"))
        self.salvage.append((offset, len(self.src.data), ""))

    def find_errors(self, node: Node) -> None:
        if KIND[node.kind_id] == "ERROR":
            self.strays.append(node)
            return
        for child in node.children:
            if child.has_error and KIND[child.kind_id] not in SUBSTITUTIONS:
                self.find_errors(child)

    def command(
        self,
        node: Node,
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        pending: Pending | None,
        depth: int,
    ) -> None:
        """A simple command. ``pending`` holds the redirects of an enclosing redirected
        statement; without one, a :class:`Pending` is made only if the command has its own."""
        src = self.src
        text = self.text
        plain = self.plain
        subs: list[Node] = pending.subs if pending is not None else []
        subshells: list[Node] | None = None
        assigns: list[tuple[str, str | None]] | None = None
        spans = text is not None  # every separator so far is the source text between words
        found = _literal_words(node, text, self.safe) if text is not None else None
        if found is None:
            words: list[Word] = []
            children = node.children
        else:
            words = found
            children = []
        for child in children:
            kind = KIND[child.kind_id]
            if kind == "command_name":
                if child.child_count == 1:
                    child = child.children[0]
                    kind = KIND[child.kind_id]
                else:
                    kind = "command_name"
            elif kind not in _LEAVES:
                if kind == "variable_assignment":
                    scan_substitutions(child, subs)
                    if self.floor is None:
                        self.floor = expansion_floor(child, src)
                    if assigns is None:
                        assigns = []
                    assigns.append(_assignment(src.slice(child.start_byte, child.end_byte)))
                elif kind == "ERROR":
                    self.strays.append(child)
                elif kind in REDIRECTS:
                    if pending is None:
                        pending = Pending()
                        pending.subs = subs
                    before = len(pending.extra)
                    self.redirect(child, pending)
                    for extra in pending.extra[before:]:
                        spans = _add(words, extra, src) and spans
                    del pending.extra[before:]
                elif kind == "subshell":
                    if subshells is None:
                        subshells = []
                    subshells.append(child)
                    start = child.start_byte
                    end = child.end_byte
                    pseudo = Word(start, end, src.slice(start, end))
                    pseudo.lead_dyn = True  # computed: its value is whatever the subshell prints
                    spans = _add(words, pseudo, src) and spans
                elif kind != "comment" and child.is_named:
                    spans = _add(words, self.word(child, subs), src) and spans
                continue
            # An argument, or the command name's single child (of any kind). A word, number or
            # single-quoted string without children is built inline from ASCII text.
            if kind not in _LEAVES or text is None or child.child_count:
                spans = _add(words, self.word(child, subs), src) and spans
                continue
            start, end = child.byte_range
            raw = text[start:end]
            if kind == "raw_string":
                word = literal_word(start, end, raw)
                word.value = raw[1:-1]
                word.quoted = True
            elif plain or (EXPANDING.isdisjoint(raw) and "\n" not in raw):
                word = literal_word(start, end, raw)  # nothing to unquote or expand
            else:
                word = build_word(child, src, subs, self.home_ok, self.pwd_ok)
                if kind == "word" and "\n" in raw:
                    self._glued(word)
                if word.floor is not None and self.floor is None:
                    self.floor = word.floor
            if not words:
                word.sep = ""
                words.append(word)
            elif text[words[-1].end : start] == " ":
                words.append(word)  # one space between: the separator as built
            else:
                spans = _add(words, word, src) and spans
        if pending is not None:
            for extra in pending.extra:
                spans = _add(words, extra, src) and spans
            redirects = pending.redirects
            if not writes:
                for redirect in redirects:
                    if redirect.writes:
                        writes = True
                        break
            if words:
                _descriptors(words, redirects)
        else:
            redirects = []
        if not words:
            line = src.slice(node.start_byte, node.end_byte)
        elif spans and text is not None:
            line = text[words[0].start : words[-1].end]
        else:
            line = "".join([w.sep + w.raw for w in words])
        stmt = Statement("simple", line, ctx, scope, unres, writes)
        stmt.words = words
        stmt.redirects = redirects
        stmt.assigns = assigns
        if self.floor is not None:
            stmt.floor = self.floor
            self.floor = None
        again = self.reevaluated(node, stmt) if self.reread else None
        if subshells is not None:
            # `time ( … )` times a subshell; anything else before `(` is a bash syntax error.
            if len(words) == 2 and words[0].value == "time" and words[0].raw == "time":
                stmt.time_subshell = True
            else:
                stmt.unresolved = True
        i = 1
        while i < len(words):
            if words[i].start == words[i - 1].end and words[i].raw[:1] == "\\":
                # The grammar ends a word before an escape after an expansion (`$f\nv` as `$f`
                # and `\nv`) or after a brace (`a{\z}` as `a{` and `\z}`); bash reads one word.
                # Known text on both sides is that word; anything else leaves it unknown.
                whole = abutting(words[i - 1], words[i])
                if whole is None:
                    stmt.unresolved = True
                    break
                words[i - 1 : i + 1] = [whole]
                continue
            i += 1
        if self.glued or self.strays:
            self.record(stmt)
        else:
            self.statements.append(stmt)
        if again:
            self.rerun(again, stmt)
        if subshells is not None:
            for sub in subshells:
                own = Scope(scope)
                for child in sub.children:
                    if child.is_named:
                        self.walk.statement(
                            child, "subshell", own, stmt.unresolved, False, depth + 1
                        )
        if pending is not None:
            if pending.subs or pending.heredoc or pending.after:
                self.walk.finish(pending, ctx, scope, unres, writes, depth)
        elif subs:
            self.walk.nested(subs, None, scope, unres, depth)


def _assignment(text: str) -> tuple[str, str | None]:
    """``(name, value)`` of an assignment as typed; the value only when literal, but for the
    search path, whose entries are judged as typed (``PATH=/opt/x/bin:$PATH cmd``)."""
    name, _, value = text.partition("=")
    name = name.rstrip("+")
    if name in SEARCH_PATH_VARIABLES:
        return name, value
    if len(value) > 1 and value[0] == value[-1] == "'" and "'" not in value[1:-1]:
        return name, value[1:-1]
    if any(c in value for c in "$`\\\"'*?[{~("):
        return name, None
    return name, value


def _add(words: list[Word], word: Word, src: Source) -> bool:
    """Append ``word`` with its separator: the source spacing before it, unless something (a
    redirect, an assignment) was cut there. Whether the separator is that source text."""
    if not words:
        word.sep = ""
        words.append(word)
        return True
    prev_end = words[-1].end
    words.append(word)
    if word.start < prev_end:
        word.sep = " "
        return False
    gap = src.slice(prev_end, word.start)
    if not gap and _joins(words[-2], word):
        # Two pieces of one literal word the grammar split (`a{\z{b}`): bash reads one word
        # (clearance.intent.shell.misread lets only such pieces touch).
        words.pop()
        last = words[-1]
        last.end, last.raw = word.end, last.raw + word.raw
        last.value = (last.value or "") + (word.value or "")
        last.quoted = last.quoted or word.quoted
        last.glob = last.glob or word.glob
        return True
    if gap.strip(_BLANK):
        word.sep = " "
        return False
    word.sep = gap
    return True


def _joins(last: Word, word: Word) -> bool:
    """Whether ``word``, touching ``last``, is one literal word with it to bash."""
    return all(
        w.value is not None and w.segs is None and w.alts is None and w.floor is None
        and not (w.unknown or w.lead_dyn or w.dq_dyn)
        for w in (last, word)
    )  # fmt: skip


def _literal_words(node: Node, text: str, safe: bool) -> list[Word] | None:
    """The words of a command written in safe text (see ``_SAFE``), read from the text; ``None``
    when the command is anything else.

    The text is trusted only where the tree agrees: as many named children as space-separated
    tokens, and one descendant more than those and the command itself. A clean ``command``
    always has a ``command_name`` child, which has a child of its own: that is the one, so
    there is no unnamed child (``==`` is one) and every other child is a leaf. Each child is
    then a word, number or regex leaf spanning one token, and each is its own value.
    """
    start, end = node.byte_range
    line = text[start:end]
    if not safe and not line.encode().translate(_SAFE_TABLE).isalpha():
        return None
    tokens = line.split(" ")
    count = len(tokens)
    if node.named_child_count != count or node.descendant_count != count + 2 or node.has_error:
        return None
    words: list[Word] = []
    for token in tokens:
        end = start + len(token)
        words.append(literal_word(start, end, token))
        start = end + 1
    words[0].sep = ""
    return words


def _descriptors(words: list[Word], redirects: list[Redirect]) -> None:
    """``cat 0<f``, ``cat {fd}<f``: the grammar reads the descriptor ``0`` or a named one right
    before a redirect as an argument (``1``, ``2`` … it reads as descriptors); bash binds it to
    the redirect."""
    for redirect in redirects:
        if redirect.at < 0 or redirect.fd is not None or redirect.op[:1] == "&":
            continue  # (`cat 0&>f`: `&>` takes no descriptor, the 0 is an argument)
        for i in range(1, len(words)):
            word = words[i]
            if word.end == redirect.at and _descriptor(word.raw):
                redirect.fd = word.raw
                del words[i]
                break


def _descriptor(raw: str) -> bool:
    """A descriptor as bash reads one before a redirect: digits, or ``{name}``."""
    if not raw.isascii():
        return False
    return raw.isdigit() or (raw[:1] == "{" and raw[-1:] == "}" and raw[1:-1].isidentifier())
