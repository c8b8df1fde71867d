"""Environment variables that make a program load or run code, whatever the program.

:data:`VARIABLES` names them with their source, :data:`COMMAND_VARIABLES` those whose value is a
command line, :data:`SHELL_VARIABLES` those the shell itself reads; :func:`hazardous_variable`,
:func:`ordinary_variable` and :func:`variable_payload` are what the assembly asks.
"""

from __future__ import annotations

from clearance.intent.path import normal_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "COMMAND_VARIABLES",
    "SHELL_VARIABLES",
    "VARIABLES",
    "hazardous_variable",
    "import_path_moot",
    "ordinary_variable",
    "search_path_hazard",
    "variable_payload",
]

# Variables that make a program load or run code, whatever the program (ld.so(8), bash(1)
# INVOCATION and Shell Variables, git(1) ENVIRONMENT, less(1) INPUT PREPROCESSOR, man(1)
# ENVIRONMENT, node(1), python(1), perlrun(1), ruby(1), tar(1) TAR_OPTIONS, rsync(1),
# make(1) MAKEFLAGS; gtfobins: env, git, less, man).
VARIABLES: dict[str, str] = {
    "LD_PRELOAD": "ld.so(8)",
    # The name a backup takes (cp/mv/ln/install -b): `.claude/settings` backed up as
    # `.claude/settings.json`, a file clearance protects.
    "SIMPLE_BACKUP_SUFFIX": "cp(1), mv(1), ln(1), install(1) --backup",
    "VERSION_CONTROL": "cp(1), mv(1), ln(1), install(1) --backup",
    "LD_LIBRARY_PATH": "ld.so(8)",
    "LD_AUDIT": "ld.so(8)",
    "BASH_ENV": "bash(1) INVOCATION",
    "ENV": "bash(1) INVOCATION, sh(1)",
    # zsh reads its start-up files from $ZDOTDIR, and runs $NULLCMD / $READNULLCMD for a
    # statement of redirections only (`< a.sh` runs `$READNULLCMD < a.sh`)
    "ZDOTDIR": "zsh(1) STARTUP/SHUTDOWN FILES",
    "NULLCMD": "zshparam(1) PARAMETERS USED BY THE SHELL",
    "READNULLCMD": "zshparam(1) PARAMETERS USED BY THE SHELL",
    "SHELLOPTS": "bash(1) Shell Variables",
    "BASHOPTS": "bash(1) Shell Variables",
    "PROMPT_COMMAND": "bash(1) Shell Variables",
    # PS4 is not here: bash runs it only under `set -x`, and reeval.py reads its value.
    "PAGER": "git-var(1), man(1); gtfobins: git, man",
    "MANPAGER": "man(1) ENVIRONMENT",
    "MANOPT": "man(1) ENVIRONMENT",
    "BROWSER": "man(1) --html",
    "EDITOR": "git-var(1), crontab(1)",
    "VISUAL": "git-var(1), crontab(1)",
    "LESSOPEN": "less(1) INPUT PREPROCESSOR; gtfobins: less",
    "LESSCLOSE": "less(1) INPUT PREPROCESSOR",
    "LESS": "less(1) OPTIONS (+cmd)",
    "LESSKEYIN": "lesskey(1)",
    "NODE_OPTIONS": "node(1) ENVIRONMENT (--require)",
    "PYTHONSTARTUP": "python(1) ENVIRONMENT",
    "PYTHONPATH": "python(1) ENVIRONMENT",
    "PYTHONHOME": "python(1) ENVIRONMENT",
    "PYTHONINSPECT": "python(1) ENVIRONMENT",
    "PERL5OPT": "perlrun(1) ENVIRONMENT",
    "PERL5LIB": "perlrun(1) ENVIRONMENT",
    "PERLLIB": "perlrun(1) ENVIRONMENT",
    "PERL5DB": "perlrun(1) ENVIRONMENT",
    "RUBYOPT": "ruby(1) ENVIRONMENT",
    "RUBYLIB": "ruby(1) ENVIRONMENT",
    "GIT_PAGER": "git(1) ENVIRONMENT",
    "GIT_EDITOR": "git(1) ENVIRONMENT",
    "GIT_SEQUENCE_EDITOR": "git(1) ENVIRONMENT",
    "GIT_EXTERNAL_DIFF": "git(1) ENVIRONMENT",
    "GIT_SSH": "git(1) ENVIRONMENT",
    "GIT_SSH_COMMAND": "git(1) ENVIRONMENT",
    "GIT_ASKPASS": "git(1) ENVIRONMENT",
    "SSH_ASKPASS": "ssh(1) ENVIRONMENT",
    "GIT_PROXY_COMMAND": "git-config(1) core.gitProxy",
    "GIT_EXEC_PATH": "git(1) ENVIRONMENT",
    "GIT_TEMPLATE_DIR": "git-init(1) TEMPLATE DIRECTORY (hooks)",
    "GIT_CONFIG": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_GLOBAL": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_SYSTEM": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_PARAMETERS": "git(1) (how git passes -c to its children)",
    "GIT_CONFIG_COUNT": "git-config(1) ENVIRONMENT",
    "GIT_DIR": "git(1) ENVIRONMENT (the repository's config and hooks)",
    "TAR_OPTIONS": "tar(1) ENVIRONMENT",
    "RSYNC_RSH": "rsync(1) ENVIRONMENT",
    "RSYNC_CONNECT_PROG": "rsync(1) ENVIRONMENT",
    "APT_CONFIG": "apt.conf(5) (a file of items that may name commands apt runs)",
    "RESTIC_PASSWORD_COMMAND": "restic(1) ENVIRONMENT",
    "RESTIC_FROM_PASSWORD_COMMAND": "restic-copy(1) ENVIRONMENT",
    "RCLONE_PASSWORD_COMMAND": "rclone(1) (--password-command)",
    "RCLONE_SFTP_SSH": "rclone(1) (--sftp-ssh: every flag has an RCLONE_ variable)",
    "RCLONE_WEBDAV_BEARER_TOKEN_COMMAND": "rclone(1) (--webdav-bearer-token-command)",
    "BORG_RSH": "borg(1) ENVIRONMENT",
    "BORG_PASSCOMMAND": "borg(1) ENVIRONMENT",
    "BORG_REMOTE_PATH": "borg(1) ENVIRONMENT",
    "PSQL_PAGER": "psql(1) ENVIRONMENT",
    "MAKEFLAGS": "make(1) (--eval)",
    "ZIPOPT": "zip(1) ENVIRONMENT",
    "CURL_HOME": "curl(1) (.curlrc: remote-name-all and output-dir choose the names written)",
    "WGETRC": "wget(1) Wgetrc Location (dir_prefix, output_document, trust_server_names)",
    "SYSTEM_WGETRC": "wget(1) Wgetrc Location",
    # The names a decompressor or patch writes (ADR 0052): a suffix, a backup's name.
    "XZ_OPT": "xz(1) ENVIRONMENT (--suffix)",
    "XZ_DEFAULTS": "xz(1) ENVIRONMENT (--suffix)",
    "GZIP": "gzip(1) ENVIRONMENT (older versions take any option: -S, -N)",
    "BZIP2": "bzip2(1) ENVIRONMENT",
    "BZIP": "bzip2(1) ENVIRONMENT",
    "PATCH_VERSION_CONTROL": "patch(1) ENVIRONMENT (the names of backups)",
    "XDG_CONFIG_HOME": "git-config(1) FILES",
    "HOME": "git-config(1) FILES (~/.gitconfig: core.fsmonitor, core.pager), every dotfile",
    "GIT_WORK_TREE": "git(1) ENVIRONMENT (the files git reads and writes as the work tree)",
    "GIT_INDEX_FILE": "git(1) ENVIRONMENT (a file git rewrites)",
    "GIT_OBJECT_DIRECTORY": "git(1) ENVIRONMENT",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES": "git(1) ENVIRONMENT",
    "GIT_COMMON_DIR": "git(1) ENVIRONMENT (the repository's config and hooks)",
    "RIPGREP_CONFIG_PATH": "rg(1) CONFIGURATION FILES (each line an argument: --pre=CMD)",
    "GREP_OPTIONS": "grep(1) ENVIRONMENT (BSD grep: options placed first, -r, -f FILE)",
    "GCONV_PATH": "iconv_open(3), glibc gconv-modules (shared objects a conversion loads)",
    "OPENSSL_CONF": "config(5ssl) (engines and providers: shared objects OpenSSL loads)",
    "OPENSSL_MODULES": "provider(7ssl) (the directory providers are loaded from)",
    "OPENSSL_ENGINES": "engine(3) (the directory engines are loaded from)",
    # The toolchains the built-in policy lets report their version (`java --version` …).
    "JAVA_TOOL_OPTIONS": "JVM TI (-javaagent, -agentlib:jdwp=…,address=HOST: a debugger)",
    "JDK_JAVA_OPTIONS": "java(1) Using the JDK_JAVA_OPTIONS Launcher Environment Variable",
    "_JAVA_OPTIONS": "HotSpot (read as JAVA_TOOL_OPTIONS is: -Xlog:…:file=F writes F)",
    "GNUMAKEFLAGS": "make(1) Options/Recursion (--eval runs $(shell …), even for --version)",
    "MAKEFILES": "make(1) The Variable MAKEFILES (makefiles read first)",
    "NODE_PATH": "node(1) ENVIRONMENT (where modules are loaded from)",
    "NODE_REPL_EXTERNAL_MODULE": "node(1) ENVIRONMENT (a module loaded as the REPL)",
    "NODE_V8_COVERAGE": "node(1) ENVIRONMENT (a directory written on exit)",
    "NODE_REDIRECT_WARNINGS": "node(1) ENVIRONMENT (a file written)",
    "NODE_COMPILE_CACHE": "node(1) ENVIRONMENT (a directory written)",
    "PYTHONUSERBASE": "python(1) ENVIRONMENT (its site-packages' .pth files run)",
    "PYTHONWARNINGS": "python(1) -W (a category names a module to import)",
    "PYTHONBREAKPOINT": "python(1) ENVIRONMENT (a callable imported by breakpoint())",
    "PYTHONPYCACHEPREFIX": "python(1) ENVIRONMENT (a directory written)",
    "PYTHONPLATLIBDIR": "python(1) ENVIRONMENT (where extension modules are loaded from)",
    "GOFLAGS": "go(1) Environment variables (-toolexec=CMD)",
    "GOBIN": "go(1) Environment variables (where go install writes its programs)",
    "GOPATH": "go(1) Environment variables (go install writes to $GOPATH/bin)",
    "GEM_HOME": "gem(1) (where gems are installed)",
    "PIP_TARGET": "pip(1) Environment Variables (--target: the packages' names in a directory)",
    "PIP_PREFIX": "pip(1) Environment Variables (--prefix)",
    "PIP_ROOT": "pip(1) Environment Variables (--root)",
    "PIP_SRC": "pip(1) Environment Variables (--src)",
    "PIP_CONFIG_FILE": "pip(1) Configuration (a file of settings: target, prefix)",
    "CARGO_INSTALL_ROOT": "cargo-install(1) (where programs are installed)",
    # Where a tool puts what it builds or installs, and its settings file (ADR 0053).
    "CARGO_TARGET_DIR": "cargo(1) ENVIRONMENT (--target-dir)",
    "UV_TOOL_DIR": "uv, Environment variables (where tools are installed)",
    "UV_TOOL_BIN_DIR": "uv, Environment variables (where tools' programs are installed)",
    "UV_PROJECT_ENVIRONMENT": "uv, Environment variables (the virtual environment uv sync writes)",
    "UV_INSTALL_DIR": "uv, Environment variables (where uv installs itself)",
    "UV_PYTHON_INSTALL_DIR": "uv, Environment variables (where Python versions are installed)",
    "UV_CONFIG_FILE": "uv, Environment variables (a file of settings)",
    "VIRTUAL_ENV": "uv pip (the environment it installs into)",
    "PIPX_HOME": "pipx(1) (where applications are installed)",
    "PIPX_BIN_DIR": "pipx(1) (where their programs are linked)",
    "DENO_INSTALL_ROOT": "deno install (where launchers are written)",
    "PNPM_HOME": "pnpm (where global packages' programs are written)",
    "BUN_INSTALL": "bun (where global packages are installed)",
    "YARN_YARN_PATH": "yarn, Settings (yarnPath: a file yarn runs as itself)",
    "YARN_RC_FILENAME": "yarn, Settings (the settings file read)",
    "YARN_GLOBAL_FOLDER": "yarn, Settings (where global packages are installed)",
    "COMPOSER_HOME": "composer, Environment (where global packages and settings are)",
    "PIP_LOG": "pip(1) --log (a file appended to)",
    "PIP_LOG_FILE": "pip(1) --log-file (a file appended to)",
    "PIP_DEST": "pip download --dest",
    "PIP_WHEEL_DIR": "pip wheel --wheel-dir",
    "PIP_CACHE_DIR": "pip(1) --cache-dir",
    "UV_CACHE_DIR": "uv, Environment variables (--cache-dir)",
    "XDG_BIN_HOME": "uv tool (where tools' programs are written)",
    "XDG_DATA_HOME": "uv tool, pipx (where tools are installed)",
    "XDG_CACHE_HOME": "the XDG base directories (where caches are written)",
    "GOCACHE": "go(1) Environment variables (the build cache written)",
    "GOMODCACHE": "go(1) Environment variables (the module cache written)",
    "DENO_DIR": "deno (its cache directory)",
    "YARN_CACHE_FOLDER": "yarn, Settings (its cache directory)",
    "TMPDIR": "mktemp(1), tempfile (where temporary files are made)",
    "BUNDLE_PATH": "bundle-config(1) (where gems are installed)",
    "BUNDLE_BIN": "bundle-config(1) (where gems' programs are written)",
    "GOTOOLCHAIN": "go(1) Go toolchains (a toolchain fetched and run)",
    "GOPROXY": "go(1) Module proxy (where a toolchain is fetched from)",
    "GOSUMDB": "go(1) Checksum database (off: a fetched toolchain is not verified)",
    "GONOSUMDB": "go(1) Checksum database",
    "GOPRIVATE": "go(1) Checksum database",
    "GOINSECURE": "go(1) Environment variables",
    "GOENV": "go(1) Environment variables (a file of settings)",
    "GOROOT": "go(1) Environment variables (the toolchain run)",
    "RUSTC_WRAPPER": "cargo(1) ENVIRONMENT (a program run in place of rustc)",
    "CARGO_HOME": "cargo(1) ENVIRONMENT (config.toml, and the proxies rustup runs)",
}
# GIT_*: git(1) ENVIRONMENT and the variables its code reads (GIT_TRACE=~/.bashrc appends to
# the file; GIT_TEST_FSMONITOR is the fsmonitor hook, a shell command, when core.fsmonitor is
# unset), but for the few in INERT_VARIABLES. PYENV_*: pyenv's shims source the hooks of
# PYENV_HOOK_PATH and run the version PYENV_VERSION names. RUSTUP_*: rustup runs the toolchain
# RUSTUP_TOOLCHAIN names (a directory too) and fetches one from RUSTUP_DIST_SERVER. COREPACK_*,
# npm_config_*: corepack's shims fetch the package manager they run from the registry these
# name; npm reads its settings (script-shell, node-options) from them.
_VARIABLE_PREFIXES = (
    "LD_", "DYLD_", "GIT_", "PYENV_", "RUSTUP_", "CARGO_BUILD_", "COREPACK_",
)  # fmt: skip
_NPM_PREFIX = "npm_config_"  # npm matches it in any case
# Variables under those prefixes that name only data a program prints or records. (Not the
# pathspec ones: GIT_ICASE_PATHSPECS changes which files a listing of ADR 0051 or 0056 names.)
INERT_VARIABLES = frozenset(
    {
        "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS",
        "GIT_FLUSH", "GIT_NO_REPLACE_OBJECTS", "GIT_MERGE_VERBOSITY",
        "GIT_MERGE_AUTOEDIT", "GIT_REFLOG_ACTION", "GIT_PROGRESS_DELAY", "GIT_ADVICE",
        "GIT_LFS_SKIP_SMUDGE", "GIT_DIFF_OPTS",
    }
)  # fmt: skip

