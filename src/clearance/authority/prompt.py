"""What a human is shown when asked (:class:`Prompt`) and what they answered (:class:`Answer`).

Plain values, shared by every way of asking (the terminal dialog, a serving session answering
for a subagent). They hold no I/O; building a prompt from a decision belongs to the caller.
"""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    from clearance.decide.suggestion import Suggestion

    Choice: TypeAlias = Literal["once", "session", "session_both", "always", "deny", "deny_reason"]

__all__ = ["CHOICES", "Answer", "Prompt"]

CHOICES = ("once", "session", "session_both", "always", "deny", "deny_reason")
"""Every :attr:`Answer.choice`, in the order the dialog offers them."""


class Prompt(Frozen):
    """Everything the human needs to decide one ask.

    ``title`` is ``Permission Required`` (or ``… (Subagent)`` for a forwarded ask);
    ``requester`` who asks, when it is not the session the human is in; ``value`` what was
    decided (the command, path, mcp target...); ``rule`` the rule that asked, with its origin;
    ``reasons`` one line per gate that asked; ``suggestions`` the session-approval options;
    ``both_label`` the label of ``b`` (grant both directions), set only for directional asks.
    ``asking`` the parts of the value that asked (the units of a command line); ``grants`` and
    ``both_grants`` every pattern ``s`` and ``b`` record, as shown to the human — exactly what
    the answer grants.
    """

    __slots__ = (  # noqa: RUF023 -- field order is the constructor's
        "title",
        "requester",
        "tool",
        "value",
        "rule",
        "reasons",
        "suggestions",
        "both_label",
        "asking",
        "grants",
        "both_grants",
        "always_label",
    )
    title: str
    requester: str | None
    tool: str
    value: str
    rule: str | None
    reasons: tuple[str, ...]
    suggestions: tuple[Suggestion, ...]
    both_label: str | None
    asking: tuple[str, ...]
    grants: tuple[str, ...]
    both_grants: tuple[str, ...]
    always_label: str | None

    def __init__(
        self,
        title: str,
        requester: str | None,
        tool: str,
        value: str,
        rule: str | None = None,
        reasons: tuple[str, ...] = (),
        suggestions: tuple[Suggestion, ...] = (),
        both_label: str | None = None,
        asking: tuple[str, ...] = (),
        grants: tuple[str, ...] = (),
        both_grants: tuple[str, ...] = (),
        always_label: str | None = None,
    ) -> None:
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "requester", requester)
        object.__setattr__(self, "tool", tool)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "reasons", tuple(reasons))
        object.__setattr__(self, "suggestions", tuple(suggestions))
        object.__setattr__(self, "both_label", both_label)
        object.__setattr__(self, "asking", tuple(asking))
        object.__setattr__(self, "grants", tuple(grants))
        object.__setattr__(self, "both_grants", tuple(both_grants))
        object.__setattr__(self, "always_label", always_label)


class Answer(Frozen):
    """The human's answer.

    ``choice`` is one of :data:`CHOICES`: ``once`` (allow this call), ``session`` (allow and
    grant the first suggestion), ``session_both`` (allow and grant both directions), ``always``
    (allow, and write the first suggestion into a configuration file), ``deny``,
    ``deny_reason`` (deny, telling the agent ``reason``). A ``deny`` may carry a ``reason``
    saying why nobody decided: ``timeout``, ``interrupted`` (Ctrl-C or a signal), ``eof``
    (Ctrl-D or the terminal went away) or ``escape``.
    """

    __slots__ = ("choice", "reason")
    choice: Choice
    reason: str | None

    def __init__(self, choice: Choice, reason: str | None = None) -> None:
        if choice not in CHOICES:
            raise ValueError(f"unknown choice {choice!r}; expected one of {CHOICES}")
        object.__setattr__(self, "choice", choice)
        object.__setattr__(self, "reason", reason)

    @property
    def allowed(self) -> bool:
        """Whether the call may run."""
        return self.choice in ("once", "session", "session_both", "always")
