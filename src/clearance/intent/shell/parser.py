"""The tree-sitter bash parser, loaded on first use.

Importing ``tree_sitter`` and loading the bash grammar costs milliseconds; the hook process pays
for it only when a bash call is actually checked, so nothing here runs at import time. This
module owns the parser object and nothing else: it does not interpret the tree.

The two packages' ``__init__`` modules import ``typing`` (``tree_sitter``) and
``importlib.resources`` (``tree_sitter_bash``, for query files we never read) — together about
30 ms per process on our machines. Only their compiled ``_binding`` extensions are needed, so
they are loaded directly (ADR 0005); if that fails for any reason the packages are imported the
ordinary way.

The compiled ``tree_sitter`` binding itself imports ``re`` (for query predicates, which we never
use) and ``enum`` (for one ``IntEnum`` of logger message kinds) — another 10–12 ms. In a fresh,
single-threaded process where neither is loaded yet, the binding is initialised against two
stand-ins: ``re.compile`` that imports the real ``re`` when first called, and an ``IntEnum`` that
builds a plain placeholder. ``sys.modules`` is restored right after, so nothing else ever sees
them. Where another thread is running, or either module is already loaded, the real modules are
used.
"""

from __future__ import annotations

import os
import sys

from clearance.intent.shell.grammar import bind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from tree_sitter import Language, Node, Parser

__all__ = ["MAX_DEPTH", "PARSE_SECONDS", "QUICK_BYTES", "TooDeep", "parse"]

_parser: list[Parser] = []


def _binding(package: str) -> ModuleType:
    """``<package>._binding`` loaded from its file, without running ``<package>/__init__``."""
    name = package + "._binding"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    import _frozen_importlib as bootstrap
    import _frozen_importlib_external as external

    for entry in sys.path:
        directory = os.path.join(entry or ".", package)
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for filename in names:
            if filename.startswith("_binding.") and filename.endswith((".so", ".pyd")):
                spec = external.spec_from_file_location(name, os.path.join(directory, filename))
                if spec is None or spec.loader is None:
                    continue
                module = bootstrap.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules[name] = module
                return module
    raise ImportError(f"no compiled binding for {package}")


def _lazy_compile(*args: object, **kwargs: object) -> object:
    import re

    return re.compile(*args, **kwargs)  # type: ignore[call-overload]


class _LogTypePlaceholder:
    """Stands in for the binding's ``LogType`` enum (parser logging, which we never enable)."""

    def __init__(self, name: str, members: dict[str, int]) -> None:
        self.name = name
        self.members = dict(members)


def _core_binding() -> ModuleType:
    import _thread

    stand_in = "re" not in sys.modules and "enum" not in sys.modules and _thread._count() == 0
    if not stand_in:
        return _binding("tree_sitter")
    module_type = type(sys)
    re_stand_in = module_type("re")
    re_stand_in.compile = _lazy_compile  # type: ignore[attr-defined]
    enum_stand_in = module_type("enum")
    enum_stand_in.IntEnum = _LogTypePlaceholder  # type: ignore[attr-defined]
    sys.modules["re"] = re_stand_in
    sys.modules["enum"] = enum_stand_in
    try:
        return _binding("tree_sitter")
    finally:
        for name, module in (("re", re_stand_in), ("enum", enum_stand_in)):
            if sys.modules.get(name) is module:
                del sys.modules[name]


def _load() -> Parser:
    try:
        core = _core_binding()
        bash = _binding("tree_sitter_bash")
        language: Language = core.Language(bash.language())
        parser: Parser = core.Parser(language)
    except Exception:  # an unusual installation: the ordinary imports
        from tree_sitter import Language, Parser
        from tree_sitter_bash import language as bash_language

        language = Language(bash_language())
        parser = Parser(language)
    bind(language)
    _parser.append(parser)
    return parser


# The deepest tree read: a command line nested deeper (`${a:-${a:-…}}`, `$(((…)))`, a thousand
# `&&`, which the grammar nests one in the other) is not read at all, and its analysis fails
# closed. Real commands nest a few dozen levels. The walk over the tree recurses once or more a
# level, and compiled code (ADR 0058) neither checks Python's recursion limit nor lets the
# deadline's signal handler run inside it: unbounded, a deep line took minutes or overflowed the
# C stack.
MAX_DEPTH = 256


# A longer line is parsed under a bound on time. tree-sitter's error recovery takes time
# quadratic in the length on some unbalanced lines (`a=(a=(…`: 4 s for 36 KB, minutes for a few
# hundred KB), all inside one call that the deadline's signal cannot interrupt; a host lets the
# call run when its hook times out. Below this length the worst case is a few milliseconds.
QUICK_BYTES = 4096
PARSE_SECONDS = 0.5


class TooDeep(ValueError):
    """A command line nested deeper than :data:`MAX_DEPTH` levels, or too slow to parse."""


def parse(data: bytes) -> Node:
    """The root node of ``data`` parsed as bash (the parser is built once per process); raises
    :class:`TooDeep` for a tree deeper than :data:`MAX_DEPTH`, or a line longer than
    :data:`QUICK_BYTES` that takes more than :data:`PARSE_SECONDS` to parse."""
    parser = _parser[0] if _parser else _load()
    if len(data) <= QUICK_BYTES:
        root = parser.parse(data).root_node
    else:
        root = _parse_bounded(parser, data)
    if root.descendant_count > MAX_DEPTH and _deeper(root, MAX_DEPTH):
        raise TooDeep(f"the command nests more than {MAX_DEPTH} levels deep")
    return root


def _parse_bounded(parser: Parser, data: bytes) -> Node:
    """``data`` parsed with tree-sitter's progress callback, which gives up past
    :data:`PARSE_SECONDS` (the callback form reads the text through a function)."""
    import time

    give_up = time.monotonic() + PARSE_SECONDS

    def read(offset: int, point: object) -> bytes:
        return data[offset : offset + 65536]

    def too_long(*progress: object) -> bool:
        return time.monotonic() > give_up

    try:
        tree = parser.parse(read, progress_callback=too_long)
    except ValueError:  # tree-sitter's "Parsing failed": the callback stopped it
        # A halted parse resumes on the parser's next call unless reset: the next line would
        # be read as the rest of this one.
        parser.reset()
        raise TooDeep(f"the command takes more than {PARSE_SECONDS} s to parse") from None
    except BaseException:  # the deadline, raised from inside a callback, halts it too
        parser.reset()
        raise
    return tree.root_node


def _deeper(root: Node, limit: int) -> bool:
    """Whether a node of ``root``'s tree lies more than ``limit`` levels below it (one pass of a
    cursor, without recursion)."""
    cursor = root.walk()
    depth = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            if depth > limit:
                return True
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return False
            depth -= 1