# Variables whose value is a command line (its literal value is parsed as a payload).
COMMAND_VARIABLES = frozenset(
    {
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "PROMPT_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "GIT_PROXY_COMMAND",
        "LESSOPEN",
        "LESSCLOSE",
        "RSYNC_RSH",
        "RSYNC_CONNECT_PROG",
        "BROWSER",
        "RESTIC_PASSWORD_COMMAND",
        "RESTIC_FROM_PASSWORD_COMMAND",
        "RCLONE_PASSWORD_COMMAND",
        "RCLONE_SFTP_SSH",
        "RCLONE_WEBDAV_BEARER_TOKEN_COMMAND",
        "BORG_RSH",
        "BORG_PASSCOMMAND",
        "BORG_REMOTE_PATH",
        "PSQL_PAGER",
    }
)


def search_path_hazard(value: str | None, home: str, inside: Callable[[str], bool]) -> bool:
    """Whether the search path ``value`` (as typed, quotes around it allowed; ``None`` when not
    known) may hold a directory the agent fills: an entry that is empty or relative (the
    working directory), computed (other than ``$PATH`` itself and a ``$HOME``/``~`` prefix),
    or ``inside`` the project (or under ``/proc`` or ``/dev``, which name it again)."""
    if value is None:
        return True
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    for entry in value.split(":"):
        if entry in ("$PATH", "${PATH}"):
            continue
        for prefix in ("~/", "$HOME/", "${HOME}/"):
            if entry.startswith(prefix) and home:
                entry = home.rstrip("/") + "/" + entry[len(prefix) :]
                break
        if entry[:1] != "/" or any(c in entry for c in "$`\\\"'*?[{(") or inside(entry):
            return True
        if normal_path(entry).startswith(("/proc/", "/dev/")):
            return True  # `/proc/self/cwd`, `/dev/fd/3`: the working directory, an open one
    return False


