"""Launchers: programs that prepare an environment, then run the command their arguments name
(ADR 0041, docs/shell-analysis.md, "What is seen through").

* Their command after their own options: ``uv run``, ``uv tool run``, ``uvx``, ``npx``,
  ``bunx``/``bun x``, ``npm exec``/``npm x``, ``pnpm exec``, ``pnpm dlx``, ``pnpx``,
  ``yarn exec``, ``yarn dlx``,
  ``poetry run``, ``pipenv run``, ``bundle exec``, ``conda``/``mamba``/``micromamba run``,
  ``mise exec``/``mise x`` (after ``--``), ``direnv exec DIR``, ``nix develop``/``nix shell``
  with ``-c``/``--command``, ``perf stat``/``perf record``/``perf trace``, ``watchexec``.
  ``npx foo``, ``uvx foo``, ``pnpm dlx foo`` fetch the package ``foo`` and run its program of
  that name: the inner command is ``foo …`` as typed.
* A shell string: ``npx -c``, ``npm exec --call``, ``pnpm exec -c``/``--shell-mode``,
  ``mise exec -c``, ``nodemon --exec``, ``hyperfine`` (every command it times, prepares or
  cleans up with, one a line): ``opaque`` with that payload; ``hyperfine``'s (one command, without
  ``-S`` or ``-N``) and ``nix-shell --run``'s are read as typed commands
  (:data:`SCRIPT_LAUNCHERS`).

Each launcher's own options are an exact getopt grammar: an option not listed, a computed word
before the command, or one that moves the directory the command runs in (``uv run
--directory``, ``conda run --cwd``, ``npm --prefix``) leaves the layer without an inner command,
so the unit keeps its indirection floor.
"""

from __future__ import annotations

from clearance.intent.shell.layer import Layer
from clearance.intent.shell.options import Grammar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["LAUNCHERS", "SCRIPT_LAUNCHERS", "launcher"]

# Launchers whose shell string is a whole script run by bash or sh as typed: it is read as typed
# commands, as `bash -c '…'` is (`nix-shell --run`, from `runners`; `hyperfine` without -S/-N).
SCRIPT_LAUNCHERS = frozenset({"hyperfine", "nix-shell"})

# Which launchers there are (their grammars are built on first use: most lines meet none).
_DIRECT_NAMES = frozenset({"uvx", "npx", "pnpx", "bunx"})
_SUB_NAMES = frozenset({"uv", "npm", "pnpm", "yarn", "poetry", "pipenv", "bundle", "bundler"}
                       | {"conda", "mamba", "micromamba", "perf", "bun"})  # fmt: skip
LAUNCHERS = _DIRECT_NAMES | _SUB_NAMES | {"mise", "rtx", "direnv", "nix", "watchexec"}
LAUNCHERS |= {"nodemon", "hyperfine"}
Tables = tuple[dict[str, Grammar], dict[str, tuple[Grammar, dict[str, Grammar]]], Grammar]
_TABLES: list[Tables] = []


