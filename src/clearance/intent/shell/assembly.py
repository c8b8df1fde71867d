"""Assembly: from walked statements to units and path tokens.

For each statement in source order this module builds the unit(s) the bash gate sees (the unit
itself, then one ``wrapped`` unit per peeled wrapper layer, then the units of a literal opaque
payload) and the path tokens its words and redirects project, folding literal ``cd`` into the
effective directory of the statement's shell (docs/shell-analysis.md, "Paths").

The path tokens are projected by the :class:`~clearance.intent.shell.projection.Projection` an
assembly owns; a unit's text as bash reads it comes from :mod:`~clearance.intent.shell.unit_text`.
"""

from __future__ import annotations

import os

from clearance.intent.sentinel import CODE_RUNNING, COMPUTED, EXPANSION_LIMIT
from clearance.intent.shell import brace
from clearance.intent.shell.cd import base_of, cd_words, fold_cd
from clearance.intent.shell.concurrent import (
    Concurrent,
    elements,
    files_run,
    runs_written,
    streamed,
)
from clearance.intent.shell.effect import option_glob, reader_claim
from clearance.intent.shell.find_exec import commands as find_commands
from clearance.intent.shell.folding import fold
from clearance.intent.shell.launchers import SCRIPT_LAUNCHERS
from clearance.intent.shell.line import Line
from clearance.intent.shell.names import (
    GIT_READ_ONLY,
    KNOWLEDGE,
    LATER,
    REREAD,
    SEARCH_PATH_VARIABLES,
)
from clearance.intent.shell.projection import GLOB_MARKS, Projection
from clearance.intent.shell.runners import home_file
from clearance.intent.shell.spelling import spellings
from clearance.intent.shell.statement import stdin_source, stdin_text
from clearance.intent.shell.token import PathToken
from clearance.intent.shell.trees import landings
from clearance.intent.shell.unit import Unit, unit
from clearance.intent.shell.unit_text import (
    XARGS_INPUT,
    argv,
    brace_arguments,
    brace_command,
    canonical_text,
    dotdot_arguments,
    expanded_canonical,
    keywordless,
    names_only,
)
from clearance.intent.shell.variables import (
    Variables,
    typed_assignments,
    typed_items,
    work_tree_top,
)
from clearance.intent.shell.wrapper import OPAQUE_LINE, basename, join, layer, peel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell import reeval
    from clearance.intent.shell.hazards import Finding
    from clearance.intent.shell.layer import Layer
    from clearance.intent.shell.statement import Statement
    from clearance.intent.shell.token import Effect
    from clearance.intent.shell.unit import Context, Exemption
    from clearance.intent.shell.word import Word

    Payloads = Callable[[str, Statement, int], list[Unit]]
    Programs = Callable[[Statement, int, bool], tuple[list[Unit], list[PathToken]]]
    Scripts = Callable[[str, str | None, int], tuple[list[Unit], list[PathToken]] | None]
    Repository = Callable[[Finding, str | None, Sequence[PathToken]], Floor | None]

__all__ = ["Assembly"]

MAX_LAYERS = 4
# Variables that choose the repository git reads or its configuration (`GIT_DIR=x git log -p`).
_GIT_CHOOSERS = ("GIT_", "HOME", "XDG_CONFIG_HOME")
_INSPECT: list[Callable[[Sequence[Word]], Finding | None]] = []  # hazards.inspect, once loaded


def _load_inspect() -> Callable[[Sequence[Word]], Finding | None]:
    from clearance.intent.shell.hazards import inspect

    _INSPECT[:] = [inspect]
    return inspect


_SCRIPT: list[Callable[[str, Sequence[Word], Layer], str | None]] = []  # literal_script, loaded


def _load_script() -> Callable[[str, Sequence[Word], Layer], str | None]:
    from clearance.intent.shell.script import literal_script  # only for a shell

    _SCRIPT[:] = [literal_script]
    return literal_script


def _git_directory(base: str | None, chdirs: Sequence[str]) -> str | None:
    """Where git runs after its ``-C`` options, each relative to the one before (``None``: not
    known)."""
    where = base
    for step in chdirs:
        if where is None or step[:1] == "~":
            return None
        where = os.path.normpath(os.path.join(where, step))
    return where


