"""Path tokens: what a statement's words and redirects name, projected as paths.

:class:`Projection` turns a statement's redirects and arguments into
:class:`~clearance.intent.shell.token.PathToken` values, each with its effect (read, write, …),
expanding ``~``/``$HOME`` and ``$PWD`` against the home and the statement's effective directory,
reading globs and braces, and following the links the line itself made
(:class:`~clearance.intent.shell.line.Line`). The
:class:`~clearance.intent.shell.assembly.Assembly` owns one and asks it for the tokens of each
statement (docs/shell-analysis.md, "Paths").
"""

from __future__ import annotations

from clearance.intent.shell import brace, ripgrep
from clearance.intent.shell.effect import (
    PATHSPEC_MAGIC,
    reader_claim,
    reads_recursively,
    search_operands,
    search_walk,
    searches_cwd,
)
from clearance.intent.shell.effect import RECURSIVE as RECURSIVE_NAMES
from clearance.intent.shell.line import Line
from clearance.intent.shell.role import candidates, known_options, made_operands
from clearance.intent.shell.token import (
    PathToken,
    absolute,
    own_cwd,
    path_shaped,
    reaches_process,
)
from clearance.intent.shell.word import HOME, PWD
from clearance.intent.shell.wrapper import OPAQUE_LINE, layer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.shell.layer import Layer
    from clearance.intent.shell.statement import Redirect, Statement
    from clearance.intent.shell.token import Effect, Source
    from clearance.intent.shell.word import Word

__all__ = ["GLOB_MARKS", "INERT", "METADATA", "Projection"]

GLOB_MARKS = frozenset("*?[")  # what makes a word a pattern (a brace is expanded before)
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
_READS = frozenset({"<", "<<<", "<&"})
# Commands that change a file's metadata or look at it, never its content: a later run of the
# file runs what was there before the line (`chmod +x run.sh && ./run.sh`).
METADATA = frozenset(
    {"chmod", "chown", "chgrp", "touch", "chattr", "setfacl", "stat", "file", "ls", "wc"}
    | {"du", "realpath", "readlink", "mkdir", "test", "["}
)
# Commands whose operands are text, never a file they open or look at: `echo .env` prints a name,
# `dirname "$f"` cuts one. No operand of theirs is a path, known or not, but for a pattern, which
# the shell expands by listing directories.
_TEXT_ONLY = frozenset({"echo", "printf", "true", "false", ":", "basename", "dirname"})
# Characters no name of a file that a command may make here holds, as the protected-path gate
# would judge it: a URL's, `NAME=value`'s, `host:path`'s.
_PLAIN_NAME = frozenset("/=:")
# Commands that open none of their operands: a computed operand is no unknown path. (`cd`
# to a computed directory makes the base unknown instead: later relative paths are unknown.)
INERT = _TEXT_ONLY | frozenset(
    {"cd", "pushd", "kill", "unset", "shift", "exit"}
    | {"return", "export", "local", "declare", "typeset", "readonly", "set", "test", "["}
)
_HOME_PREFIXES = ("~/", "$HOME", "${HOME}")