def _tables() -> Tables:
    """The grammars: of the launchers whose command follows their options, of those with a
    launching subcommand (the options before it, then per subcommand), and of watchexec."""
    if _TABLES:
        return _TABLES[0]
    uv = Grammar(
        "qvnUs",
        "pPC",
        refuse="m",  # `-m`: runs a module, not the operand as a program
        long_flags="quiet verbose offline no-cache native-tls no-config no-progress isolated "
        "no-sync locked frozen active all-extras no-dev dev only-dev all-groups "
        "no-default-groups no-editable exact no-env-file no-project script gui-script upgrade "
        "reinstall no-build no-binary no-index no-sources compile-bytecode no-build-isolation "
        "refresh managed-python no-managed-python no-python-downloads",
        long_values="python cache-dir config-file project color extra no-extra group no-group "
        "only-group env-file with with-editable with-requirements package index index-url "
        "extra-index-url default-index find-links index-strategy keyring-provider resolution "
        "prerelease fork-strategy exclude-newer upgrade-package reinstall-package link-mode "
        "python-preference refresh-package config-setting allow-insecure-host from",
        long_refuse="directory module",  # `--directory` moves where the command runs
    )
    npm = Grammar(
        "yq",
        "pw",
        refuse="cC",
        long_flags="yes no quiet ignore-existing workspaces include-workspace-root",
        long_values="package workspace registry cache userconfig loglevel",
        long_refuse="call prefix",
    )
    pnpm = Grammar(
        "rsq",
        "F",
        refuse="cC",
        long_flags="recursive silent parallel no-bail report-summary workspace-root "
        "reporter-hidden",
        long_values="filter resume-from package allow-build reporter",
        long_refuse="shell-mode dir",
    )
    yarn = Grammar("q", "p", long_flags="quiet", long_values="package")
    poetry = Grammar("qvnh", "P", refuse="C", long_flags="quiet verbose no-interaction ansi "
                     "no-ansi no-plugins no-cache", long_values="project",
                     long_refuse="directory")  # fmt: skip
    pipenv = Grammar("qv", "", long_flags="quiet verbose system", long_values="python pypi-mirror")
    bundle = Grammar("", "", long_flags="keep-file-descriptors", long_values="gemfile")
    conda = Grammar("vq", "np", long_flags="live-stream no-capture-output dev "
                    "debug-wrapper-scripts quiet verbose", long_values="name prefix",
                    long_refuse="cwd")  # fmt: skip
    perf = Grammar(
        "aBdgnqv",
        "eCGmoprtux",
        long_flags="all-cpus no-inherit null scale verbose quiet per-socket per-core per-thread "
        "big-num no-big-num",
        long_values="event repeat pid tid cpu output field-separator cgroup call-graph delay "
        "freq mmap-pages uid",
        long_refuse="append",
    )
    watchexec = Grammar(
        "cnNpqrv",
        "defiosw",
        long_flags="restart no-vcs-ignore no-project-ignore no-global-ignore "
        "no-default-ignore no-discover-ignore postpone notify quiet verbose bell "
        "no-process-group no-meta",
        long_values="exts filter ignore watch watch-non-recursive debounce signal stop-signal "
        "stop-timeout delay-run on-busy-update shell project-origin filter-file ignore-file "
        "emit-events-to",
        long_refuse="workdir",
    )
    bun = Grammar("", "p", long_flags="bun silent verbose", long_values="package")
    direct = {"uvx": uv, "npx": npm, "pnpx": pnpm, "bunx": bun}
    subs: dict[str, tuple[Grammar, dict[str, Grammar]]] = {
        "uv": (uv, {"run": uv}),
        "npm": (npm, {"exec": npm, "x": npm}),
        "pnpm": (pnpm, {"exec": pnpm, "dlx": pnpm}),
        "yarn": (yarn, {"exec": yarn, "dlx": yarn}),
        "poetry": (poetry, {"run": poetry}),
        "pipenv": (pipenv, {"run": pipenv}),
        "bundle": (bundle, {"exec": bundle}),
        "bundler": (bundle, {"exec": bundle}),
        "conda": (conda, {"run": conda}),
        "mamba": (conda, {"run": conda}),
        "micromamba": (conda, {"run": conda}),
        "perf": (perf, {"stat": perf, "record": perf, "trace": perf}),
        "bun": (bun, {"x": bun}),
    }
    _TABLES.append((direct, subs, watchexec))
    return _TABLES[0]


# The options whose value is a shell command line.
_SHELL_STRING = frozenset({"-c", "--call", "--shell-mode", "--command"})
_HYPERFINE_COMMANDS = frozenset({"-s", "--setup", "-p", "--prepare", "-c", "--cleanup",
                                 "--conclude"})  # fmt: skip
_HYPERFINE_VALUES = {"-w": 1, "--warmup": 1, "-m": 1, "--min-runs": 1, "-M": 1, "--max-runs": 1,
                     "-r": 1, "--runs": 1, "-P": 3, "--parameter-scan": 3, "-D": 1,
                     "--parameter-step-size": 1, "-L": 2, "--parameter-list": 2, "-S": 1,
                     "--shell": 1, "-u": 1, "--time-unit": 1, "--export-asciidoc": 1,
                     "--export-csv": 1, "--export-json": 1, "--export-markdown": 1,
                     "--export-orgmode": 1, "--style": 1, "--sort": 1, "-n": 1,
                     "--command-name": 1, "--output": 1, "--input": 1}  # fmt: skip


