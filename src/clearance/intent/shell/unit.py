"""A unit: one command of a bash command line, as the bash gate matches it (docs/shell-analysis.md,
"What is seen through")."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from clearance.intent.sentinel import Floor

    Context = Literal[
        "",
        "command_substitution",
        "process_substitution",
        "subshell",
        "heredoc",
        "wrapped",
        "opaque_payload",
        "compound",
    ]
    WrapperKind = Literal["opaque", "indirection"]
    Exemption = Literal[
        "core-reader", "execution-modifier", "shell-script", "assignment", "launcher", "find-exec"
    ]

__all__ = ["Unit", "unit"]

_new = object.__new__


class _UnitFields:
    """The fields of a :class:`Unit`, assignable only while one is being built."""

    __slots__ = (
        "argv",
        "canonical",
        "context",
        "executed",
        "exemption",
        "floor",
        "launcher",
        "salvaged",
        "spellings",
        "text",
        "unresolved",
        "wrapper",
    )

    text: str
    canonical: str
    context: Context
    wrapper: WrapperKind | None
    executed: str | None
    exemption: Exemption | None
    unresolved: bool
    salvaged: bool
    spellings: tuple[str, ...]
    floor: Floor | None
    argv: tuple[str | None, ...]
    launcher: str | None


class Unit(_UnitFields, Frozen):
    """One command unit.

    ``text`` is the unit as typed with leading ``NAME=value`` assignments and every redirect
    removed (source spacing kept); ``canonical`` has the command word replaced by its unquoted
    basename. ``context`` says where it runs (the innermost enclosing construct): ``""`` at top
    level, ``command_substitution``, ``process_substitution``, ``subshell``, ``heredoc``,
    ``wrapped`` (the inner command of a wrapper), ``opaque_payload`` (parsed out of a literal
    ``bash -c``/``eval`` payload) or ``compound`` (a whole compound statement).

    ``wrapper`` classifies the unit itself (``opaque`` or ``indirection``); ``executed`` is the
    command it finally runs after peeling wrappers; ``exemption`` names the floor exemption it
    qualifies for (docs/shell-analysis.md, "What is seen through"). ``unresolved`` marks a unit at
    or beneath a statement that did
    not parse cleanly; ``salvaged`` one recovered by re-parsing an error region. ``spellings``
    are extra spellings a rule may match (docs/shell-analysis.md, "Paths"), never including
    ``text``. ``floor``
    names what the analysis could not prove about the unit (a ``(sentinel, why)`` pair from
    :mod:`~clearance.intent.sentinel`): the gate asks where its rule would allow. ``argv`` is
    the words as bash passes them (quotes removed; ``None`` for a computed word), which command
    rules (``rm [-r -f] *``) read with the program's option grammar; empty when the unit is not
    one command's words. ``launcher`` is the text of the launcher unit (``uv run …``,
    ``npx …``) that runs this one, through any wrappers between: where only the catch-all rule
    speaks for this unit, the launcher's own rule does (ADR 0041).
    """

    __slots__ = ()

    # ``argv`` is what ``text`` reads as; it takes no part in a unit's identity.
    def __eq__(self, other: object) -> bool:
        if type(other) is not Unit:
            return NotImplemented
        return self.astuple()[1:] == other.astuple()[1:]

    def __hash__(self) -> int:
        return hash(("Unit", self.astuple()[1:]))

    def __new__(
        cls,
        text: str,
        *,
        canonical: str | None = None,
        context: Context = "",
        wrapper: WrapperKind | None = None,
        executed: str | None = None,
        exemption: Exemption | None = None,
        unresolved: bool = False,
        salvaged: bool = False,
        spellings: tuple[str, ...] = (),
        floor: Floor | None = None,
        argv: tuple[str | None, ...] = (),
        launcher: str | None = None,
    ) -> Unit:
        canonical = text if canonical is None else canonical
        return unit(text, canonical, context, wrapper, executed, exemption, unresolved, salvaged,
                    spellings, floor, argv, launcher)  # fmt: skip


def unit(
    text: str,
    canonical: str,
    context: Context,
    wrapper: WrapperKind | None,
    executed: str | None,
    exemption: Exemption | None,
    unresolved: bool,
    salvaged: bool,
    spellings: tuple[str, ...],
    floor: Floor | None = None,
    argv: tuple[str | None, ...] = (),
    launcher: str | None = None,
) -> Unit:
    """A :class:`Unit` from every field, positionally: the assembly's way, without the keyword
    handling of the class call. Built on its fields class, then sealed (ADR 0001)."""
    self = _new(_UnitFields)
    self.text = text
    self.canonical = canonical
    self.context = context
    self.wrapper = wrapper
    self.executed = executed
    self.exemption = exemption
    self.unresolved = unresolved
    self.salvaged = salvaged
    self.spellings = spellings
    self.floor = floor
    self.argv = argv
    self.launcher = launcher
    self.__class__ = Unit
    return self  # type: ignore[return-value]