def hazardous_variable(name: str) -> bool:
    return (
        name in VARIABLES
        or (name.startswith(_VARIABLE_PREFIXES) and name not in INERT_VARIABLES)
        or name[: len(_NPM_PREFIX)].lower() == _NPM_PREFIX
    )


# Variables the shell itself reads (bash(1) Shell Variables, zshparam(1) PARAMETERS USED BY THE
# SHELL, with zsh's lower-case arrays tied to them, and zsh's hook function arrays): assigning
# one changes which program a name runs (PATH, path), how later words split, glob or expand
# (IFS, GLOBIGNORE, LC_COLLATE), where `cd` goes, or what the shell runs and reads on its own
# (PS1, TMOUT, MAILPATH, STTY, chpwd_functions).
SHELL_VARIABLES = frozenset(
    {
        "PATH", "path", "CDPATH", "cdpath", "FPATH", "fpath", "MODULE_PATH", "module_path",
        "MANPATH", "manpath", "MAILPATH", "mailpath", "MAIL", "MAILCHECK", "HOME", "IFS",
        "ENV", "GLOBIGNORE", "FIGNORE", "fignore", "EXECIGNORE", "SHELLOPTS", "POSIXLY_CORRECT",
        "FUNCNEST", "OPTIND", "OPTARG", "OPTERR", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT",
        "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPS1", "RPROMPT2", "RPS2", "psvar",
        "PROMPT_COMMAND", "TMOUT", "TMPDIR", "TMPPREFIX", "TIMEFORMAT", "TIMEFMT", "INPUTRC",
        "HOSTFILE", "histchars", "auto_resume", "LANG", "TERM", "TERMINFO", "COLUMNS", "LINES",
        "SHELL", "NULLCMD", "READNULLCMD", "STTY", "ZDOTDIR", "KEYTIMEOUT", "WORDCHARS",
        "REPORTTIME", "REPORTMEMORY", "WATCH", "watch", "LOGCHECK", "SAVEHIST", "DIRSTACKSIZE",
        "CORRECT_IGNORE", "CORRECT_IGNORE_FILE", "SPROMPT", "PWD", "OLDPWD", "RANDOM",
        "SECONDS", "LINENO", "EPOCHREALTIME", "EPOCHSECONDS", "SRANDOM", "UID", "EUID",
        "GROUPS", "REPLY", "MATCH", "MBEGIN", "MEND", "match", "mbegin", "mend", "argv",
        "status", "pipestatus", "PIPESTATUS", "ARGV0", "ZLE_RPROMPT_INDENT", "PERIOD",
        "DIRSTACK", "dirstack", "LANGUAGE", "chpwd_functions", "precmd_functions",
        "preexec_functions", "periodic_functions", "zshaddhistory_functions",
        "zshexit_functions", "GLOBSORT",
        "_",  # the last word of the command before: `$_` is not what was assigned
    }
)  # fmt: skip
_SHELL_PREFIXES = ("BASH", "LC_", "HIST", "COMP", "READLINE", "ZSH", "ZLE", "TRAP", "POSIX")