def launcher(name: str, values: Sequence[str | None]) -> Layer | None:
    """The layer of the launcher command ``values`` (``name``: its basename), or ``None`` when
    it launches nothing (``uv sync``, ``npm test``, ``perf list``)."""
    count = len(values)
    if name in _DIRECT_NAMES:
        return _after(name, _tables()[0][name], values, 1)
    if name in _SUB_NAMES:
        before, subs = _tables()[1][name]
        at = before.inner(values)
        if at is None or values[at] is None:
            # Options not read, or a computed subcommand: whatever runs is not known.
            known = [v for v in values[1:] if v is not None]
            if len(known) == count - 1 and not subs.keys() & set(known):
                return None
            return Layer("indirection", name, None, count)
        sub = values[at]
        if name == "uv" and sub == "tool" and at + 1 < count and values[at + 1] == "run":
            return _after(name, before, values, at + 2)  # uv's grammar
        if sub not in subs:
            return None
        return _after(name, subs[sub], values, at + 1)
    if name in ("mise", "rtx"):
        if count < 2 or values[1] not in ("exec", "x"):
            return None
        shell = _shell_option(name, values, 2)
        if shell is not None:
            return shell
        for i in range(2, count):
            value = values[i]
            if value is None or value.startswith(("-C", "--cd")):
                break  # a computed word, or the directory the command runs in moved
            if value == "--":
                return Layer("indirection", name, i + 1 if i + 1 < count else None, count)
        return Layer("indirection", name, None, count)
    if name == "direnv":
        if count < 2 or values[1] != "exec":
            return None
        return Layer("indirection", name, 3 if count > 3 else None, count)
    if name == "nix":
        if count < 2 or values[1] not in ("develop", "shell"):
            return None
        for i in range(2, count):
            if values[i] is None:
                break
            if values[i] in ("-c", "--command"):
                return Layer("indirection", name, i + 1 if i + 1 < count else None, count)
        return Layer("indirection", name, None, count)  # an interactive shell
    if name == "watchexec":
        return _after(name, _tables()[2], values, 1)
    if name == "nodemon":
        for i in range(1, count):
            if values[i] in ("-x", "--exec") and i + 1 < count:
                return Layer("opaque", name, i + 1, i + 2, values[i + 1])
        return None  # runs node on a script
    return _hyperfine(values)


def _after(name: str, grammar: Grammar, values: Sequence[str | None], start: int) -> Layer | None:
    """The command after a launcher's own options from ``start``, or a shell string option;
    ``None`` when only literal options follow (``npx --version``, ``uv run --help``)."""
    shell = _shell_option(name, values, start)
    if shell is not None:
        return shell
    if all(v is not None and v[:1] == "-" and v != "--" for v in values[start:]):
        return None
    return Layer("indirection", name, grammar.inner(values, start), len(values))


def _shell_option(name: str, values: Sequence[str | None], start: int) -> Layer | None:
    """``npx -c 'cmd'``, ``pnpm exec --shell-mode 'cmd'``, ``--call=cmd``: a shell string."""
    for i in range(start, len(values)):
        value = values[i]
        if value is None or value == "--" or value[:1] != "-":
            return None
        option, eq, rest = value.partition("=")
        if option in _SHELL_STRING and name not in ("nix", "watchexec", "perf"):
            if eq:
                return Layer("opaque", name, i, i + 1, rest)
            at = i + 1
            payload = values[at] if at < len(values) else None
            return Layer("opaque", name, at if payload is not None else None, at + 1, payload)
    return None


def _hyperfine(values: Sequence[str | None]) -> Layer:
    """Every command ``hyperfine`` runs through a shell, one a line, as one payload."""
    commands: list[str] = []
    count = len(values)
    i = 1
    complete = True
    shell = False  # another shell, or none: the strings are not read as bash reads them
    while i < count:
        value = values[i]
        if value is not None and value[:1] == "-" and value != "-":
            option, eq, rest = value.partition("=")
            shell = shell or option in ("-S", "--shell", "-N", "--shell=none")
            if option in _HYPERFINE_COMMANDS:
                found = rest if eq else (values[i + 1] if i + 1 < count else None)
                complete = complete and found is not None
                commands.append(found or "")
                i += 1 if eq else 2
                continue
            i += 1 if eq else 1 + _HYPERFINE_VALUES.get(option, 0)
            continue
        complete = complete and value is not None
        commands.append(value or "")
        i += 1
    payload = "\n".join(commands) if complete and commands else None
    # One command is a script `sh -c` runs as typed; several are not one script (a heredoc or
    # a quote one opens would swallow the next), so they stay floored.
    script = payload is not None and not shell and len(commands) == 1
    return Layer("opaque", "hyperfine", 1 if script else None, count, payload)