class Projection:
    """The path tokens of one command line (or one payload), in source order."""

    __slots__ = (
        "exists",
        "home",
        "home_ok",
        "inert",
        "limited",
        "line",
        "opens",
        "project",
        "tokens",
    )

    def __init__(
        self,
        home: str,
        home_ok: bool,
        exists: Callable[[str], bool],  # never raises
        line: Line,
        project: bool,
    ) -> None:
        self.home = home
        self.home_ok = home_ok
        self.exists = exists
        self.line = line  # links, copies and written files of earlier statements
        self.project = project  # payload units project no paths and get no spellings
        self.tokens: list[PathToken] = []
        self.limited = False  # a brace expansion of the current statement passed its cap
        self.inert = False  # the operands being projected belong to a command that opens none
        self.opens = True  # they belong to a command that may open them (not `echo`, `cd`)

    def resolve(self, word: Word, base: str | None) -> str | None:
        value = self.expand(word, base)
        if value is None or value == "-" or word.glob:
            return None
        joined = _joined(value, base) if _climbs(value) else None
        if joined is not None and reaches_process(joined):
            return None  # `cd /proc/self/cwd/..`: where it leads is the running process's
        found = absolute(value, base)
        if found is not None and reaches_process(found):
            return None
        if found is not None and self.line.aliases:
            # `ln -s .. up; cd up`: the directory is what the name made earlier reaches.
            reached = self.line.through(joined or found)
            if reached:
                return reached[0]
        return found

    def expand(self, word: Word, base: str | None) -> str | None:
        if word.value is not None:
            return word.value
        if word.segs is None:
            return None
        return self._join(word.segs, base)

    def _join(self, segs: Sequence[str | int], base: str | None) -> str | None:
        """``segs`` joined, ``~``/``$HOME`` and ``$PWD`` expanded (``None``: not known)."""
        parts: list[str] = []
        for seg in segs:
            if seg == HOME:
                parts.append(self.home)
            elif seg == PWD:
                if base is None:
                    return None
                parts.append(base)
            else:
                parts.append(seg)  # type: ignore[arg-type]
        return "".join(parts)

    # -- tokens ---------------------------------------------------------------------------

    def redirects(self, stmt: Statement, base: str | None) -> None:
        if not self.project:
            # A payload's writes still count for later runs.
            self.line.written.extend(self.redirect_writes(stmt, base))
            return
        for redirect in stmt.redirects:
            self._redirect(redirect, base, stmt.text)

    def redirect_writes(self, stmt: Statement, base: str | None) -> list[tuple[str | None, str]]:
        """The files ``stmt``'s redirects open for writing: (absolute path or ``None``, the
        value as written), as :attr:`Line.written` holds them."""
        out: list[tuple[str | None, str]] = []
        for redirect in stmt.redirects:
            target = redirect.target
            if target is not None and redirect.op in _WRITES and not redirect.duplicates:
                value = self.expand(target, base)
                path = absolute(value, base) if value is not None else None
                out.append((path, value if value is not None else target.raw))
        return out

    def _redirect(self, redirect: Redirect, base: str | None, command: str) -> None:
        target = redirect.target
        if target is None or redirect.duplicates:
            return
        op = redirect.op
        effect: Effect
        source: Source = "syntax"
        if redirect.broken:
            effect, source = "unproven", "unproven"
        elif op in _WRITES:
            effect = "write"
        elif op in _READS:
            effect = "read"
        else:
            effect, source = "unproven", "unproven"
        self._token(target, base, command, effect, source, by_role=op != "<<<")

    def command_tokens(
        self,
        words: Sequence[Word],
        base: str | None,
        command: str,
        provable: bool,
        known: tuple[Layer | None] | None = None,
        deep: bool = True,
        piped: bool = False,
    ) -> None:
        """The tokens of the command ``words``; ``piped``: its standard input is a pipe."""
        if not self.project:
            return
        start = len(self.tokens)
        self._command_paths(words, base, command, provable, known)
        name = words[0].value if words else None
        if (
            deep
            and name
            and name.rpartition("/")[2] in RECURSIVE_NAMES
            and reads_recursively(words)
        ):
            # `grep -r x ~`: what lies beneath each directory operand is read too; by rg, as
            # ripgrep walks by default (no hidden entry, no link beneath) unless told otherwise.
            rg = name.rpartition("/")[2] == "rg"
            how = ripgrep.walk(words) if rg else ripgrep.UNKNOWN
            walk = how.walk if rg else search_walk(words)
            tokens = self.tokens
            given = len(tokens) > start
            if given:
                tokens[start:] = [t.replace(deep=True, walk=walk) for t in tokens[start:]]
            # How many paths it is given: an option's value is none (`grep -r -f pats`).
            if rg:
                operands = how.paths if how.paths != ripgrep.AS_GIVEN else int(given)
            else:
                operands = search_operands(words, given)
            if operands == PATHSPEC_MAGIC:
                # `git grep x -- ':/'`: what it searches is not known here
                magic = next(w.value for w in words if w.value and w.value[:1] == ":")
                tokens.append(PathToken(magic, None, "read", "unproven", command, True))
            elif operands:
                pass
            elif piped and how.stdin_searched():
                pass  # `ls | rg x`: ripgrep given no path searches the pipe
            elif searches_cwd(words):
                # `rg x`, `grep -r x`: no directory given, the working directory is searched.
                tokens.append(PathToken(".", base, "read", "core", command, True, walk))

    def _command_paths(
        self,
        words: Sequence[Word],
        base: str | None,
        command: str,
        provable: bool,
        known: tuple[Layer | None] | None,
    ) -> None:
        found = layer(words) if known is None else known[0]
        if found is not None:
            if found.kind == "opaque":
                return  # the payload is not projected; the wrapper is floored instead
            own = list(words[: found.start]) if found.start is not None else list(words)
            if found.start is not None:
                own.extend(words[found.end :])
            source: Source = "retracted" if found.name in ("find", "fd") else "unproven"
            self.arguments(own[1:], base, command, "unproven", source, generic_of=own)
            inner = found.inner(words)
            if inner:
                self.command_tokens(
                    inner, base, command, provable and found.name not in OPAQUE_LINE
                )
            return
        claim = reader_claim(words) if provable else None
        if claim == "read":
            self._candidates(words, base, command, "read", "core")
        elif claim == "retracted":
            self._candidates(words, base, command, "unproven", "retracted")
        else:
            self._candidates(words, base, command, "unproven", "unproven")

    def _candidates(
        self, words: Sequence[Word], base: str | None, command: str, effect: Effect, source: Source
    ) -> None:
        if words and words[0].value in _TEXT_ONLY:
            # Its words are text; but a pattern among them is expanded by reading directories,
            # and prints the names it finds (`echo ~/.ssh/*`): a pattern stays a path.
            words = [words[0], *(w for w in words[1:] if w.glob)]
            if len(words) == 1:
                return
        # Operands of a command that opens none of them are no unknown paths (`echo "$x"`).
        unknown = words[0].value not in INERT if words else True
        # Nor are they files it may write for a later run: `echo f`, `chmod +x run.sh`.
        self.inert = not unknown or (words[0].value in METADATA if words else False)
        self.opens = unknown
        # The files it writes by their place, made if they are not there (`sort -o f`, `tee f`):
        # paths whatever their shape, as a redirect's target is.
        made = made_operands(words) if effect != "read" else []
        for item in candidates(words):
            role = bool(made) and any(item is m or item == m for m in made)
            if role:
                made = [m for m in made if not (item is m or item == m)]
            if isinstance(item, str):
                self.value(item, item, base, command, effect, source, role)
            else:
                self._token(item, base, command, effect, source, role, unknown)
        for rest in made:  # cut from its word otherwise than the candidates are (`tar -cfF`)
            if isinstance(rest, str):
                self.value(rest, rest, base, command, effect, source, True)
            else:
                self._token(rest, base, command, effect, source, True, unknown)
        if words and self.opens and not known_options(words[0].value):
            # A value glued behind a letter or two of a program whose options are not known
            # (`shuf -eoopencode.json`, `iconv -coF`): a name it may make, for the protected gate
            for word in words[1:]:
                value = word.value
                if not value or value[:1] != "-":
                    continue
                if value[1:2] != "-" and len(value) > 4:
                    for cut in (3, 4):
                        self.may_make(value[cut:], base, command)
                for mark in "=:,":  # `-Wl,-Map=F`, `-Xlog:gc:F`, `-XX:LogFile=F`
                    if mark in value:
                        self.may_make(value.rpartition(mark)[2], base, command)
        self.inert = False
        self.opens = True

    def may_make(self, value: str, base: str | None, command: str, raw: str = "") -> None:
        """Record ``value`` (spelled ``raw``), a bare name a command may write (ADR 0061): one
        that is no file yet for the protected-path gate, one that is a path like any other
        written (through the links it may be). Not a URL, `NAME=value` or `host:path`, which
        name no file here."""
        if base is None or not value or not _PLAIN_NAME.isdisjoint(value) or " " in value:
            return
        probe = absolute(value, base)
        if probe is None:
            return
        if self.exists(probe):
            self._emit(raw or value, probe, "unproven", "unproven", command)
        else:
            self.line.makes.append((probe, raw or value, command))

    def arguments(
        self,
        words: Sequence[Word],
        base: str | None,
        command: str,
        effect: Effect,
        source: Source,
        generic_of: Sequence[Word] | None = None,
        unknown: bool = True,
    ) -> None:
        if not self.project or not words:
            return
        if generic_of is not None:
            self._candidates(generic_of, base, command, effect, source)
            return
        for word in words:
            value = word.value
            if value is not None and value.startswith("-"):
                continue
            self._token(word, base, command, effect, source, False, unknown)

    def _token(
        self,
        word: Word,
        base: str | None,
        command: str,
        effect: Effect,
        source: Source,
        by_role: bool = False,
        unknown: bool = True,
    ) -> None:
        value = word.value
        raw = word.raw
        if "{" in raw and "}" in raw and self._braces(word, base, command, effect, source):
            return
        if value is not None:  # a literal word: its value as written
            if word.glob and not by_role and not GLOB_MARKS.isdisjoint(value):
                self._glob(value, base, command, effect, source)
            else:
                self.value(value, value, base, command, effect, source, by_role)
            return
        if word.segs is None:  # computed
            if word.alts is not None:
                # `${x:-~/.ssh/id_rsa}`: each literal value the expansion may take.
                for parts in word.alts:
                    found = self._join(parts, base)
                    if found is not None:
                        # A pattern value is a path whatever its shape, as a glob word is:
                        # `for f in *.md; do rm "$f"; done` reaches what `rm *.md` does.
                        glob = by_role or not GLOB_MARKS.isdisjoint(found)
                        self.value(word.raw, found, base, command, effect, source, glob)
            # `cat $((1))` reads ./1: a number names a file as well as any word does
            arithmetic = "$((" in raw or "$[" in raw
            if (word.unknown or arithmetic) and unknown and not _option(word.raw):
                # A value computed when it runs: an unknown path (the gate asks when a path
                # rule could match it).
                shown = word.raw.replace('"', "").replace("'", "")
                self.tokens.append(PathToken(shown, None, effect, "computed", command))
            elif not self.home_ok and (
                word.raw.lstrip("\"'").startswith(_HOME_PREFIXES) or word.raw == "~"
            ):
                # HOME is reassigned: a home path whose directory is unknown (`~` alone too).
                self.tokens.append(PathToken(word.raw, None, effect, source, command))
            return
        value = self.expand(word, base)
        raw = word.raw.replace('"', "").replace("'", "")
        if value is None:  # $PWD with an unknown base
            self.tokens.append(PathToken(raw, None, effect, source, command))
            return
        self.value(raw, value, base, command, effect, source, by_role)

    def _braces(
        self, word: Word, base: str | None, command: str, effect: Effect, source: Source
    ) -> bool:
        """Project each word a brace expansion makes on its own (``{,~/.ssh/id_rsa}`` reaches
        ``~/.ssh/id_rsa``); ``False`` when ``word`` holds no brace expansion."""
        words = brace.expand(word.raw)
        if words is not None and len(words) == 1 and words[0] == word.raw:
            return False
        if words is None:  # past the cap: unknown, and the unit asks
            self.limited = True
            self.tokens.append(PathToken(word.raw, None, effect, source, command))
            return True
        for text in words:
            value, glob = brace.literal(text)
            if value is None:  # an expansion inside an alternative: an unknown path
                self.tokens.append(PathToken(text, None, effect, source, command))
            elif glob:
                self._glob(value, base, command, effect, source)
            elif value:
                self.value(value, value, base, command, effect, source)
        return True

    def _glob(
        self, value: str, base: str | None, command: str, effect: Effect, source: Source
    ) -> None:
        """An unquoted glob word (``*``, ``l*k``, ``src/*.py``): a path token whatever its
        shape, so the gate expands it against the filesystem as bash would (bounded; a bound
        reached asks). A quoted glob character is literal in bash and never comes here. In a
        directory not known, what a relative pattern matches is not known either."""
        if value[:1] == "-" or "\n" in value:
            return  # an option (`-*`) or prose
        if value[0] == "~" or value[0] == "/" or base is not None:
            self.value(value, value, base, command, effect, source, True)
        else:
            self.tokens.append(PathToken(value, None, effect, source, command))

    def value(
        self,
        raw: str,
        value: str,
        base: str | None,
        command: str,
        effect: Effect,
        source: Source,
        by_role: bool = False,
    ) -> None:
        if not value:
            return
        first = value[0]
        if not by_role and not path_shaped(value):
            if base is None and source == "core" and "\n" not in value and first != "-":
                # A reader's bare operand in a directory not known (`cd "$d" && cat id_rsa`):
                # it may name any file there, so it is a path relative to nothing known.
                self.tokens.append(PathToken(raw, None, effect, source, command))
                return
            if base is None or "\n" in value or first == "-":
                return
            probe = absolute(value, base)
            if probe is None or not (
                self.exists(probe) or (self.line.aliases and self.line.under(probe))
            ):
                if effect != "read" and " " not in value:
                    # Not a file yet, but the command may make it (`tee f`, `cp a f`).
                    if not self.inert:
                        self.line.written.append((probe, value))
                    if self.opens:  # `cd .claude && uniq - settings.json`
                        self.may_make(value, base, command, raw)
                return
            if first != "~":
                self._emit(raw, probe, effect, source, command)
                return
        if first == "~":
            if value != "~" and not value.startswith("~/"):
                self.tokens.append(PathToken(raw, None, effect, source, command))
                return
            if not self.home_ok:
                self.tokens.append(PathToken(raw, None, effect, source, command))
                return
            value = self.home + value[1:]
        elif base is not None and "cwd" in value:
            # `/proc/self/cwd/etc`: the directory the line runs in, as a relative path names it.
            value = own_cwd(value if first == "/" else base + "/" + value) or value
        path = absolute(value, base)
        joined = _joined(value, base) if path is not None and _climbs(value) else None
        if path is not None and (reaches_process(path) or (joined and reaches_process(joined))):
            # What it reaches belongs to the process that will run the line, not to clearance.
            self.tokens.append(PathToken(raw, None, effect, "computed", command))
            return
        self._emit(raw, path, effect, source, command, joined)

    def _emit(
        self,
        raw: str,
        path: str | None,
        effect: Effect,
        source: Source,
        command: str,
        joined: str | None = None,
    ) -> None:
        """Append the token of ``path``, and of what it reaches through the links, copies and
        moves of earlier statements (``ln -s .. up; cat up/.ssh/id_rsa``); note a write.

        ``joined``: the absolute spelling before ``..`` is folded, when the value holds one.
        The kernel follows a link before it climbs (``sd/../x``, with ``sd`` a link, is
        ``x`` beside the link's target), so that spelling is a token too, for the gate to
        resolve as the kernel does."""
        self.tokens.append(PathToken(raw, path, effect, source, command))
        if joined is not None and joined != path:
            self.tokens.append(PathToken(raw, joined, effect, source, command))
        line = self.line
        if effect != "read" and not self.inert:
            line.written.append((path, raw))
        if path is None:
            return
        if line.overflow:
            self.tokens.append(PathToken(raw, None, effect, "computed", command))
        elif line.aliases:
            for reach in line.through(joined or path):
                self.tokens.append(
                    PathToken(raw, reach, effect, source if reach else "computed", command)
                )


def _climbs(value: str) -> bool:
    """Whether ``value`` climbs with ``..`` out of a name it went through (``a/../b``), where
    the name may be a link: a leading ``../`` climbs out of the working directory only."""
    if ".." not in value:
        return False
    named = False
    for part in value.split("/"):
        if part == "..":
            if named:
                return True
        elif part and part != ".":
            named = True
    return False


def _joined(value: str, base: str | None) -> str | None:
    """``value`` made absolute against ``base`` with ``//`` and ``/./`` folded but every
    ``..`` kept (``None``: base unknown)."""
    if value[:1] != "/":
        if base is None:
            return None
        value = base + "/" + value
    parts = [p for p in value.split("/") if p and p != "."]
    return "/" + "/".join(parts)


def _option(raw: str) -> bool:
    """Whether a computed word is an option without a value of its own (``-j$(nproc)``,
    ``-n$N``); ``--file=$f`` carries a value, which may be a path."""
    return raw[:1] == "-" and "=" not in raw