# Variables that only add directories Python imports from.
IMPORT_PATH_VARIABLES = frozenset({"PYTHONPATH"})
_PYTHONS = frozenset({"python", "python3"})
_PYTESTS = frozenset({"pytest", "py.test"})
_PYTEST_QUIET = frozenset({"--version", "-V", "--help", "-h"})
_PYTHON_VALUED = frozenset("WXQ")  # python(1): -W arg, -X opt, -Q arg (Python 2)


def import_path_moot(name: str, values: Sequence[str | None]) -> bool:
    """Whether setting ``name`` for the command ``values`` (its words, ``None`` where
    computed) gives it no code to run that it does not run already: ``name`` only adds where
    Python imports from, and the command runs Python code the line chooses, which can import
    from anywhere: ``python -c CODE``, ``python -m MODULE`` (found in the working directory
    first), ``pytest`` and ``python -m pytest`` (the project's ``conftest.py`` and tests; not
    ``pytest --version``, which loads neither).
    A program that runs only its own code (``mypy``, ``python FILE``) gains the directory's
    ``sitecustomize.py``: not moot."""
    if name not in IMPORT_PATH_VARIABLES or not values or values[0] is None:
        return False
    program = values[0].rsplit("/", 1)[-1]
    if program in _PYTESTS:
        # but `pytest --version`, which loads no conftest.py: Python still imports a
        # sitecustomize.py from the path
        return not any(v is None or v in _PYTEST_QUIET for v in values[1:])
    if program not in _PYTHONS and not (program.startswith("python3.") and program[8:].isdigit()):
        return False
    skip = False
    for value in values[1:]:
        if skip:
            skip = False
            continue
        if value is None or value[:1] != "-" or value in ("-", "--"):
            return False  # a script, standard input, or a word not known
        if value[1:2] == "-":
            continue  # --version, --help …: no code (and nothing runs `--`-spelled code)
        letters = value[1:]
        for at, letter in enumerate(letters):
            if letter in "cm":
                return True  # -c CODE, -m MODULE (the rest of the cluster is their value)
            if letter in _PYTHON_VALUED:
                skip = at + 1 == len(letters)
                break
    return False


def ordinary_variable(name: str) -> bool:
    """Whether assigning ``name`` changes nothing but the variable: neither the shell nor a
    program reads it for code, paths or how to parse (``PID``, ``out``, ``i``)."""
    return not (
        hazardous_variable(name) or name in SHELL_VARIABLES or name.startswith(_SHELL_PREFIXES)
    )


def variable_payload(name: str, value: str | None) -> str | None:
    """The command line a literal value of a command-valued variable runs, if any."""
    if name not in COMMAND_VARIABLES or not value:
        return None
    if name.startswith("LESS"):
        value = value.lstrip("|-")  # `|cmd %s`, `||cmd %s`, `-cmd`
    return value.strip() or None
