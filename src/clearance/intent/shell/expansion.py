"""Parameter expansions: the parts of ``${…}`` the analysis models, and the rest floored.

The grammar of ``${…}`` has one home here (``docs/shell-analysis.md``, "Every part of every
word"). A parameter expansion is modelled when it is:

* a plain name: ``${x}``, ``${10}``, ``${@}``, ``${a[@]}``, ``${a[1]}``; its value is unknown;
* a length, ``${#x}``, or a name list, ``${!prefix*}``, ``${!a[@]}``: a number or names;
* an operator form whose operands are words of their own: the defaults and alternatives
  ``${x:-w}`` ``${x-w}`` ``${x:=w}`` ``${x=w}`` ``${x:+w}`` ``${x+w}``, the error form
  ``${x:?w}``, the pattern removals ``${x#p}`` ``${x##p}`` ``${x%p}`` ``${x%%p}``, the
  replacements ``${x/p/w}`` ``${x//p/w}`` ``${x/#p/w}`` ``${x/%p/w}``, case changes
  ``${x^}`` ``${x^^}`` ``${x,}`` ``${x,,}``, substrings ``${x:1:2}``, and the
  transformations ``${x@Q}`` and kin that only quote or re-case a value;

A substitution inside an operand is a unit of its own (the walk finds it), and a literal
operand that may become the value (a default, an alternative, a replacement) is returned so the
projection can offer it as a path candidate: ``cat ${x:-~/.ssh/id_rsa}`` reads
``~/.ssh/id_rsa`` when ``x`` is unset.

Anything else floors its unit: ``${!x}`` (the value of a variable named by a value),
``${x@P}`` (a value expanded as a prompt string, which runs the substitutions in it), an
operator the table does not know, and any operand text holding a substitution the grammar did
not parse (``${x-`id`}``: bash runs ``id``).
"""

from __future__ import annotations

from clearance.intent.sentinel import UNMODELLED, excerpt
from clearance.intent.shell.escape import unescaped
from clearance.intent.shell.grammar import KIND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.source import Source

__all__ = ["body_floor", "parameter_expansion"]

# The operand after one of these may become the expansion's whole value.
_VALUE_OPERATORS = frozenset({":-", "-", ":=", "=", ":+", "+"})
_PATTERN_OPERATORS = frozenset({"#", "##", "%", "%%", ":?", "?"})
_REPLACE_OPERATORS = frozenset({"/", "//", "/#", "/%"})
_CASE_OPERATORS = frozenset({"^", "^^", ",", ",,"})
# ${x@Q} ${x@E} ${x@A} ${x@a} ${x@U} ${x@u} ${x@L} ${x@K} ${x@k}: quoting and case only.
_TRANSFORMS = frozenset("QEAaUuLKk")
_NAMES = frozenset({"variable_name", "special_variable_name"})
# Operand node kinds the word builder models.
_OPERANDS = frozenset(
    {
        "word",
        "number",
        "regex",
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
        "extglob_pattern",
    }
)
_LEAVES = frozenset({"word", "number", "regex", "extglob_pattern"})
_HIDDEN_CODE = ("`", "$(", "${", "$[", "<(", ">(")


