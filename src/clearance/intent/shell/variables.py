"""The variables a command line sets that change what its commands run: the code-running
variables (``PAGER``, ``LD_PRELOAD``: :mod:`~clearance.intent.shell.hazards.variables`) and
the search path (``PATH=bin ls``), as leading assignments of a command or as statements that
set them for the rest of the line (docs/shell-analysis.md)."""

from __future__ import annotations

import os

from clearance.intent.path import is_within, normal_path
from clearance.intent.sentinel import CODE_RUNNING
from clearance.intent.shell.names import SEARCH_PATH_VARIABLES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.statement import Statement

__all__ = ["Variables", "work_tree_top"]


def work_tree_top(base: str | None, exists: Callable[[str], bool]) -> str | None:
    """The nearest directory at or above ``base`` holding ``.git`` (``None``: not known)."""
    probe = base
    while probe:
        if exists(probe.rstrip("/") + "/.git"):
            return probe
        parent = probe.rpartition("/")[0] or "/"
        if parent == probe:
            break
        probe = parent
    return None


def typed_items(text: str) -> list[str]:
    """The words of an assignment statement as bash splits them: at a blank (space, tab) or a
    newline only. ``str.split()`` would also split at characters bash keeps in a word (U+001F,
    a no-break space), hiding the rest of a value (``PATH=/usr/bin\x1f:.:$PATH``)."""
    return [item for item in text.replace("\t", " ").replace("\n", " ").split(" ") if item]


def typed_assignments(text: str) -> list[tuple[str, str, str]]:
    """``(name, "=" or "", value)`` of each of :func:`typed_items`, the name without a subscript
    or a ``+`` (``PATH[0]=bin``, ``PATH+=:bin``, zsh's ``path[1]=bin`` assign ``PATH``/``path``)."""
    out = []
    for item in typed_items(text):
        name, eq, value = item.partition("=")
        out.append((name.split("[", 1)[0].rstrip("+"), eq, value))
    return out


class Variables:
    """What one line's statements set so far; ``names`` the variables set for later commands."""

    __slots__ = ("exists", "home", "home_set", "names", "top")

    def __init__(self, home: str, exists: Callable[[str], bool]) -> None:
        self.home = home
        self.exists = exists  # never raises
        self.names: list[str] = []
        self.home_set = False  # the line assigns HOME: `~` and `$HOME` name what it chose
        self.top: str | None = None  # the line's own working directory (its project's too)

    def floor(self, stmt: Statement, level: int) -> tuple[Floor | None, str | None]:
        """The floor of a unit run with a code-running variable set in the line, and the
        literal command line a leading assignment's value runs (``PAGER='rm x' git -p log``)."""
        from clearance.intent.shell.hazards import hazardous_variable, variable_payload
        from clearance.intent.shell.hazards.variables import import_path_moot

        argv = [w.value for w in stmt.words]
        for name, value in stmt.assigns or ():
            if hazardous_variable(name) and not import_path_moot(name, argv):
                why = f"runs with {name} set, which makes a program run code"
                return (CODE_RUNNING, why), variable_payload(name, value) if level == 0 else None
            if name in SEARCH_PATH_VARIABLES and self.fills_search_path(value, stmt):
                why = (f"runs with {name} naming a directory the agent may fill, so its command "
                       "name may run a file there")  # fmt: skip
                return (CODE_RUNNING, why), None
        names = [n for n in self.names if not import_path_moot(n, argv)]
        if names:
            name = names[0]
            why = f"runs after {name} is set in the line, which makes a program run code"
            return (CODE_RUNNING, why), None
        return None, None

    def fills_search_path(self, value: str | None, stmt: Statement) -> bool:
        """Whether the search path ``value`` may name a directory the agent fills: relative,
        computed, or inside the working directory or its work tree
        (:func:`~clearance.intent.shell.hazards.variables.search_path_hazard`)."""
        from clearance.intent.shell.hazards.variables import search_path_hazard

        base = stmt.scope.current() if not stmt.salvaged else None
        roots: tuple[str, ...] = ()
        if base is not None:
            # The statement's directory and work tree, and the line's own (a `cd` into a nested
            # repository does not make the project's `bin/` outside).
            top = self.top or base
            roots = tuple(dict.fromkeys((base, work_tree_top(base, self.exists) or base,
                                         top, work_tree_top(top, self.exists) or top)))  # fmt: skip
        real_roots = [os.path.realpath(root) for root in roots]
        home = self.home
        if self.home_set or any(name == "HOME" for name, _ in stmt.assigns or ()):
            home = ""  # `HOME=$PWD PATH=~/bin ls`: the home is not the user's

        def inside(entry: str) -> bool:
            entry = normal_path(entry)
            if not roots:
                return True
            # Spelled through a link (`/tmp/l/bin`, `l` a link to the project) too.
            real = os.path.realpath(entry)
            return any(is_within(entry, root) for root in roots) or any(
                is_within(real, root) for root in real_roots
            )

        return search_path_hazard(value, home, inside)

    def declares(self, stmt: Statement) -> list[str]:
        """Record the variables an assignment or declaration statement sets (``PAGER=x``,
        ``export PAGER='sh -c id'``, ``declare -x LD_PRELOAD=…``, ``export PATH=.:$PATH``);
        the literal command lines their values hold."""
        from clearance.intent.shell.hazards import hazardous_variable, variable_payload

        payloads: list[str] = []
        for name, eq, value in typed_assignments(stmt.text):
            if eq and not (name.isidentifier() and name.isascii()):
                # `export "PA"GER=…`, `export {PA,}GER=…`: bash removes the quotes, or expands
                # the braces, and then assigns. A name still not plain may be any variable.
                name = name.replace("'", "").replace('"', "").replace("\\", "")
                if not (name.isidentifier() and name.isascii()):
                    if name not in self.names:
                        self.names.append(name)
                    continue
            if name == "HOME":
                self.home_set = True
            if name in SEARCH_PATH_VARIABLES and eq and self.fills_search_path(value, stmt):
                if name not in self.names:  # `export PATH=.:$PATH; ls`: later names may run
                    self.names.append(name)  # a file the agent wrote
                continue
            if not hazardous_variable(name):
                continue
            if name not in self.names:
                self.names.append(name)
            if eq and value:
                if value[0] == value[-1] == "'" and len(value) > 1:
                    value = value[1:-1]
                elif any(c in value for c in "$`\\\"'"):
                    value = ""
                payload = variable_payload(name, value)
                if payload:
                    payloads.append(payload)
        return payloads
