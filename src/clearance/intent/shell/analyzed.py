"""The value :func:`clearance.intent.shell.analyze` returns: what a bash command line runs and
touches."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.shell.token import PathToken
    from clearance.intent.shell.unit import Unit

__all__ = ["Analysis"]

_new = object.__new__


class _AnalysisFields:
    """The fields of an :class:`Analysis`, assignable only while one is being built."""

    __slots__ = ("command", "home_reassigned", "makes", "paths", "units", "unparseable")

    command: str
    units: tuple[Unit, ...]
    paths: tuple[PathToken, ...]
    unparseable: bool
    home_reassigned: bool
    makes: tuple[PathToken, ...]


class Analysis(_AnalysisFields, Frozen):
    """What a bash command line runs and touches.

    ``units`` in source order (an enclosing unit before the ones nested in it); ``paths``
    deduplicated by path (or raw when unknown) with effects merged; ``unparseable`` is true for
    a non-empty, non-comment command that yielded no unit; ``home_reassigned`` is true when the
    program may assign ``HOME`` (then ``~``/``$HOME`` are not expanded and no home spelling is
    offered); ``makes`` the names a command is given that are no file yet and that it may make
    (``uniq - opencode.json``), which only the protected-path gate judges (ADR 0060).
    """

    __slots__ = ()

    def __new__(
        cls,
        command: str,
        units: tuple[Unit, ...],
        paths: tuple[PathToken, ...],
        unparseable: bool,
        home_reassigned: bool,
        makes: tuple[PathToken, ...] = (),
    ) -> Analysis:
        self = _new(_AnalysisFields)  # built on its fields class, then sealed (ADR 0001)
        self.command = command
        self.units = units
        self.paths = paths
        self.unparseable = unparseable
        self.home_reassigned = home_reassigned
        self.makes = makes
        self.__class__ = cls
        return self  # type: ignore[return-value]