def parameter_expansion(node: Node, src: Source) -> tuple[Floor | None, list[Node]]:
    """The floor of the ``expansion`` node ``node`` (``None`` when modelled) and the operand
    nodes that may become its value."""
    children = node.children
    count = len(children)
    if count < 3:
        return _floor(src, node, "is an empty or broken parameter expansion"), []
    i = 1
    last = count - 1  # the closing brace
    first = children[i]
    kind = KIND[first.kind_id]
    if kind == "!":  # ${!x}: indirect, unless it lists names (${!x*}, ${!x@}, ${!a[@]})
        i += 1
        target = children[i] if i < last else None
        rest = [KIND[c.kind_id] for c in children[i + 1 : last]]
        if target is not None and KIND[target.kind_id] in _NAMES and rest in (["*"], ["@"]):
            return None, []
        listing = target is not None and KIND[target.kind_id] == "subscript" and not rest
        if listing and _index_text(target, src) in ("@", "*"):  # type: ignore[arg-type]
            return None, []
        return _floor(src, node, "expands the variable named by another variable's value"), []
    if kind == "#":  # ${#x} or ${#}
        i += 1
        if i == last:
            return None, []
        first = children[i]
        kind = KIND[first.kind_id]
        if i + 1 == last and (kind in _NAMES or kind == "subscript"):
            return _subscript(first, src, node), []
        return _floor(src, node, "uses a parameter expansion clearance does not model"), []
    if kind == "subscript":
        floor = _subscript(first, src, node)
        if floor is not None:
            return floor, []
    elif kind not in _NAMES:
        return _floor(src, node, "uses a parameter expansion clearance does not model"), []
    i += 1
    if i == last:
        return None, []  # ${x}
    op = KIND[children[i].kind_id]
    operands = children[i + 1 : last]
    if op == "@":
        letters = [src.slice(c.start_byte, c.end_byte) for c in operands]
        if len(letters) == 1 and letters[0] in _TRANSFORMS:
            return None, []
        if letters == ["P"]:
            why = "uses ${…@P}, which expands a value as a prompt string and runs what it holds"
            return _floor(src, node, why), []
        return _floor(src, node, "uses a parameter transformation clearance does not model"), []
    if op in _CASE_OPERATORS:
        return _checked(operands, src, node), []
    if op in _VALUE_OPERATORS:
        return _checked(operands, src, node), [n for n in operands if n.is_named]
    if op in _PATTERN_OPERATORS:
        return _checked(operands, src, node), []
    if op in _REPLACE_OPERATORS:
        # ${x/pattern/replacement}: the replacement may become (part of) the value.
        values: list[Node] = []
        seen_slash = False
        for child in operands:
            if not child.is_named and KIND[child.kind_id] == "/":
                seen_slash = True
            elif seen_slash and child.is_named:
                values.append(child)
        return _checked(operands, src, node), values
    if op == ":":  # ${x:offset} ${x:offset:length}: arithmetic on numbers and names
        return _checked(operands, src, node), []
    return _floor(src, node, "uses a parameter expansion clearance does not model"), []


def _checked(operands: list[Node], src: Source, node: Node) -> Floor | None:
    """A floor when an operand is of a kind the word builder does not model, or a leaf whose
    text holds code the grammar did not parse."""
    for child in operands:
        if not child.is_named:
            continue
        kind = KIND[child.kind_id]
        if kind not in _OPERANDS:
            return _floor(src, node, "uses a parameter expansion clearance does not model")
        if _hides_code(child, src):
            return _floor(src, node, "holds a substitution inside a parameter expansion")
    return None


def _hides_code(node: Node, src: Source) -> bool:
    """Whether a leaf below ``node`` holds substitution syntax the grammar left as text."""
    kind = KIND[node.kind_id]
    if kind == "raw_string" or kind == "ansi_c_string":
        return False  # single-quoted: literal
    if not node.child_count:
        if kind not in _LEAVES and kind != "string_content":
            return False
        text = src.slice(node.start_byte, node.end_byte)
        return any(mark in text for mark in _HIDDEN_CODE) and not _all_escaped(text)
    for child in node.children:
        if KIND[child.kind_id] in ("command_substitution", "process_substitution"):
            continue  # parsed: a unit of its own
        if _hides_code(child, src):
            return True
    return False


def _all_escaped(text: str) -> bool:
    """Whether every ``$``, backtick and ``<(``/``>(`` of ``text`` is escaped by a backslash."""
    i = 0
    while (i := unescaped(text, i, "`$<>")) >= 0:
        if text[i] in "`$" or text[i + 1 : i + 2] == "(":
            return False
        i += 1
    return True


def _index_text(subscript: Node, src: Source) -> str:
    parts = [c for c in subscript.children if c.is_named]
    if len(parts) < 2:
        return ""
    index = parts[1]
    return src.slice(index.start_byte, index.end_byte)


def _subscript(name: Node, src: Source, node: Node) -> Floor | None:
    if KIND[name.kind_id] != "subscript":
        return None
    for child in name.children:
        if child.is_named and KIND[child.kind_id] not in _NAMES and _hides_code(child, src):
            return _floor(src, node, "holds a substitution inside an array subscript")
    return None


def _floor(src: Source, node: Node, why: str) -> Floor:
    return (UNMODELLED, f"{why} ({excerpt(src.slice(node.start_byte, node.end_byte))})")


def body_floor(body: str) -> tuple[Floor, str] | None:
    """The floor of an unquoted here-document body, read as text, and the expansion it names:
    bash expands parameters in it, so ``${!x}`` and ``${x@P}`` there run what a value holds.
    (Its substitutions are found and analysed by ``heredoc.substitutions``.)"""
    start = body.find("${")
    while start >= 0:
        if start == 0 or body[start - 1] != "\\":
            end = body.find("}", start)
            inner = body[start + 2 : end] if end > 0 else body[start + 2 :]
            if inner[:1] == "!" or "@P" in inner:
                text = excerpt(body[start : end + 1] if end > 0 else body[start:])
                return (UNMODELLED, f"expands a value as code in a here-document ({text})"), text
        start = body.find("${", start + 2)
    return None
