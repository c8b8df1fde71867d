"""The command names whose units the assembly looks at more closely, apart from the modules
that look (``hazards``, ``reeval``): a line that names none of them imports neither, which
keeps a cold bash check lean. ``tests/intent/shell/test_hazards.py`` checks that these sets
are exactly the keys those modules know.
"""

from __future__ import annotations

__all__ = [
    "DERIVED",
    "DERIVED_BY_WORD",
    "DIRECTORY_TOOLS",
    "GIT_READ_ONLY",
    "GIT_WORK_TREE_WRITERS",
    "KNOWLEDGE",
    "LATER",
    "NODE_COMMANDS",
    "NODE_DIRECTORIES",
    "NODE_OTHERS",
    "NODE_WORDS",
    "PACKAGE_MANAGERS",
    "PYTHONS",
    "REREAD",
    "SEARCH_PATH_VARIABLES",
    "VIM_NAMES",
    "derived_name",
    "rereads",
]

# vim under the names its builds and front ends are installed as (Debian's alternatives).
VIM_NAMES = frozenset(
    {"vim", "vi", "nvim", "view", "vimdiff", "rvim", "ex", "vim.basic", "vim.tiny", "vim.nox"}
    | {"vim.gtk", "vim.gtk3", "vim.athena", "gvim", "gview", "evim", "eview", "rview", "rgvim"}
    | {"rgview", "nvi", "elvis", "vile"}
)
# Compressors that write each operand's name with a suffix beside it (gzip(1) -S, xz(1) …), and
# the suffix each appends by default.
COMPRESSORS = {"gzip": ".gz", "pigz": ".gz", "xz": ".xz", "lzma": ".lzma", "bzip2": ".bz2",
               "zstd": ".zst"}  # fmt: skip
# hazards.PROGRAMS: programs with options or commands that run code, read or write files.
KNOWLEDGE = frozenset(
    {"git", "rg", "sed", "gsed", "awk", "gawk", "mawk", "nawk", "busybox-awk", "tar", "gtar"}
    | {"bsdtar", "zip", "rsync", "split", "man"}
    | VIM_NAMES
    | {"ssh", "scp", "sftp", "make", "gmake", "find", "env", "setarch", "linux32"}
    | {"linux64", "i386", "x86_64", "newgrp", "curl", "dd", "sort", "ed", "less", "more"}
    | {"setpriv", "dbus-run-session", "faketime", "run-parts", "jq", "date", "sqlite3"}
    | {"strings", "objdump", "nm", "readelf", "size", "c++filt", "addr2line"}
    | {"bash", "sh", "dash", "zsh", "ksh", "rbash", "mksh", "ksh93", "yash", "posh"}
    | {"apt", "apt-get", "apt-cache", "dpkg", "install", "restic", "rclone", "borg", "psql"}
    | {"mysql", "mariadb"}
    | frozenset(COMPRESSORS)
)
# reeval.COMMANDS: simple commands whose arguments bash may read again as code.
REREAD = frozenset(
    {"test", "[", "let", "printf", "read", "wait", "unset", "alias", "mapfile", "readarray"}
    | {"getopts", "set", "shopt"}
    | {"hash", "declare", "typeset", "local", "readonly", "export"}
)
# reeval.LATER: builtins that run code the line does not show (`fc`, `enable -f`), and the
# `history -s` that stores it.
LATER = frozenset({"fc", "enable", "history"})
# git_landings: git subcommands that write files of the work tree (or remove them) from what
# git holds, listed or floored there (ADR 0051); and those that change neither the refs, the
# index nor the objects a later git command of the same line writes the work tree from.
GIT_WORK_TREE_WRITERS = frozenset(
    {"checkout", "switch", "restore", "reset", "stash", "merge", "cherry-pick", "revert"}
    | {"clean", "apply", "rm", "mv", "pull", "rebase", "am", "read-tree", "checkout-index"}
    | {"clone"}
    | {"worktree", "submodule", "sparse-checkout", "bisect", "mergetool", "merge-recursive"}
    | {"merge-resolve", "merge-octopus", "merge-subtree", "merge-ours"}
)
GIT_READ_ONLY = frozenset(
    {"status", "diff", "log", "show", "ls-files", "ls-tree", "rev-parse", "describe", "blame"}
    | {"grep", "shortlog", "cat-file", "rev-list", "show-ref", "reflog", "help", "version"}
    | {"whatchanged", "name-rev", "merge-base", "for-each-ref", "count-objects", "var"}
)

