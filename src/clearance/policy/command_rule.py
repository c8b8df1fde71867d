"""Option-aware bash rules: ``"rm [-r -f] *"`` — this program, with these options, in any
order or spelling (ADR 0017).

A ``bash`` pattern is a *command rule* when a word after the first is an option list in
brackets: ``[]``, or ``[`` followed by ``-`` or ``!``. Its parts::

    git push [--force !--dry-run] origin *
    ^^^ ^^^^  ^^^^^^^ ^^^^^^^^^^  ^^^^^^^^
    |   |     |       |           operands: a wildcard over the operands that follow
    |   |     |       an option that must be absent
    |   |     an option that must be present (any spelling: -f, --force, --forc, -qf)
    |   the subcommand words, literal
    the program (matched by its basename)

The command is read with the program's grammar from :mod:`clearance.policy.programs` (which
options take a value, which spellings are one option, the options before the subcommand), so
``git -C x -c k=v push -qf origin main`` meets ``git push [--force] *``, and ``--force`` is never
``--force-with-lease``. ``-x=PATTERN`` requires a value matching the wildcard.

Operands: ``*`` or nothing matches any operands (none included). A pattern without a space is
matched against each operand: an *allow* rule must cover every operand, an *ask* or *deny*
rule fires on any one (``"rm [-r -f] /tmp/*": "allow"`` does not allow ``rm -rf /tmp/x /``).
A pattern with spaces is matched against the operands joined by single spaces; the ``--`` that
ends the options stands in its place (``git checkout [] -- *``).
"""

from __future__ import annotations

