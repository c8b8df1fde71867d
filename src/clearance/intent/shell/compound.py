"""Compound statements in the tree walk: ``for``, ``while``, ``until``, ``if``, ``case``,
``select``, ``(( … ))``, ``{ …; }``, subshells and function definitions.

A compound statement is recorded whole (its text, its redirects, the words of its ``for`` list
or ``case`` subject) as a statement of its own, then its body is walked statement by statement
through the :class:`~clearance.intent.shell.walk.Walk` (a subshell's body in a scope of its
own). A ``for`` loop's variable takes the values of its literal list: ``reeval`` sees them as
assignments, ``loop`` gives them to the variable's uses in the body once the walk is over.
"""

from __future__ import annotations

from clearance.intent.shell.cd import branch
from clearance.intent.shell.grammar import CLAUSES, EXPRESSION_FIELDS, KIND, STATEMENTS
from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import collect_substitutions, expansion_floor

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.shell.redirect import Pending
    from clearance.intent.shell.walk import Walk

__all__ = ["compound"]

_SURE = frozenset({"compound_statement", "subshell", "negated_command"})  # bodies that run once
_LOOPS = frozenset({"for_statement", "c_style_for_statement", "while_statement"})


def compound(
    walk: Walk,
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
        "compound", walk.src.slice(node.start_byte, node.end_byte), "compound", scope, unres
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
            stmt.operands.append(walk.commands.word(child, subs))
        elif kind == "function_definition" and field == "name":
            continue
        elif kind == "c_style_for_statement" and field in EXPRESSION_FIELDS:
            collect_substitutions(child, subs)
            stmt.floor = stmt.floor or expansion_floor(child, walk.src)
        elif kind == "function_definition" and ctype == "compound_statement":
            body.extend(c for c in child.children if KIND[c.kind_id] in STATEMENTS)
        elif ctype in STATEMENTS or ctype in CLAUSES:
            body.append(child)
        elif child.is_named:
            collect_substitutions(child, subs)
    found = None
    if walk.reread and (kind == "c_style_for_statement" or _arithmetic(node)):
        found = []  # only the arithmetic: the loop's body is walked on its own
        for i, child in enumerate(node.children):
            if kind != "c_style_for_statement" or node.field_name_for_child(i) in EXPRESSION_FIELDS:
                found.extend(walk.commands.reevaluated(child, stmt, True))
    if kind == "for_statement":
        variable = node.child_by_field_name("variable")
        if variable is not None:
            from clearance.intent.shell import reeval  # only for a loop

            # `for PATH in bin`, `for f in 'a[$(id)]'; do (( f ))`: the loop assigns
            # each value to its variable, as `NAME=VALUE` would.
            name = walk.src.slice(variable.start_byte, variable.end_byte)
            looped = reeval.loop(name, [w.value for w in stmt.operands])
            if looped:
                if stmt.floor is None:
                    stmt.floor = reeval.floor(looped)
                found = [*(found or ()), *looped]
    walk.commands.record(stmt)
    if found:
        walk.commands.rerun(found, stmt)
    walk.nested(subs, None, scope, unres, depth)
    inner_ctx = ctx
    inner_scope = scope
    if kind == "subshell":
        inner_ctx = "subshell"
        inner_scope = Scope(scope)
    first = len(walk.statements)
    for child in body:
        _body(walk, child, inner_ctx, inner_scope, unres, stmt.writes, depth + 1)
    if kind not in _SURE:  # a branch, a loop or a function body: a `cd` in it may not run
        branch(walk.statements, first, stmt if kind in _LOOPS else None)
    if kind == "for_statement" and "$" in stmt.text:
        variable = node.child_by_field_name("variable")
        if variable is not None:
            # Its uses take the list's values once the whole line is walked (`loop.bind`).
            name = walk.src.slice(variable.start_byte, variable.end_byte)
            walk.loops.append((name, stmt, first, len(walk.statements)))
    walk.finish(pending, ctx, scope, unres, writes, depth)


def _body(
    walk: Walk, node: Node, ctx: str, scope: Scope, unres: bool, writes: bool, depth: int
) -> None:
    kind = KIND[node.kind_id]
    if kind in CLAUSES:
        subs: list[Node] = []
        for i, child in enumerate(node.children):
            if kind == "case_item" and node.field_name_for_child(i) == "value":
                collect_substitutions(child, subs)
            elif KIND[child.kind_id] in STATEMENTS or KIND[child.kind_id] in CLAUSES:
                _body(walk, child, ctx, scope, unres or child.has_error, writes, depth)
        walk.nested(subs, None, scope, unres, depth)
        return
    walk.statement(node, ctx, scope, unres, writes, depth)


def _arithmetic(node: Node) -> bool:
    """``(( … ))``: a compound statement the grammar opens with ``((``."""
    return node.child_count > 0 and node.children[0].type == "(("