# git subcommands that may print files from git's store (`git show`, `git log -p`; ADR 0056).
GIT_PRINTERS = frozenset(
    {"diff", "show", "log", "whatchanged", "reflog", "cat-file", "stash", "format-patch", "grep"}
    | {"range-diff", "diff-tree", "diff-index", "diff-files", "fast-export", "archive", "bundle"}
)

# derived.NAMES: programs that write files under names they derive themselves (a decompressor,
# a download, a patch, a copy from another machine; ADR 0052). Those of DERIVED_BY_WORD are
# looked at only when one of their words (or a computed word) is there: the subcommand that
# copies or checks out, the library module that extracts (`python3 -m zipfile -e a.zip .`).
_COPY = frozenset({"cp"})
DERIVED_BY_WORD: dict[str, frozenset[str]] = {
    "docker": _COPY,
    "podman": _COPY,
    "kubectl": _COPY,
    "oc": _COPY,
    "aws": frozenset({"cp", "sync", "mv"}),
    "gsutil": frozenset({"cp", "rsync", "mv"}),
    "gcloud": frozenset({"cp", "rsync", "mv"}),
    "rclone": frozenset({"copy", "sync", "move", "copyto", "moveto", "copyurl", "bisync"}),
    "azcopy": frozenset({"copy", "cp", "sync"}),
    "svn": frozenset({"checkout", "co", "export", "update", "up", "switch", "sw", "merge"}),
    "hg": frozenset({"clone", "pull", "update", "up", "checkout", "co", "merge", "unbundle"}),
    "bzr": frozenset({"branch", "checkout", "co", "pull", "update", "merge", "export"}),
    "fossil": frozenset({"open", "update", "checkout", "co", "clone", "merge"}),
    "s3cmd": frozenset({"get", "sync"}),
}
# The commands of npm, pnpm, yarn and bun by what they write (ADR 0053): every alias they take
# (npm's cmd-list: `isntall`, `it`, `innit`, `create`, `c`) and every prefix of two letters or
# more of a command's name, which npm takes as an abbreviation (`npm ins`, `npm conf`).
_NODE_NAMES = {
    "install": ("install", "add", "ci", "clean-install", "install-clean", "isntall-clean",
                "install-test", "install-ci-test", "update", "upgrade", "udpate", "uninstall",
                "remove", "unlink", "link", "dedupe", "prune", "global", "import"),
    "init": ("init", "create", "innit"),
    "config": ("config",),
    "set": ("set", "policies", "plugin"),  # yarn's `policies set-version`, `plugin import`
    "pack": ("pack",),
    "setup": ("setup",),  # pnpm's: its directory added to the shell's start-up files
}  # fmt: skip
_NODE_ALIASES = {
    "i": "install", "in": "install", "isnt": "install", "isnta": "install", "isntal": "install",
    "isntall": "install", "ic": "install", "it": "install", "cit": "install", "up": "install",
    "un": "install", "rm": "install", "r": "install", "ln": "install", "ddp": "install",
    "c": "config",
}  # fmt: skip
NODE_COMMANDS: dict[str, str] = {}
for _kind, _names in _NODE_NAMES.items():
    for _full in _names:
        for _end in range(2, len(_full) + 1):
            NODE_COMMANDS.setdefault(_full[:_end], _kind)