def _shows_stash(finding: Finding) -> bool:
    """``git stash show``/``list``: a stash subcommand that changes nothing git holds."""
    return finding.printed is not None and finding.printed[0][1:2] in (("show",), ("list",))


class Assembly:
    """Collects units and tokens for one command line (or one payload)."""

    __slots__ = (
        "cdpath",
        "concurrent",
        "depth",
        "exists",
        "home",
        "home_ok",
        "line",
        "made",
        "paths",
        "payloads",
        "programs",
        "project",
        "repository",
        "scripts",
        "tokens",
        "units",
        "variables",
    )

    def __init__(
        self,
        home: str,
        home_ok: bool,
        exists: Callable[[str], bool],  # never raises
        payloads: Payloads,
        programs: Programs,
        *,
        project: bool = True,
        depth: int = 0,
        cdpath: bool = False,
        scripts: Scripts | None = None,
        line: Line | None = None,
        repository: Repository | None = None,
    ) -> None:
        self.home = home
        self.repository = repository  # the floor of git's repository, from where it runs
        self.scripts = scripts  # reads a shell's literal script as typed commands, or None
        self.cdpath = cdpath  # CDPATH may be set: `cd name` may not go to ./name
        self.home_ok = home_ok
        self.exists = exists
        self.payloads = payloads  # parses a literal opaque payload into units
        self.programs = programs  # parses program text found outside the tree (heredocs)
        self.project = project  # payload units project no paths and get no spellings
        self.depth = depth
        self.units: list[Unit] = []
        # The variables set earlier in the line that change what later commands run.
        self.variables = Variables(home, exists)
        # Links, copies and written files of earlier statements (shared with nested parses).
        self.line = line if line is not None else Line()
        self.variables.top = self.line.top
        # The path tokens, projected by the Projection it owns (the same list).
        paths = self.paths = Projection(home, home_ok, exists, self.line, project)
        self.tokens = paths.tokens
        self.made: list[tuple[str | None, str | None]] = []  # this statement's, recorded after
        # What statements running at once with others ran and wrote, met at the end.
        self.concurrent: Concurrent | None = None

    def _git_landings(
        self, finding: Finding, stmt: Statement, base: str | None, command: str
    ) -> Floor | None:
        """The names a git command writes into the work tree from what git holds, listed by
        git and projected as written tokens, else the floor of names not known (ADR 0051)."""
        from clearance.intent.shell import git_landings

        assert finding.work_tree is not None
        args, relocated = finding.work_tree
        planned = git_landings.plan(args)
        if planned is None:
            return None
        where = _git_directory(base, finding.chdirs)
        top = work_tree_top(where, self.exists) if where is not None else None
        own = top if where == base else work_tree_top(base, self.exists) if base else None
        moved = any(v.partition("=")[0] in ("--git-dir", "--work-tree") for v in relocated)
        if moved and where is not None:
            top = where  # git finds the top itself (--work-tree, or here for --git-dir)
        why = None
        if any(v.endswith("=") for v in relocated):
            why = "runs git on a repository or work tree it is not given"
        elif elements(stmt.scope):
            why = "runs git at once with other commands, which may change what it writes"
        elif stmt.assigns or self.variables.names:
            why = "runs git with variables the line sets"
        elif self.line.git_changed or self.line.overflow:
            why = "runs git after an earlier git command of the line that may change what it writes"
        elif where is None:
            why = "runs git where clearance cannot know the directory"
        elif top is None and args[0] == "apply":
            top = where  # no repository: `git apply` patches as `patch` does, from here
        elif top is None:
            if "GIT_DIR" not in os.environ and "GIT_WORK_TREE" not in os.environ:
                return None  # no work tree here: git writes none
            why = "runs git on the repository GIT_DIR or GIT_WORK_TREE names"
        elif any(p is None or (p + "/").startswith(top.rstrip("/") + "/.git/")
                 for p, _ in self.line.written):  # fmt: skip
            why = "runs git after an earlier statement of the line writes where git reads from"
        elif args[0] == "apply" and self.line.written:
            why = "runs git apply after an earlier statement of the line may write the patch"
        if why is not None or where is None or top is None:
            return git_landings.floor(why or "runs git")
        avoid = (base or "", own or "", self.line.top or "")  # never a git the agent put there
        if isinstance(planned, tuple):  # not listed, if there is a repository to write from
            return git_landings.confirm(planned, where, top, relocated, avoid, args[0])
        return git_landings.land(self.paths, planned, where, top, command, relocated, avoid)

    def _git_printed(
        self, finding: Finding, stmt: Statement, base: str | None, command: str, changed: bool
    ) -> Floor | None:
        """The files a git command prints from what git holds, listed by git and projected as
        read tokens, else the floor of files not known (ADR 0056)."""
        from clearance.intent.shell import git_landings, git_printed

        assert finding.printed is not None
        args, relocated = finding.printed
        planned = git_printed.plan(args)
        if planned is None:
            return None
        where = _git_directory(base, finding.chdirs)
        if where is not None and not relocated and not self._repository_above(where):
            # git finds no repository: it prints nothing, but `git diff a b` compares the two
            # paths as diff(1) does
            for operand in () if isinstance(planned, tuple) else planned.operands:
                self.paths.value(operand, operand, where, command, "read", "syntax", True)
            return None
        if isinstance(planned, tuple):
            return planned
        if where is None and not planned.lists:
            return None  # notes only, somewhere not known: the repository's own floor (ADR 0040)
        why = None
        if any(v.endswith("=") for v in relocated):
            why = "runs git on a repository or work tree it is not given"
        elif any(n.startswith(_GIT_CHOOSERS) for n, _ in stmt.assigns or ()):
            why = "runs git with variables that choose its repository or configuration"
        elif changed or self.line.overflow:
            why = "runs git after an earlier git command of the line that may change what it prints"
        elif where is None:
            why = "runs git where clearance cannot know the directory"
        if why is not None or where is None:
            return git_printed.floor(why or "runs git")
        top = work_tree_top(where, self.exists)
        own = top if where == base else work_tree_top(base, self.exists) if base else None
        self.line.printed.append(command)
        avoid = (base or "", own or "", self.line.top or "")  # never a git the agent put there
        return git_landings.printed(self.paths, planned, where, top or where, command,
                                    relocated, avoid)  # fmt: skip

    def _repository_above(self, where: str) -> bool:
        """Whether git may find a repository from ``where``: a ``.git`` with a ``HEAD`` (or a
        ``.git`` file, a link to one), a bare repository's ``HEAD``, in it or above it, or the
        environment naming one. (git passes over a ``.git`` that is no repository.)"""
        if "GIT_DIR" in os.environ or "GIT_WORK_TREE" in os.environ:
            return True
        exists = self.exists
        probe = where.rstrip("/") or "/"
        while True:
            dot = probe.rstrip("/") + "/.git"
            if exists(dot + "/HEAD") or exists(probe.rstrip("/") + "/HEAD"):
                return True
            if exists(dot) and not os.path.isdir(dot):
                return True  # `gitdir: …`
            parent = probe.rpartition("/")[0] or "/"
            if parent == probe:
                return False
            probe = parent

    # -- statements -----------------------------------------------------------------------

    def _exports(self, stmt: Statement) -> bool:
        """Whether ``export`` only sets and exports variables no program or shell reads for
        meaning, or a search path of directories the agent does not fill: ``NAME=value`` or
        ``NAME`` words, no option (``-f`` exports a function, ``-n``…), at least one (a bare
        ``export`` prints the environment, secrets with it)."""
        from clearance.intent.shell.hazards.variables import ordinary_variable

        items = typed_items(stmt.text)  # `export` first: the caller saw the text begin so
        if len(items) < 2:
            return False
        for item in items[1:]:
            target, eq, value = item.partition("=")
            if not target.isidentifier() or not target.isascii():
                return False
            if ordinary_variable(target):
                continue
            if target not in SEARCH_PATH_VARIABLES or not eq:
                return False
            if self.variables.fills_search_path(value, stmt):
                return False
        return True

    def add(self, stmt: Statement) -> None:
        kind = stmt.kind
        base = base_of(stmt)
        first = len(self.line.written)
        if kind == "simple":
            self._simple(stmt, base)
        elif kind == "nested":
            units, tokens = self.programs(stmt, self.depth, self.project)
            self.units.extend(units)
            self.tokens.extend(tokens)
        elif kind == "redirects":
            self.paths.redirects(stmt, base)
            self.paths.arguments(stmt.words, base, stmt.text, "unproven", "unproven")
        else:
            exemption: Exemption | None = None
            if kind == "plain":
                self._declares(stmt)
                if stmt.assigns:
                    from clearance.intent.shell.hazards.variables import ordinary_variable

                    typed = typed_assignments(stmt.text)
                    if all(
                        ordinary_variable(name)
                        or (name in SEARCH_PATH_VARIABLES
                            and not any(self.variables.fills_search_path(value, stmt)
                                        for typed_name, eq, value in typed
                                        if typed_name == name or not eq))
                        for name, _ in stmt.assigns
                    ):  # fmt: skip
                        # `PID=$!`: sets only variables no program or shell reads for meaning;
                        # its substitutions are units of their own (docs/shell-analysis.md).
                        # `PATH="$HOME/.local/bin:$PATH"` too: a search path of directories
                        # the agent does not fill changes no command it names into another.
                        exemption = "assignment"
                elif stmt.text.startswith("export ") and self._exports(stmt):
                    exemption = "assignment"  # `export NODE_ENV=test`: as `NODE_ENV=test` is
            self.units.append(
                Unit(
                    stmt.text,
                    context=stmt.context,  # type: ignore[arg-type]
                    exemption=exemption,
                    unresolved=stmt.unresolved,
                    salvaged=stmt.salvaged,
                    floor=stmt.floor,
                )
            )
            if kind != "error":
                self.paths.redirects(stmt, base)
                self.paths.arguments(stmt.words, base, stmt.text, "unproven", "unproven")
                # Test operands, `for` lists and `case` subjects open no file: a computed one
                # is no unknown path. A test only looks at what it names (`[ -f x ]`, as
                # `test -f x`), and a list whose values the body's uses took is only read.
                effect: Effect = "read" if stmt.bound or kind == "test" else "unproven"
                self.paths.arguments(
                    stmt.operands, base, stmt.text, effect, "unproven", None, False
                )
        end = len(self.line.written)
        where = elements(stmt.scope) if end > first and stmt.scope.parent is not None else ()
        if where or (end > first and self.concurrent is not None and self.concurrent.detached):
            # What runs at once with an earlier statement may run what this one wrote.
            self._concurrent().wrote.append((first, end, where, len(self._concurrent().ran)))

    def _simple(self, stmt: Statement, base: str | None) -> None:
        words = stmt.words
        if not words:
            self.units.append(
                Unit(
                    stmt.text,
                    context=stmt.context,  # type: ignore[arg-type]
                    unresolved=stmt.unresolved,
                    salvaged=stmt.salvaged,
                    floor=stmt.floor,
                )
            )
            self.paths.redirects(stmt, base)
            return
        # `Sudo rm x`: a command word in another case may name the lower-case program.
        typed = None if stmt.text.islower() else fold(stmt, base)
        words = stmt.words
        top = len(self.units)
        self.paths.limited = False
        used, found = self._unit(words, stmt, stmt.context, base, 0)  # type: ignore[arg-type]
        self.paths.redirects(stmt, base)
        # The unit's peel already found the wrapper layer of these words (unless keywords
        # were dropped from their front): the projection reuses it.
        # `find -exec` on the entries it finds only walks its start points (names are read);
        # what its command does to each entry is judged on that command's own units.
        deep = self.units[top].exemption != "find-exec"
        start = len(self.tokens)
        # `ls | rg x`: the standard input of a pipeline's later element is the pipe.
        piped = stmt.scope.fed and all(r.keeps_stdin for r in stmt.redirects)
        self.paths.command_tokens(words, base, stmt.text, True, (found,) if used is words else None,
                                  deep, piped)  # fmt: skip
        if not deep:
            self.tokens[start:] = [t.replace(effect="read") for t in self.tokens[start:]]
        if typed is not None:  # not known to be the lower-case program: as typed too
            self.paths.command_tokens(typed, base, stmt.text, True)
        if self.made:
            self.tokens.extend(self.line.record(self.made, stmt.text))
        if self.paths.limited and self.units[top].floor is None:
            why = f"has a brace expansion of more than {brace.MAX_ALTERNATIVES} words"
            self.units[top] = self.units[top].replace(floor=(EXPANSION_LIMIT, why))
        if (cd := cd_words(words)) is not None:  # `cd x`, `builtin cd x`, `command cd x`
            fold_cd(cd, stmt, base, self.cdpath, self.paths.resolve, self.exists)

    def _unit(
        self,
        words: Sequence[Word],
        stmt: Statement,
        context: Context,
        base: str | None,
        level: int,
        launcher: str | None = None,
    ) -> tuple[Sequence[Word], Layer | None]:
        """Append the unit of ``words`` and those of its wrappers' inner commands; return the
        words the unit was made of and their wrapper layer. ``launcher``: the text of the
        launcher unit that runs ``words``, through any wrappers between (ADR 0041)."""
        words, lost = keywordless(words)
        # A simple statement's text is its words joined as typed (the walk builds it so).
        text = stmt.text if words is stmt.words else join(words)
        canonical = canonical_text(words, text)
        found = layer(words)
        if (
            found is not None
            and found.name in ("source", ".")
            and not found.stdin
            and self.home_ok
            and home_file(words)
        ):
            found = None  # `source ~/.nvm/nvm.sh`: a file under the home, read as typed paths are
        executed: str | None = None
        exemption: Exemption | None = None
        script = None
        script_at = 0  # the index of a shell's `-c` script among the words (0: none)
        if found is not None:  # a wrapper: follow its layers to the command it runs
            peeled = peel(words, stmt.writes, found)
            executed, exemption = peeled.executed, peeled.exemption
            if (
                found.kind == "opaque"
                and self.scripts is not None
                and self.depth < MAX_LAYERS
                and not stmt.assigns
                and not self.variables.names
            ):
                # `bash -lc 'cmd'`, `zsh -lc 'cmd'`: a literal script read as typed commands.
                literal_script = _SCRIPT[0] if _SCRIPT else _load_script()
                text_of = literal_script(basename(words[0].value or ""), words, found)
                if text_of is not None:
                    script_at = found.start or 0
                    script = self.scripts(text_of, base, self.depth + 1)
                    if script is not None:
                        launches = found.name in SCRIPT_LAUNCHERS
                        exemption = "launcher" if launches else "shell-script"
        on_entries = None  # `find . -name x -exec rm {} +` on what it finds (ADR 0043)
        if found is not None and found.name == "find" and self.project and found.kind != "opaque":
            on_entries = find_commands(words, found, base, self.line)
            exemption = "find-exec" if on_entries is not None else exemption
        first = found
        if stmt.time_subshell:
            first = None
            executed = None
            exemption = "execution-modifier"
        floor = stmt.floor if level == 0 else None
        again = None
        name = words[0].value
        if name in REREAD or name in LATER:
            from clearance.intent.shell import reeval  # only for the lines that need it
        if name in REREAD:
            again = reeval.command(words, stmt.redirects)
        if again and floor is None:
            floor = reeval.floor(again)  # a string it evaluates again as code
        if name in LATER and floor is None:
            floor = reeval.later(words)  # `fc` replays history, `enable -f` loads code
        if floor is None and name is not None and ("proc" in name or "/dev/" in name):
            floor = _through_process(name, base)  # `/proc/self/exe -c …` is the running shell
        if floor is None and words and words[0].glob:
            # `/usr/bin/touc[h] x`: bash expands the pattern against the disk and runs what it
            # names, which no rule written for the typed text speaks of
            floor = (COMPUTED, "runs a program whose name is a pattern bash expands first")
        if floor is None and self.project:
            floor = streamed(words, base, self.paths.expand)  # `source lnk`, lnk -> /dev/stdin
        if floor is None and (self.line.written or stmt.redirects):
            # What the line wrote before, and what its own redirects open first (`bash f >> f`).
            own = self.paths.redirect_writes(stmt, base) if stmt.redirects else []
            written = [*self.line.written, *own] if own else self.line.written
            if written:
                floor = runs_written(files_run(words, base, self.paths.expand), self.line, written)
        if floor is None and self.project and option_glob(words, base, self.line):
            floor = (CODE_RUNNING, "hands a pattern that may name an option to " + str(name))
        landed = None
        if self.project and name is not None:  # trees removed, names landed (ADR 0045)
            landed = landings(self.paths, self.made, words, base, text,
                              stdin_source(stmt.redirects) if stmt.redirects else None)  # fmt: skip
        extra: tuple[str, ...] = ()
        if self.project:
            extra = spellings(text, words, base, self.home, self.home_ok, self.exists, script_at)
        finding = None
        if name is not None and (basename(name) if "/" in name else name) in KNOWLEDGE:
            # The knowledge base loads only for the lines that need it, then stays.
            finding = (_INSPECT[0] if _INSPECT else _load_inspect())(words)
        git_before = self.line.git_changed
        if finding is not None:
            if finding.folded is not None:  # git's global options removed (docs/shell-analysis)
                extra = (*extra, canonical)
                canonical = finding.folded
            if floor is None:
                floor = finding.floor
            if floor is None and finding.program_files:
                from clearance.intent.shell.hazards.text import jq_file_floor

                floor = jq_file_floor(finding.program_files, base)
            if floor is None and finding.discovers and self.repository is not None:
                floor = self.repository(finding, base, self.tokens)  # ADR 0040
            if finding.work_tree is not None and self.project:
                if floor is None:
                    floor = self._git_landings(finding, stmt, base, text)
                self.line.git_changed = self.line.git_changed or not _shows_stash(finding)
            elif finding.discovers and finding.git_sub not in GIT_READ_ONLY:
                self.line.git_changed = True
        floor = floor or landed
        variable: tuple[Floor | None, str | None] = (None, None)
        if self.variables.names or stmt.assigns:
            variable = self.variables.floor(stmt, level)
            if floor is None:
                floor = variable[0]
        if finding is not None and finding.printed is not None and self.project and floor is None:
            floor = self._git_printed(finding, stmt, base, text, git_before)
        expanded = brace_command(words) if "{" in text else None
        if expanded is not None:  # `{rm,-rf,x}`, `/usr/bin/l{s,}`: the name is computed
            floor = floor or (COMPUTED, "runs a command whose name comes from a brace expansion")
        elif "{" in text:
            # `rm -rf /tmp/{x,../etc}`, `git push origin {+main,x}`: a rule is written for the
            # words bash passes, so they are a unit of their own as well (when all are known)
            expanded = brace_arguments(words)
        if not expanded and "/." in text and not GLOB_MARKS.isdisjoint(text):
            expanded = dotdot_arguments(words)
        self.units.append(
            unit(
                text,
                canonical,
                context,
                "indirection" if stmt.time_subshell else first.kind if first else None,
                executed,
                exemption,
                stmt.unresolved or lost,
                stmt.salvaged,
                extra,
                floor,
                argv(words, text),
                launcher,
            )
        )
        where = elements(stmt.scope) if floor is None and stmt.scope.parent is not None else ()
        if where:  # what runs at once with it may write what it runs (never the outermost shell)
            self._concurrent().run(len(self.units) - 1, words, base, where)
        if again and self.depth < MAX_LAYERS:
            self._rerun(again, stmt)
        if name == "history" and self.depth < MAX_LAYERS:
            stored = reeval.history(words)  # what a later `fc` runs: a deny on it applies
            if stored:
                self.units.extend(self.payloads(stored, stmt, self.depth + 1))
        if finding is not None:
            from clearance.intent.shell.hazards.effects import effects  # loaded with the base

            effects(self, finding, stmt, base)
        if variable[1] is not None and self.depth < MAX_LAYERS:
            self.units.extend(self.payloads(variable[1], stmt, self.depth + 1))
        if expanded:  # the command bash runs, when every word is known: its rule applies
            self.units.append(
                Unit(expanded, canonical=expanded_canonical(expanded), context=context,
                     unresolved=stmt.unresolved or lost, salvaged=stmt.salvaged, floor=floor,
                     argv=tuple(expanded.split(" ")))
            )  # fmt: skip
        if first is None:
            return words, found
        if script is not None:
            runs = text if exemption == "launcher" else launcher  # what a launcher runs
            self.units.extend(u if u.launcher or not runs else u.replace(launcher=runs)
                              for u in script[0])  # fmt: skip
            self.tokens.extend(script[1])
            return words, found
        if first.kind == "opaque":
            payload = first.payload
            if payload is None and first.stdin:
                payload = stdin_text(stmt.redirects)  # `bash <<< 'rm x'`, `bash -s <<EOF`
            if payload is not None and self.depth < MAX_LAYERS:
                self.units.extend(self.payloads(payload, stmt, self.depth + 1))
            return words, found
        inner = first.inner(words)
        if not inner:
            return words, found
        if first.name == "xargs" and self.project and not names_only(inner):
            # xargs hands its input to the inner command as operands: files no one can see
            # here (`ls -a | xargs cat` reads `.env`). They are unknown paths, which ask where a
            # path rule could match them; an inner command that prints only names or counts
            # (`xargs grep -l x`, `xargs wc -l`) shows no content of them.
            effect: Effect = "read" if reader_claim(inner) == "read" else "unproven"
            self.tokens.append(PathToken(XARGS_INPUT, None, effect, "computed", text))
        if level < MAX_LAYERS and inner[0].raw[:1] != "-":
            runs = text if exemption == "launcher" else launcher  # what a launcher runs
            self._unit(inner, stmt, "wrapped", base, level + 1, runs)
        for run in on_entries or ():  # what `find -exec` runs on each entry it finds
            self._unit(run, stmt, "wrapped", base, level + 1)
            self.paths.command_tokens(run, base, join(run), True)
        if first.name in OPAQUE_LINE and self.depth < MAX_LAYERS:
            # watch/parallel/rush hand their arguments to a shell as one command line.
            values = [w.value for w in inner]
            if all(v is not None for v in values):
                line = " ".join(values)  # type: ignore[arg-type]
                if line != join(inner):
                    self.units.extend(self.payloads(line, stmt, self.depth + 1))
        return words, found

    def _concurrent(self) -> Concurrent:
        if self.concurrent is None:
            self.concurrent = Concurrent()
        return self.concurrent

    def finish(self) -> None:
        """Floor the units that run a file a statement running at once with them may write."""
        if self.concurrent is None or not self.concurrent.ran or not self.concurrent.wrote:
            return
        for index, floor in self.concurrent.floors(self.line, self.paths.expand):
            if self.units[index].floor is None:
                self.units[index] = self.units[index].replace(floor=floor)

    def _rerun(self, found: list[reeval.Finding], stmt: Statement) -> None:
        """The code a string evaluated again runs, as payload units (so a deny still fires)."""
        from clearance.intent.shell import reeval

        for finding in found[: reeval.MAX_FINDINGS]:
            for text, sure in reeval.inner_code(finding):
                units = self.payloads(text, stmt, self.depth + 1)
                self.units.extend(units if sure else [u.replace(unresolved=True) for u in units])

    def _declares(self, stmt: Statement) -> None:
        """Record the variables an assignment or declaration statement sets that change what
        later commands run, and parse the command lines their values hold as payloads."""
        for payload in self.variables.declares(stmt):
            if self.depth < MAX_LAYERS:
                self.units.extend(self.payloads(payload, stmt, self.depth + 1))


def _through_process(name: str, base: str | None) -> Floor | None:
    """The floor of a command word that passes through a process's own links (``/proc/self/exe``
    is the program of the process that runs it: the shell; ``/proc/<pid>/root/…``): what runs
    is not the name typed."""
    from clearance.intent.shell.token import absolute, passes_process

    if "/" not in name:
        return None
    path = absolute(name, base) if name[:1] != "/" else name
    if path is None:
        return None
    if path.startswith(("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/")):
        return (COMPUTED, "runs the file open on a descriptor (`/dev/stdin < f` runs f), "
                          "which is not the name typed")  # fmt: skip
    if not passes_process(path):
        return None
    return (COMPUTED, "runs a program named through a process's own links (/proc/self/exe is "
                      "the shell that runs the line), which is not the name typed")  # fmt: skip
