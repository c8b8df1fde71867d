"""The tree walk: from a tree-sitter bash tree to statements in source order.

The walk sees through chains, pipelines, substitutions (``$(…)``, backticks, ``<(…)``,
``>(…)``), subshells, compound statements, function bodies, heredoc bodies with an unquoted
delimiter, and the hosts of substitutions (arguments, redirect targets, herestrings, assignment
values, declarations, tests, conditions, for-word lists, case subjects). It records structure
only: wrappers, effects and spellings belong to :mod:`assembly` and the modules it calls.
Simple commands, words and the walk's record (statements, salvage ranges) are the
:class:`~clearance.intent.shell.command.Commands` the walk owns; compound statements (loops,
conditionals, groups, subshells, function definitions) are read by :mod:`compound`.

Fail closed (docs/shell-analysis.md, "What is floored, and the facts behind it"): an ``ERROR``
region is recorded whole and never descended (the grammar
invents structure inside it); every statement at or beneath a statement whose subtree holds an
error is marked unresolved. ``program``/``list``/``pipeline`` containers are not consulted.
"""

from __future__ import annotations

from clearance.intent.sentinel import REEVALUATED
from clearance.intent.shell.cd import operand
from clearance.intent.shell.command import Commands
from clearance.intent.shell.compound import compound
from clearance.intent.shell.continuation import joined_body
from clearance.intent.shell.expansion import body_floor
from clearance.intent.shell.grammar import (
    COMPOUNDS,
    CONTAINERS,
    KIND,
    PLAIN,
    REDIRECTS,
    STATEMENTS,
    SUB_CONTEXT,
    WORDLIKE,
    flatten,
)
from clearance.intent.shell.heredoc import substitutions
from clearance.intent.shell.redirect import Pending
from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import (
    BACKTICK_ESCAPABLE,
    Word,
    expansion_floor,
    scan_substitutions,
)
from clearance.intent.shell.word_build import unescape

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.shell.source import Source
    from clearance.intent.shell.word import Word

__all__ = ["DEPTH_LIMIT", "Walk"]

DEPTH_LIMIT = 48