NODE_COMMANDS.update(_NODE_ALIASES)
# Their other commands, which write none of those (a word before the command that is none of
# these is an option's value: `npm --loglevel warn config set`).
NODE_OTHERS = frozenset(
    {"run", "run-script", "rum", "urn", "exec", "x", "test", "tst", "t", "start", "stop"}
    | {"restart", "ls", "list", "la", "ll", "pkg", "view", "v", "info", "show", "outdated"}
    | {"audit", "fund", "version", "help", "publish", "unpublish", "login", "logout", "whoami"}
    | {"search", "doctor", "explain", "why", "cache", "completion", "owner", "team", "token"}
    | {"org", "access", "adduser", "bugs", "docs", "home", "repo", "edit", "explore", "hook"}
    | {"prefix", "root", "bin", "rebuild", "rb", "shrinkwrap", "star", "stars", "unstar"}
    | {"deprecate", "dist-tag", "diff", "query", "sbom", "ping", "get", "find-dupes", "dlx"}
    | {"store", "env", "patch", "patch-commit", "workspaces", "workspace", "check", "build"}
    | {"dev", "lint", "serve", "preview", "format", "typecheck", "licenses", "node"}
)
NODE_WORDS = frozenset(NODE_COMMANDS) | NODE_OTHERS
# The directories a node package manager writes into on any command (its cache, its logs, its
# store and global folders), by their long options.
NODE_DIRECTORIES = frozenset(
    {"--cache", "--logs-dir", "--global-dir", "--global-bin-dir", "--global-folder"}
    | {"--modules-folder", "--virtual-store-dir", "--store-dir", "--cache-folder", "--cache-dir"}
    | {"--modules-dir", "--install-directory"}
)
_INSTALLS = frozenset({"install", "i", "add", "ci", "pack", "download", "wheel", "sync"}) | {
    "config", "c", "set", "init", "venv", "vendor", "--cache-dir", "--directory", "--project"
}  # fmt: skip
for _manager in ("pip", "pip3"):
    DERIVED_BY_WORD[_manager] = _INSTALLS
DERIVED_BY_WORD["uv"] = _INSTALLS | {"build", "--install-dir", "--bin-dir"}
DERIVED_BY_WORD["gem"] = _INSTALLS | {"unpack"}
for _manager in ("npm", "pnpm", "yarn", "bun"):
    DERIVED_BY_WORD[_manager] = frozenset(_INSTALLS | NODE_COMMANDS.keys() | NODE_DIRECTORIES)
# The library modules that write (`-m pip`), also as `-m pip.__main__` and `-m runpy pip`.
_MODULES = ("zipfile", "tarfile", "gzip", "pip", "venv", "virtualenv", "ensurepip")
PYTHONS = frozenset({"python", "python3", "python2", "pypy", "pypy3"})
for _python in PYTHONS:
    DERIVED_BY_WORD[_python] = frozenset(
        {*_MODULES, *(m + ".__main__" for m in _MODULES), "runpy", "runpy.__main__"}
    )
# A directory a tool is told to put what it builds or installs in (ADR 0053); go's settings.
DERIVED_BY_WORD["cargo"] = frozenset({"install", "new", "init", "--root", "--target-dir"}) | {
    "--artifact-dir", "--out-dir", "vendor", "-C", "--config"
}  # fmt: skip
DERIVED_BY_WORD["deno"] = frozenset({"install", "i", "init", "--root"})
DERIVED_BY_WORD["go"] = frozenset({"env", "vendor"})
DERIVED_BY_WORD["poetry"] = frozenset({"new"})
DERIVED_BY_WORD["bundle"] = frozenset({"install", "--path", "--binstubs"})
for _conda in ("conda", "mamba", "micromamba"):
    DERIVED_BY_WORD[_conda] = frozenset({"create", "install", "update", "env"})