from clearance.policy.program_grammar import Parsed, Program, parse_command
from clearance.policy.programs import PROGRAMS
from clearance.policy.wildcard import (
    compile_pattern,
    has_wildcard,
    is_command_pattern,
    opens_option_list,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.policy.wildcard import Wildcard

__all__ = ["CommandPattern", "CommandPatternError", "is_command_pattern", "parse_argv"]


class CommandPatternError(ValueError):
    """A command rule that does not read: ``message`` says what and how to fix it."""

    def __init__(self, message: str, program: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.program = program  # the program it names, when one can be read


class CommandPattern:
    """A compiled command rule; :meth:`match` takes the command as its program reads it."""

    __slots__ = (
        "every", "forbidden", "joined", "needs", "operands", "pattern", "program", "required",
        "values", "words",
    )  # fmt: skip

    def __init__(self, pattern: str, action: str) -> None:
        self.pattern = pattern
        open_at = -1
        for i, ch in enumerate(pattern):
            after = pattern[i : i + 2]
            if ch == "[" and i > 0 and pattern[i - 1] in " \t" and opens_option_list(after):
                open_at = i
                break
        head = pattern[:open_at].split() if open_at > 0 else []
        if not head:
            raise CommandPatternError("the rule names no program before its option list", None)
        program = head[0]
        close = pattern.find("]", open_at)
        if close < 0:
            raise CommandPatternError(
                f'the option list has no closing "]"; write e.g. "{program} [-r -f] *"',
                program,
            )
        inside = pattern[open_at + 1 : close].split()
        tail = pattern[close + 1 :]
        if tail and tail[0] not in " \t":
            raise CommandPatternError('put a space after the "]" of the option list', program)
        tail = tail.strip()
        for word in tail.split():
            if opens_option_list(word):
                raise CommandPatternError(
                    "there are two option lists; put every option in the first one",
                    program,
                )
        if has_wildcard(program) or "/" in program or program.startswith("-"):
            raise CommandPatternError(
                f'the program "{program}" of a command rule is a plain name (matched by the '
                "basename of the command word), without wildcards or slashes",
                program,
            )
        words = head[1:]
        for word in words:
            if word.startswith("-"):
                raise CommandPatternError(
                    f'the option "{word}" stands before the option list; put it inside the '
                    f'brackets: "{program} [{word}]"',
                    program,
                )
            if has_wildcard(word):
                raise CommandPatternError(
                    f'the subcommand word "{word}" of a command rule is literal; write wildcards '
                    "after the option list",
                    program,
                )
        self.program = program
        self.words = tuple(words)
        grammar = PROGRAMS.get(program)
        required: set[str] = set()
        forbidden: set[str] = set()
        values: list[tuple[str, Wildcard]] = []
        for item in inside:
            absent = item.startswith("!")
            option = item[1:] if absent else item
            option, eq, value = option.partition("=")
            if not option.startswith("-") or option in ("-", "--"):
                raise CommandPatternError(
                    f'"{item}" in the option list is not an option; the list '
                    "holds options such as -f, --force or !--dry-run, and operands follow the "
                    '"]"',
                    program,
                )
            names = _names(grammar, program, words, option, pattern, bool(eq))
            if absent:
                if eq:
                    raise CommandPatternError(
                        f'"{item}": an absent option takes no value pattern', program
                    )
                forbidden.update(names)
            elif eq:
                for name in names:
                    values.append((name, compile_pattern(value or "*")))
            else:
                required.update(names)
        clash = required & forbidden
        if clash:
            raise CommandPatternError("it both requires and excludes the same option", program)
        self.required = tuple(sorted(required))
        self.forbidden = tuple(sorted(forbidden))
        self.values = tuple(values)
        self.joined = " " in tail or "\t" in tail
        self.operands: Wildcard | None = None
        if tail and tail != "*":
            self.operands = compile_pattern(" ".join(tail.split()) if self.joined else tail)
        self.every = action == "allow"
        # A deny or ask whose operands are one literal (`rm [-r] /usr`) needs that word among
        # the command's words: a cheap test before the command is parsed.
        self.needs = (
            self.operands.exact
            if self.operands is not None and not self.joined and not self.every
            else None
        )

    def match(self, parsed: Parsed) -> bool:
        operands = parsed.operands
        words = self.words
        count = len(words)
        if len(operands) < count:
            return False
        for i in range(count):
            if operands[i] != words[i]:
                return False
        options = parsed.options
        for name in self.required:
            if name not in options:
                return False
        for name in self.forbidden:
            if name in options:
                return False
        for name, wildcard in self.values:
            given = options.get(name)
            if not given or not any(v is not None and wildcard.match(v) for v in given):
                return False
        pattern = self.operands
        if pattern is None:
            return True
        rest = operands[count:]
        if self.joined:
            if None in rest:
                return False  # a computed operand: the rule cannot say what the line holds
            return pattern.match(" ".join(rest))  # type: ignore[arg-type]
        dashdash = parsed.dashdash - count
        if self.every:
            # An allow covers every operand, and there must be one: `rm -rf` with none on the
            # line gets them elsewhere (`xargs rm -rf`), which `/tmp/*` does not speak for.
            seen = False
            for i, value in enumerate(rest):
                if i != dashdash:
                    if value is None or not pattern.match(value):
                        return False
                    seen = True
            return seen
        for i, value in enumerate(rest):
            if i != dashdash and value is not None and pattern.match(value):
                return True
        return False

    def __repr__(self) -> str:
        return f"CommandPattern({self.pattern!r})"


def _names(
    grammar: Program | None,
    program: str,
    words: Sequence[str],
    option: str,
    pattern: str,
    valued: bool,
) -> tuple[str, ...]:
    """The option names ``option`` stands for at the level the subcommand ``words`` reach."""
    parsed = parse_command(grammar, program, [*words, option])
    names = tuple(parsed.options)
    if not names or parsed.operands[len(words) :]:
        raise CommandPatternError(f'"{option}" is not an option', program)
    if any(v is not None for given in parsed.options.values() for v in given):
        raise CommandPatternError(
            f'"{option}" joins a value-taking option with others; write each option on its own',
            program,
        )
    if valued and grammar is not None:
        probe = parse_command(grammar, program, [*words, option, "x"])
        # (a value that must be attached: rm's `--interactive=never`, git's `--force-with-lease=b`)
        glued = option + ("=x" if option.startswith("--") else "x")
        attached = parse_command(grammar, program, [*words, glued]).options.values()
        if (
            probe.operands[len(words) :]
            and not any("x" in given for given in attached)
            and _known(grammar, words, option)
        ):
            raise CommandPatternError(
                f'"{option}" takes no value in {program}, so "{option}=…" cannot match; '
                f'write "{option}" alone',
                program,
            )
    return names


def _known(grammar: Program, words: Sequence[str], option: str) -> bool:
    level = grammar.level(words)
    if option.startswith("--") or grammar.style == "words":
        return grammar.lookup(level, option, True) is not None
    return grammar.lookup(level, option[1:2], False) is not None


def parse_argv(argv: Sequence[str | None]) -> tuple[str, Parsed] | None:
    """``(program, parsed)`` for a command's words, or ``None`` when its name is computed."""
    first = argv[0] if argv else None
    if first is None:
        return None
    name = first.rpartition("/")[2]
    return name, parse_command(PROGRAMS.get(name), name, argv[1:])
