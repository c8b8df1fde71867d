"""Immutable value objects for the hot path.

``dataclasses`` costs about as much to import as a third of the hook's whole start-up budget, so
the values that cross layers on the decision path derive from :class:`Frozen` instead: a class
with ``__slots__``, no instance dict, equality, hashing and ``repr`` over its fields, and no
attribute assignment after ``__init__`` (ADR 0001).

Setting a field through ``object.__setattr__`` costs several times a plain attribute store, and a
bash check builds about eight values. The values built on every check therefore keep their
fields on a plain ``_XFields`` class with the same ``__slots__``, build the instance there with
ordinary stores in ``__new__``, and then set ``__class__`` to the frozen class (same layout, so
CPython allows the switch): from that moment assignment raises as for every other value.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Frozen"]

_set = object.__setattr__


class Frozen:
    """Base of immutable values. Subclasses declare ``__slots__`` and set fields with ``_set``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        fields: list[str] = []
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__slots__", ()):
                if name not in fields:
                    fields.append(name)
        cls._fields = tuple(fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable (cannot delete {name!r})")

    def astuple(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.astuple() == other.astuple()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.astuple()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({inner})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (``dataclasses.replace`` for these values)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field(s) {sorted(unknown)}")
        new = object.__new__(type(self))
        for name in self._fields:
            _set(new, name, changes[name] if name in changes else getattr(self, name))
        return new
