"""The tree walk: from a tree-sitter bash tree to statements in source order.

The walk sees through chains, pipelines, substitutions (``$(…)``, backticks, ``<(…)``,
``>(…)``), subshells, compound statements, function bodies, heredoc bodies with an unquoted
delimiter, and the hosts of substitutions (arguments, redirect targets, herestrings, assignment
values, declarations, tests, conditions, for-word lists, case subjects). It records structure
only: wrappers, effects and spellings belong to :mod:`assembly` and the modules it calls.

Fail closed (notes §5.3): an ``ERROR`` region is recorded whole and never descended (the grammar
invents structure inside it); every statement at or beneath a statement whose subtree holds an
error is marked unresolved. ``program``/``list``/``pipeline`` containers are not consulted.
"""

from __future__ import annotations

from clearance.intent.shell.grammar import (
    CLAUSES,
    COMPOUNDS,
    CONTAINERS,
    EXPRESSION_FIELDS,
    KIND,
    PLAIN,
    REDIRECTS,
    STATEMENTS,
    SUB_CONTEXT,
    WORDLIKE,
    flatten,
)
from clearance.intent.shell.heredoc import substitutions
from clearance.intent.shell.redirect import Pending, read_redirect
from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import (
    EXPANDING,
    SUBSTITUTIONS,
    Word,
    build_word,
    collect_substitutions,
    plain_word,
    scan_substitutions,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.shell.source import Source
    from clearance.intent.shell.word import Word

__all__ = ["DEPTH_LIMIT", "Walk"]

DEPTH_LIMIT = 48
_BLANK = " \t\\\n"
_LEAVES = frozenset({"word", "number", "raw_string"})  # kinds a command's arguments mostly have
# Text of only these bytes (single spaces apart) splits into words the way the grammar does.
# The table maps them to a letter and keeps every other byte, none of which is a letter: text
# is safe when its translation is all letters.
_SAFE = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,@%+= "
_SAFE_TABLE = bytes.maketrans(_SAFE, b"a" * len(_SAFE))


class Walk:
    """Walks one tree; ``statements`` and ``errors`` hold the result."""

    __slots__ = (
        "glued",
        "home_ok",
        "plain",
        "pwd_ok",
        "safe",
        "salvage",
        "src",
        "statements",
        "strays",
        "text",
    )

    def __init__(self, src: Source, home_ok: bool, pwd_ok: bool) -> None:
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
        self.statements: list[Statement] = []
        # Byte ranges worth re-parsing for salvage, with the context of their error region.
        self.salvage: list[tuple[int, int, str]] = []
        self.strays: list[Node] = []  # ERROR nodes met inside words and redirects
        self.glued = False  # a word swallowed a line break (see _glued)

    def _record(self, stmt: Statement) -> None:
        """Append ``stmt``, then the error regions met while building it (as their own units)."""
        if self.glued:
            stmt.unresolved = True
            self.glued = False
        self.statements.append(stmt)
        if self.strays:
            strays = self.strays
            self.strays = []
            context = stmt.context if stmt.kind != "compound" else ""
            for node in strays:
                self._error(node, context, stmt.scope)

    def run(self, root: Node, context: str, scope: Scope, unresolved: bool = False) -> None:
        if KIND[root.kind_id] == "program" and root.child_count == 1:
            child = root.children[0]
            kind = KIND[child.kind_id]
            if kind == "command":  # the usual program: one simple command
                self._command(child, context, scope, unresolved or child.has_error, False, None, 0)
                return
            if kind == "list" or kind == "pipeline":
                self._block(child, context, scope, unresolved, False, 0)
                return
            if kind == "redirected_statement":
                self._redirected(child, context, scope, unresolved or child.has_error, False, 0)
                return
        self._statement(root, context, scope, unresolved, False, 0)

    # -- statements -----------------------------------------------------------------------

    def _block(
        self,
        node: Node,
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        depth: int,
        tail: Pending | None = None,
    ) -> None:
        kind = KIND[node.kind_id]
        children = flatten(node) if kind == "list" else node.children
        count = len(children)
        if count == 1 and tail is None:  # the usual program: one statement
            child = children[0]
            if child.is_named:
                self._statement(child, ctx, scope, unres, writes, depth)
            return
        kinds = [KIND[c.kind_id] for c in children]
        split = kind == "pipeline" and node.named_child_count > 1
        last = -1
        if tail is not None:
            for i, child in enumerate(children):
                if child.is_named and kinds[i] != "comment":
                    last = i
        for i, child in enumerate(children):
            if not child.is_named or kinds[i] == "comment":
                continue
            own = scope
            if split or (i + 1 < count and kinds[i + 1] == "&"):
                own = Scope(scope)  # a pipeline element or a background job is a subshell
            if i == last and tail is not None:
                self._attach(child, tail, ctx, own, unres, writes, depth)
            elif kinds[i] == "command" and depth <= DEPTH_LIMIT:
                self._command(child, ctx, own, unres or child.has_error, writes, None, depth)
            else:
                self._statement(child, ctx, own, unres, writes, depth)

    def _statement(
        self, node: Node, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        kind = KIND[node.kind_id]
        if kind == "command" and depth <= DEPTH_LIMIT:
            self._command(node, ctx, scope, unres or node.has_error, writes, None, depth)
            return
        if kind in CONTAINERS:
            self._block(node, ctx, scope, unres, writes, depth)
            return
        if kind == "comment":
            return
        if kind == "ERROR" or depth > DEPTH_LIMIT:
            self._error(node, ctx, scope, depth <= DEPTH_LIMIT)
            return
        unres = unres or node.has_error
        if kind == "redirected_statement":
            self._redirected(node, ctx, scope, unres, writes, depth)
        elif kind in COMPOUNDS:
            self._compound(node, ctx, scope, unres, writes, Pending(), depth)
        elif kind in PLAIN or kind == "test_command":
            self._plain(node, ctx, scope, unres, writes, depth)
        else:
            self._error(node, ctx, scope)

    def _error(self, node: Node, ctx: str, scope: Scope, salvage: bool = True) -> None:
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

    def _nested(
        self, subs: list[Node], ctx: str | None, scope: Scope, unres: bool, depth: int
    ) -> None:
        """Walk substitutions: each is a fresh shell and a fresh redirect scope (§5.5)."""
        for sub in subs:
            inner = ctx or SUB_CONTEXT.get(KIND[sub.kind_id], "command_substitution")
            own = Scope(scope)
            if depth + 1 > DEPTH_LIMIT:
                self._error(sub, inner, own)
                continue
            for child in sub.children:
                if child.is_named:
                    self._statement(child, inner, own, unres, False, depth + 1)

    def _finish(
        self, pending: Pending, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        if pending.subs:
            self._nested(pending.subs, None, scope, unres, depth)
        for body in pending.heredoc:
            self._heredoc(body, scope, unres)
        for node in pending.after:
            self._statement(node, ctx, scope, unres, writes, depth)

    def _heredoc(self, body: str, scope: Scope, unres: bool) -> None:
        """Each substitution of an unquoted heredoc body, as a program (an unclosed one is also
        an unresolved unit)."""
        for text, sure in substitutions(body):
            if not text.strip():
                continue
            if not sure:
                self.statements.append(Statement("error", text, "heredoc", scope, True))
            own = Scope(scope)
            self.statements.append(Statement("nested", text, "heredoc", own, unres or not sure))

    def _redirected(
        self,
        node: Node,
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        depth: int,
        outer: Pending | None = None,
    ) -> None:
        pending = Pending()
        body: Node | None = None
        for i, child in enumerate(node.children):
            if KIND[child.kind_id] in REDIRECTS:
                self._redirect(child, pending)
            elif body is None and node.field_name_for_child(i) == "body":
                body = child
            elif KIND[child.kind_id] in STATEMENTS:
                pending.after.append(child)
        if outer is not None:
            pending.merge(outer)
        if body is None:
            text = self.src.slice(node.start_byte, node.end_byte)
            stmt = Statement("simple", text, ctx, scope, unres, writes)
            stmt.writes = writes or any(r.writes for r in pending.redirects)
            stmt.redirects = pending.redirects
            self._record(stmt)
            self._finish(pending, ctx, scope, unres, writes, depth)
            return
        self._attach(body, pending, ctx, scope, unres, writes, depth)

    def _attach(
        self,
        body: Node,
        pending: Pending,
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        depth: int,
    ) -> None:
        """Give redirects to the statement they bind to. The grammar hangs the redirect of
        `a && b > f` or `a | b > f` on the whole list or pipeline; bash binds it to `b`."""
        kind = KIND[body.kind_id]
        if kind == "command":
            self._command(body, ctx, scope, unres or body.has_error, writes, pending, depth)
        elif kind in COMPOUNDS:
            self._compound(body, ctx, scope, unres or body.has_error, writes, pending, depth)
        elif kind == "list" or kind == "pipeline":
            self._block(body, ctx, scope, unres, writes, depth, pending)
        elif kind == "redirected_statement":
            self._redirected(body, ctx, scope, unres or body.has_error, writes, depth, pending)
        else:
            text = self.src.slice(body.start_byte, body.end_byte)
            writes = writes or any(r.writes for r in pending.redirects)
            carrier = Statement("redirects", text, ctx, scope, unres, writes)
            carrier.redirects = pending.redirects
            carrier.words = pending.extra
            self._record(carrier)
            self._statement(body, ctx, scope, unres, writes, depth)
            self._finish(pending, ctx, scope, unres, writes, depth)

    def _redirect(self, node: Node, pending: Pending) -> None:
        read_redirect(node, pending, self.src, self._word, self.strays)

    def _word(self, node: Node, subs: list[Node]) -> Word:
        if node.has_error:
            self._find_errors(node)
        word = build_word(node, self.src, subs, self.home_ok, self.pwd_ok)
        if "\n" in word.raw and KIND[node.kind_id] == "word":
            self._glued(word)
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

    def _find_errors(self, node: Node) -> None:
        if KIND[node.kind_id] == "ERROR":
            self.strays.append(node)
            return
        for child in node.children:
            if child.has_error and KIND[child.kind_id] not in SUBSTITUTIONS:
                self._find_errors(child)

    def _command(
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
        spans = text is not None  # every separator so far is the source text between words
        found = _plain_words(node, text, self.safe) if text is not None else None
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
                elif kind == "ERROR":
                    self.strays.append(child)
                elif kind in REDIRECTS:
                    if pending is None:
                        pending = Pending()
                        pending.subs = subs
                    before = len(pending.extra)
                    self._redirect(child, pending)
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
                    spans = _add(words, self._word(child, subs), src) and spans
                continue
            # An argument, or the command name's single child (of any kind). A word, number or
            # single-quoted string without children is built inline from ASCII text.
            if kind not in _LEAVES or text is None or child.child_count:
                spans = _add(words, self._word(child, subs), src) and spans
                continue
            start, end = child.byte_range
            raw = text[start:end]
            if kind == "raw_string":
                word = plain_word(start, end, raw)
                word.value = raw[1:-1]
                word.quoted = True
            elif plain or (EXPANDING.isdisjoint(raw) and "\n" not in raw):
                word = plain_word(start, end, raw)  # nothing to unquote or expand
            else:
                word = build_word(child, src, subs, self.home_ok, self.pwd_ok)
                if kind == "word" and "\n" in raw:
                    self._glued(word)
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
        if subshells is not None:
            # `time ( … )` times a subshell; anything else before `(` is a bash syntax error.
            if len(words) == 2 and words[0].value == "time" and words[0].raw == "time":
                stmt.time_subshell = True
            else:
                stmt.unresolved = True
        if self.glued or self.strays:
            self._record(stmt)
        else:
            self.statements.append(stmt)
        if subshells is not None:
            for sub in subshells:
                own = Scope(scope)
                for child in sub.children:
                    if child.is_named:
                        self._statement(child, "subshell", own, stmt.unresolved, False, depth + 1)
        if pending is not None:
            if pending.subs or pending.heredoc or pending.after:
                self._finish(pending, ctx, scope, unres, writes, depth)
        elif subs:
            self._nested(subs, None, scope, unres, depth)

    def _compound(
        self,
        node: Node,
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        pending: Pending,
        depth: int,
    ) -> None:
        kind = KIND[node.kind_id]
        stmt = Statement(
            "compound", self.src.slice(node.start_byte, node.end_byte), "compound", scope, unres
        )
        stmt.writes = writes or any(r.writes for r in pending.redirects)
        stmt.redirects = pending.redirects
        stmt.words = pending.extra
        body: list[Node] = []
        subs: list[Node] = []
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            ctype = KIND[child.kind_id]
            if (kind == "for_statement" and field == "value") or (
                kind == "case_statement" and field == "value"
            ):
                stmt.operands.append(self._word(child, subs))
            elif kind == "function_definition" and field == "name":
                continue
            elif kind == "c_style_for_statement" and field in EXPRESSION_FIELDS:
                collect_substitutions(child, subs)
            elif kind == "function_definition" and ctype == "compound_statement":
                body.extend(c for c in child.children if KIND[c.kind_id] in STATEMENTS)
            elif ctype in STATEMENTS or ctype in CLAUSES:
                body.append(child)
            elif child.is_named:
                collect_substitutions(child, subs)
        self._record(stmt)
        self._nested(subs, None, scope, unres, depth)
        inner_ctx = ctx
        inner_scope = scope
        if kind == "subshell":
            inner_ctx = "subshell"
            inner_scope = Scope(scope)
        for child in body:
            self._body(child, inner_ctx, inner_scope, unres, stmt.writes, depth + 1)
        self._finish(pending, ctx, scope, unres, writes, depth)

    def _body(
        self, node: Node, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        kind = KIND[node.kind_id]
        if kind in CLAUSES:
            subs: list[Node] = []
            for i, child in enumerate(node.children):
                if kind == "case_item" and node.field_name_for_child(i) == "value":
                    collect_substitutions(child, subs)
                elif KIND[child.kind_id] in STATEMENTS or KIND[child.kind_id] in CLAUSES:
                    self._body(child, ctx, scope, unres or child.has_error, writes, depth)
            self._nested(subs, None, scope, unres, depth)
            return
        self._statement(node, ctx, scope, unres, writes, depth)

    def _plain(
        self, node: Node, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        stmt = Statement(
            "test" if KIND[node.kind_id] == "test_command" else "plain",
            self.src.slice(node.start_byte, node.end_byte),
            ctx,
            scope,
            unres,
            writes,
        )
        subs: list[Node] = []
        if KIND[node.kind_id] == "test_command":
            self._test_words(node, stmt.operands, subs)
        else:
            scan_substitutions(node, subs)
            if node.has_error:
                self._find_errors(node)
        self._record(stmt)
        self._nested(subs, None, scope, unres, depth)

    def _test_words(self, node: Node, out: list[Word], subs: list[Node]) -> None:
        for child in node.children:
            if KIND[child.kind_id] in WORDLIKE:
                out.append(self._word(child, subs))
            elif child.is_named and KIND[child.kind_id] != "test_operator" and child.child_count:
                self._test_words(child, out, subs)


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
    if gap.strip(_BLANK):
        word.sep = " "
        return False
    word.sep = gap
    return True


def _plain_words(node: Node, text: str, safe: bool) -> list[Word] | None:
    """The words of a command written in safe text (see ``_SAFE``), read from the text; ``None``
    when the command is anything else.

    The text is trusted only where the tree agrees: as many children as space-separated
    tokens, all named (``==`` is an unnamed child), and no nesting but the command name's one
    child (``command_name`` → word). Every child is then a word, number or regex leaf spanning
    one token, and each is its own value.
    """
    start, end = node.byte_range
    line = text[start:end]
    if not safe and not line.encode().translate(_SAFE_TABLE).isalpha():
        return None
    tokens = line.split(" ")
    count = len(tokens)
    if (
        node.named_child_count != count
        or node.child_count != count
        or node.descendant_count != count + 2
        or node.has_error
    ):
        return None
    words: list[Word] = []
    for token in tokens:
        end = start + len(token)
        words.append(plain_word(start, end, token))
        start = end + 1
    words[0].sep = ""
    return words