class Walk:
    """Walks one tree; ``statements`` and ``salvage`` hold the result."""

    __slots__ = ("chain", "commands", "loops", "reread", "salvage", "src", "statements")

    def __init__(self, src: Source, home_ok: bool, pwd_ok: bool) -> None:
        commands = self.commands = Commands(self, src, home_ok, pwd_ok)
        self.src = src
        self.reread = commands.reread  # the line may hide a string bash evaluates again
        self.statements = commands.statements  # the same lists: the commands append to them
        self.salvage = commands.salvage
        # `for` loops whose variable is used: (name, loop, its body's first and end statement)
        self.loops: list[tuple[str, Statement, int, int]] = []
        self.chain: object | None = None  # the `&&` chain a list's leading pipeline opens

    def run(self, root: Node, context: str, scope: Scope, unresolved: bool = False) -> None:
        self._run(root, context, scope, unresolved)
        if (
            self.reread
            and KIND[root.kind_id] == "program"
            and not any(s.floor is not None and s.floor[0] == REEVALUATED for s in self.statements)
        ):  # (a line one of whose statements re-reads a string asks already)
            from clearance.intent.shell import reeval  # only for a line that may hold it
            from clearance.intent.shell.reeval_tree import sweep

            found = sweep(root, self.src)
            if found:  # a value read as arithmetic where no statement's scan reaches
                stmt = Statement("plain", found[0][0], context, scope, unresolved)
                stmt.floor = reeval.floor(found)
                self.statements.append(stmt)
        if self.loops:
            # The whole line is walked: what it may do to a loop's variable is known.
            from clearance.intent.shell.loop import bind  # only for the loops that need it

            for name, loop, first, end in self.loops:
                bind(self.src.text, name, loop, self.statements, first, end)

    def _run(self, root: Node, context: str, scope: Scope, unresolved: bool) -> None:
        if KIND[root.kind_id] == "program" and root.child_count == 1:
            child = root.children[0]
            kind = KIND[child.kind_id]
            if kind == "command":  # the usual program: one simple command
                self.commands.command(
                    child, context, scope, unresolved or child.has_error, False, None, 0
                )
                return
            if kind == "list" or kind == "pipeline":
                self._block(child, context, scope, unresolved, False, 0)
                return
            if kind == "redirected_statement":
                self._redirected(child, context, scope, unresolved or child.has_error, False, 0)
                return
        self.statement(root, context, scope, unresolved, False, 0)

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
        held, self.chain = self.chain, None  # only for the pipeline a list's chain opens with
        if kind == "pipeline" and count > 1 and KIND[children[-1].kind_id] == "list":
            self._regrouped(children, ctx, scope, unres, writes, depth, tail, held)
            return
        if count == 1 and tail is None:  # the usual program: one statement
            child = children[0]
            if child.is_named:
                self.statement(child, ctx, scope, unres, writes, depth)
            return
        kinds = [KIND[c.kind_id] for c in children]
        split = kind == "pipeline" and node.named_child_count > 1
        pipe = object() if split else None  # its elements run at once
        last = -1
        if tail is not None:
            for i, child in enumerate(children):
                if child.is_named and kinds[i] != "comment":
                    last = i
        chain: object | None = object() if kind == "list" else None
        maybe = False  # the operand may not run: it follows `&&` or `||` (`cd` reads it)
        fed = False  # an element before this one: this one reads the pipe
        for i, child in enumerate(children):
            if not child.is_named or kinds[i] == "comment":
                if kind == "list" and not child.is_named:
                    maybe = kinds[i] in ("&&", "||")
                    if not maybe:
                        chain = object()  # a new chain starts
                    elif kinds[i] == "||":
                        chain = None  # what follows runs where an operand failed
                continue
            own = scope
            if split or (i + 1 < count and kinds[i + 1] == "&"):
                own = Scope(scope, None, pipe)  # a pipeline element or a background job
                own.detached = i + 1 < count and kinds[i + 1] == "&"
                if split:
                    own.fed = fed and _simple_command(child)
                    fed = True
            first = len(self.statements)
            self.chain = chain if kinds[i] == "pipeline" else None
            if i == last and tail is not None:
                self._attach(child, tail, ctx, own, unres, writes, depth)
            elif kinds[i] == "command" and depth <= DEPTH_LIMIT:
                self.commands.command(
                    child, ctx, own, unres or child.has_error, writes, None, depth
                )
            else:
                self.statement(child, ctx, own, unres, writes, depth)
            self.chain = None
            if kind == "list":
                operand(self.statements, first, chain, maybe, kinds[i])

    def _regrouped(
        self,
        children: list[Node],
        ctx: str,
        scope: Scope,
        unres: bool,
        writes: bool,
        depth: int,
        tail: Pending | None,
        held: object | None,
    ) -> None:
        """A pipeline whose last element the grammar made a list: ``a | b | c && d`` parses as
        ``a | ((b | c) && d)``, but bash reads ``(a | b | c) && d``. Walked as bash reads it:
        each pipeline element in a shell of its own, then the rest of the list in this shell
        (so a ``cd`` there moves the base of what follows; ``held``: the ``&&`` chain of the
        list the pipeline opens, which the rest joins)."""
        elements = [c for c in children if c.is_named and KIND[c.kind_id] != "comment"]
        after: list[tuple[Node, str]] = []  # with the operator before each
        while elements and KIND[elements[-1].kind_id] == "list":
            operands: list[tuple[Node, str]] = []
            op = ""
            for c in flatten(elements.pop()):
                if c.is_named:
                    operands.append((c, op))
                op = "" if c.is_named else KIND[c.kind_id]
            after[:0] = operands[1:]  # what follows the pipeline, before any outer rest
            head = operands[0][0] if operands else None
            if head is not None and KIND[head.kind_id] == "pipeline":
                elements.extend(c for c in head.children if c.is_named)
            elif head is not None:
                elements.append(head)
        pipe = object()  # the elements run at once
        ordered = [(child, Scope(scope, None, pipe), "") for child in elements]
        for child, own, _ in ordered[1:]:
            own.fed = _simple_command(child)  # its input is the pipe
        ordered.extend((child, scope, op) for child, op in after)
        chain: object | None = held or object()
        for i, (child, own, op) in enumerate(ordered):
            if KIND[child.kind_id] == "comment":
                continue
            if op and op not in ("&&", "||"):
                chain = object()  # a new chain starts
            elif op == "||":
                chain = None
            first = len(self.statements)
            if tail is not None and i + 1 == len(ordered):
                self._attach(child, tail, ctx, own, unres, writes, depth)
            else:
                self.statement(child, ctx, own, unres or child.has_error, writes, depth)
            if own is scope:  # after `&&` or `||`, it may not run
                operand(self.statements, first, chain, op in ("&&", "||"), KIND[child.kind_id])

    def statement(
        self, node: Node, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        kind = KIND[node.kind_id]
        if kind == "command" and depth <= DEPTH_LIMIT:
            self.commands.command(node, ctx, scope, unres or node.has_error, writes, None, depth)
            return
        if kind in CONTAINERS:
            self._block(node, ctx, scope, unres, writes, depth)
            return
        if kind == "comment":
            return
        if kind == "ERROR" or depth > DEPTH_LIMIT:
            self.commands.error(node, ctx, scope, depth <= DEPTH_LIMIT)
            return
        unres = unres or node.has_error
        if kind == "redirected_statement":
            self._redirected(node, ctx, scope, unres, writes, depth)
        elif kind in COMPOUNDS:
            compound(self, node, ctx, scope, unres, writes, Pending(), depth)
        elif kind in PLAIN or kind == "test_command":
            self._plain(node, ctx, scope, unres, writes, depth)
        else:
            self.commands.error(node, ctx, scope)

    def nested(
        self, subs: list[Node], ctx: str | None, scope: Scope, unres: bool, depth: int
    ) -> None:
        """Walk substitutions: each is a fresh shell and a fresh redirect scope."""
        for sub in subs:
            inner = ctx or SUB_CONTEXT.get(KIND[sub.kind_id], "command_substitution")
            own = Scope(scope)
            own.detached = KIND[sub.kind_id] == "process_substitution"  # runs on beside
            if depth + 1 > DEPTH_LIMIT:
                self.commands.error(sub, inner, own)
                continue
            start = sub.start_byte
            if self.src.data[start : start + 1] == b"`":
                text = self.src.slice(start, sub.end_byte)
                if "\\" in text:
                    # Inside backticks bash first drops the backslash before `$`, `` ` `` and
                    # `\`, then runs the text: `` `echo \`id\`` `` runs `id`. The grammar
                    # reads the escaped backticks as a word, so the unescaped text is read
                    # as a program of its own.
                    body = unescape(text[1:-1], BACKTICK_ESCAPABLE)
                    self.statements.append(Statement("nested", body, inner, own, unres))
                    continue
            for child in sub.children:
                if child.is_named:
                    self.statement(child, inner, own, unres, False, depth + 1)

    def finish(
        self, pending: Pending, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
    ) -> None:
        if pending.subs:
            self.nested(pending.subs, None, scope, unres, depth)
        for body in pending.heredoc:
            self._heredoc(body, scope, unres)
        for node in pending.after:
            self.statement(node, ctx, scope, unres, writes, depth)

    def _heredoc(self, body: str, scope: Scope, unres: bool) -> None:
        """Each substitution of an unquoted heredoc body, as a program (an unclosed one is also
        an unresolved unit)."""
        if "\\\n" in body:
            body = joined_body(body)  # bash joins its lines first: `${x@\` then a line `P}`
        found = body_floor(body) if "${" in body else None
        if found is None and ("$((" in body or "$[" in body or "${" in body):
            from clearance.intent.shell import reeval  # a body that may hold arithmetic

            inner = reeval.heredoc_arithmetic(body)
            if inner is not None:  # `$((x))`: x's value is arithmetic, and may hold code
                found = ((REEVALUATED, reeval.computed_arithmetic(inner)), inner)
        if found is not None:
            stmt = Statement("plain", found[1], "heredoc", scope, unres)
            stmt.floor = found[0]
            self.statements.append(stmt)
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
                self.commands.redirect(child, pending)
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
            self.commands.record(stmt)
            self.finish(pending, ctx, scope, unres, writes, depth)
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
            self.commands.command(body, ctx, scope, unres or body.has_error, writes, pending, depth)
        elif kind in COMPOUNDS:
            compound(self, body, ctx, scope, unres or body.has_error, writes, pending, depth)
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
            self.commands.record(carrier)
            self.statement(body, ctx, scope, unres, writes, depth)
            self.finish(pending, ctx, scope, unres, writes, depth)

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
            stmt.assigns = _assigned(node, self.src)
            scan_substitutions(node, subs)
            if node.has_error:
                self.commands.find_errors(node)
            stmt.floor = expansion_floor(node, self.src)
        found = None
        if self.reread or KIND[node.kind_id] in ("declaration_command", "unset_command"):
            found = self.commands.reevaluated(
                node, stmt
            )  # a declaration may re-read a computed value
        self.commands.record(stmt)
        if found:
            self.commands.rerun(found, stmt)
        self.nested(subs, None, scope, unres, depth)

    def _test_words(self, node: Node, out: list[Word], subs: list[Node]) -> None:
        for child in node.children:
            if KIND[child.kind_id] in WORDLIKE:
                out.append(self.commands.word(child, subs))
            elif child.is_named and KIND[child.kind_id] != "test_operator" and child.child_count:
                self._test_words(child, out, subs)


def _assigned(node: Node, src: Source) -> list[tuple[str, str | None]] | None:
    """The names a statement of assignments only sets (``PID=$!``, ``a=1 b=2``); ``None`` for
    any other statement, or when a name is not a plain variable name (``a[$i]=x``)."""
    kind = KIND[node.kind_id]
    if kind == "variable_assignment":
        items = [node]
    elif kind == "variable_assignments":
        items = [c for c in node.children if KIND[c.kind_id] == "variable_assignment"]
    else:
        return None
    names: list[tuple[str, str | None]] = []
    for item in items:
        name = item.child_by_field_name("name")
        if name is None or KIND[name.kind_id] != "variable_name":
            return None
        names.append((src.slice(name.start_byte, name.end_byte), None))
    return names or None


def _simple_command(node: Node) -> bool:
    """Whether the pipeline element ``node`` is one simple command, redirected or not (its
    standard input is then the pipe, unless one of its own redirects replaces it)."""
    kind = KIND[node.kind_id]
    if kind == "redirected_statement":
        body = node.child_by_field_name("body")
        return body is not None and KIND[body.kind_id] == "command"
    return kind == "command"