DERIVED = (
    frozenset({"gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "pbzip2", "lbzip2"})
    | {"xz", "unxz", "lzma", "unlzma", "pixz", "pxz", "zstd", "unzstd", "zstdmt", "lz4"}
    | {"unlz4", "lzip", "plzip", "lunzip", "lzop", "brotli", "unbrotli", "compress"}
    | {"uncompress", "curl", "wget", "wget2", "aria2c", "axel", "http", "https", "xh", "xhs"}
    | {"patch", "scp", "sftp", "lftp", "ftp", "tftp", "smbclient", "unison", "jar", "ar"}
    | {"cabextract", "uudecode", "unsquashfs", "dpkg-deb", "dpkg", "lha", "lhasa", "arj"}
    | {"unarj", "unace", "aunpack", "atool", "dtrx", "unp", "xar", "bsdcpio", "ptar", "gpgtar"}
    | {"pzstd", "lz4c", "ptargrep", "gpg-zip", "install", "ginstall", "lwp-download", "split"}
    | {"gsplit", "csplit", "gcsplit"}
    | {"mktemp", "virtualenv", "composer", "corepack"}
    | DERIVED_BY_WORD.keys()
)


# A package manager's own script, as node runs it (`node …/npm-cli.js`, `yarn.js`).
_NODE_SCRIPTS = {"npm-cli.js": "npm", "pnpm.cjs": "pnpm", "pnpm.js": "pnpm", "yarn.js": "yarn"}
_NODE_SCRIPTS |= {"yarn.cjs": "yarn", "corepack.js": "corepack"}


# The package managers and toolchains of ADR 0053, whose options name where they write, and
# with the interpreters (`-m venv`, `-m pip`) the programs whose command and directories are
# words bash may expand (a brace list, a pattern): they are read as the words bash passes.
PACKAGE_MANAGERS = frozenset(
    {"npm", "pnpm", "yarn", "bun", "corepack", "pip", "pip3", "uv", "virtualenv", "cargo"}
    | {"deno", "go", "poetry", "conda", "mamba", "micromamba", "bundle", "gem", "composer"}
)
DIRECTORY_TOOLS = PACKAGE_MANAGERS | PYTHONS
_VERSIONED = frozenset({"npm", "pnpm", "yarn", "corepack"})  # `npx npm@10 …`


def derived_name(name: str) -> str | None:
    """The name of :data:`DERIVED` that ``name`` (a basename) runs as: itself, ``ar`` for a
    toolchain's archiver (``gcc-ar``, ``llvm-ar-14``, ``x86_64-linux-gnu-ar``, ``gar``), a Python
    interpreter by its version (``python3.12``); else ``None``."""
    if name in DERIVED:
        return name
    if name in _NODE_SCRIPTS:
        return _NODE_SCRIPTS[name]
    if "@" in name and name.partition("@")[0] in _VERSIONED:
        return name.partition("@")[0]
    if name.endswith("-ar") or name.startswith("llvm-ar") or name == "gar":
        return "ar"
    if name.startswith("pip") and name[3:].lstrip("-").replace(".", "").isdigit():
        return "pip"  # pip3.11, pip-3
    stem = name.rstrip("0123456789.")
    if stem != name and stem in DERIVED_BY_WORD and stem.startswith(("python", "pypy")):
        return stem
    return None


# Variables that choose the file a command name runs (bash(1) COMMAND EXECUTION; zsh's `path`
# array mirrors PATH): a directory the agent fills put on them makes an allowed name (`ls`) run
# its file, `PATH=bin ls` (hazards.variables.search_path_hazard judges the value).
SEARCH_PATH_VARIABLES = frozenset({"PATH", "path"})

_MARKERS = ("$(", "`", "${", "$'")


def rereads(text: str) -> bool:
    """Whether ``text`` may hold a string bash re-reads as code, hidden from the parse: a quote
    or backslash and one of the markers, or the name of a variable bash runs. Cheap: the walk
    asks once per line, and imports ``reeval`` only when this says yes."""
    if "PS" in text or "BASH_" in text or "PROMPT_COMMAND" in text:
        return True  # a prompt string, or the alias or command table, may be set
    if "((" in text or "-v" in text or "[" in text:
        return True  # arithmetic, a subscript, a `[[ ]]` comparison, a test (its -v computed)
    if "${" in text and ":" in text:
        return True  # `${s:OFFSET}`: the offset is arithmetic
    if "'" not in text and "\\" not in text:
        return False
    return any(marker in text for marker in _MARKERS)
