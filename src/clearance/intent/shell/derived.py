"""Names a program derives itself: what a decompressor, a download, a patch or a copy from
another machine writes, where the line names no file (docs/shell-analysis.md, "Names a program
derives"; ADR 0052).

``gunzip .claude/settings.json.gz`` writes ``.claude/settings.json``; ``curl -O URL`` and
``wget URL`` write the last segment of the URL's path; ``patch -p1 < fix.diff`` writes the
files the patch names; ``scp host:settings.json .claude/`` writes ``.claude/settings.json``.
No word of those lines is the protected path, so :func:`derive` gives the names each writes,
for :mod:`~clearance.intent.shell.trees` to project as written tokens. Where the name is the
server's, the other machine's or a file's that clearance does not read (``curl -J``,
``wget -r``, ``scp -r``, ``svn checkout``, ``gunzip -N``), it says why, and the unit carries the
floor :data:`~clearance.intent.sentinel.UNLISTED_NAMES`.

Names are over-approximated where the program's own rule has variants (the suffixes a
decompressor strips, a URL's query kept or not, every number of leading directories a patch may
strip): a name too many is a token the protected rules meet harmlessly; a name missed is a hole.
For the same reason an option is listed as taking a value only where every version agrees: one
listed wrongly would hide the operand after it.
"""

from __future__ import annotations

import functools
import os

from clearance.intent.shell.names import DERIVED_BY_WORD, PYTHONS
from clearance.intent.shell.options import spells
from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterable, Sequence

    from clearance.intent.shell.line import Line

    Values = Sequence[str | None]
    # The absolute names written; or why they are not known (a sentence); or None: none.
    Derived = list[str] | str | None
    Deriver = Callable[[str, Values, str | None, Line], Derived]
    # What standard input is: ("file", the word of `< FILE`), ("text", a heredoc's or
    # here-string's text), or None (a pipe, or what the line inherits).
    Stdin = tuple[str, str] | None

__all__ = ["MAX_PATCH_BYTES", "NAMES", "Removed", "derive"]

MAX_PATCH_BYTES = 16 << 20  # a larger patch file is not read
_GLOB = frozenset("*?[")


def derive(
    name: str, values: Values, base: str | None, line: Line, stdin: Stdin = None
) -> Derived | Removed:
    """The names ``name`` (a basename of :data:`NAMES`) writes given ``values`` (its words
    after the name) in ``base``; :class:`Removed`: the trees whose every file it replaces."""
    if name == "patch":
        return _patch(values, base, line, stdin)
    return _DERIVERS[name](name, values, base, line)


# -- options -------------------------------------------------------------------------------


class _Parsed:
    """A command's words split into options (``(name, value)``) and operands. ``shorts``:
    the letters that take a value (attached, or the next word); ``longs``: the long options
    that take one (``--x=v``, ``--x v``), also when abbreviated to a prefix of one of them
    (getopt takes any unique prefix; a program that does not refuses the word). Any other
    option is a flag; an unknown long option that does take a value leaves it among the
    operands, which over-approximates."""

    __slots__ = ("computed", "computed_option", "flags", "operands", "options")

    def __init__(self, values: Values, shorts: str, longs: frozenset[str]) -> None:
        self.options: list[tuple[str, str | None]] = []
        self.flags: set[str] = set()
        self.operands: list[str | None] = []
        self.computed = False
        self.computed_option = False  # a computed word before `--`: it may be an option
        i, count, ended = 0, len(values), False
        while i < count:
            value = values[i]
            i += 1
            if value is None:
                self.computed = True
                self.computed_option = self.computed_option or not ended
                self.operands.append(None)
                continue
            if ended or value[:1] != "-" or value == "-":
                self.operands.append(value)
                continue
            if value == "--":
                ended = True
                continue
            if value[:2] == "--":
                key, eq, given = value.partition("=")
                if key not in longs:
                    prefixed = [long for long in longs if spells(key, long)]
                    key = prefixed[0] if len(prefixed) == 1 else key
                if key in longs:
                    if eq:
                        self.options.append((key, given))
                    else:
                        self.options.append((key, values[i] if i < count else None))
                        i += 1
                else:
                    self.flags.add(key)
                continue
            for j in range(1, len(value)):
                letter = value[j]
                if letter in shorts:
                    rest = value[j + 1 :]
                    if rest:
                        self.options.append(("-" + letter, rest))
                    else:
                        self.options.append(("-" + letter, values[i] if i < count else None))
                        i += 1
                    break
                self.flags.add("-" + letter)

    def has(self, *names: str) -> bool:
        """Whether one of ``names`` is given, a long one also as a prefix of it (``--decomp``):
        for the options that make a program write, where a name too many errs safe."""
        if any(k in names for k, _ in self.options):
            return True
        return any(
            n in self.flags or (n[:2] == "--" and any(spells(f, n) for f in self.flags))
            for n in names
        )

    def exactly(self, *names: str) -> bool:
        """Whether one of ``names`` is given as spelled: for the options that make a program
        write nothing, where an abbreviation (which may be another option's) does not count."""
        return any(n in self.flags for n in names) or any(k in names for k, _ in self.options)

    def values_of(self, *names: str) -> list[str | None]:
        return [v for k, v in self.options if k in names]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _place(value: str | None, base: str | None) -> str | None:
    return None if value is None else absolute(value, base)


def _into(directory: str, leaf: str) -> str:
    return directory.rstrip("/") + "/" + leaf if directory != "/" else "/" + leaf


def _beneath(directories: Sequence[str | None], base: str | None, computed: bool = False
             ) -> Derived:  # fmt: skip
    """``DIR/*`` for each of ``directories`` (ADR 0053): what a tool puts there under names
    of its own; why not, when one (or a word of the line: ``computed``) is not known."""
    places = [None if d is None or not _GLOB.isdisjoint(d) else _place(d, base)
              for d in directories]  # fmt: skip
    if computed or None in places:
        return "writes into a computed directory"
    return [_into(p, "*") for p in places if p is not None] or None


def _is_directory(value: str, where: str) -> bool:
    return value.endswith("/") or value in (".", "..") or os.path.isdir(where)


# -- decompressors: the operand less its suffix -----------------------------------------------

# name: (letters taking a value, long options taking one, decompresses without -d)
_SQUEEZERS: dict[str, tuple[str, frozenset[str], bool]] = {}
for _names, _shorts, _longs in (
    (("gzip", "gunzip", "pigz", "unpigz"), "Sbp", "--suffix --blocksize --processes"),
    (("bzip2", "bunzip2", "pbzip2", "lbzip2"), "", ""),
    (
        ("xz", "unxz", "lzma", "unlzma", "pixz", "pxz"),
        "STFCM",
        "--suffix --threads --format "
        "--check --memlimit --memlimit-compress --memlimit-decompress --memory --block-size "
        "--block-list --filters --files --files0",
    ),
    (
        ("zstd", "unzstd", "zstdmt"),
        "oD",
        "--output-dir-flat --output-dir-mirror --filelist --patch-from --trace --format --memory",
    ),
    (("lz4", "unlz4", "lz4c"), "", ""),
    (("lzip", "plzip", "lunzip"), "oBms", "--output --data-size --match-length --member-size"),
    (("lzop",), "oS", "--output --suffix"),
    (("brotli", "unbrotli"), "oSqwD", "--output --suffix --quality --lgwin --dictionary"),
    (("compress", "uncompress"), "b", ""),
):
    for _name in _names:
        _always = _name.startswith("un") or _name in ("gunzip", "bunzip2", "lunzip")
        _SQUEEZERS[_name] = (_shorts, _words(_longs), _always)
_SQUEEZERS["pzstd"] = ("op", _words("--output --processes"), False)  # zstd's parallel twin
_DECOMPRESS = ("-d", "--decompress", "--uncompress")
# Nothing is written: to standard output, a test, a listing (lz4's `-l` is its legacy format).
_NO_FILE = ("-c", "--stdout", "--to-stdout", "-t", "--test", "--list")
_SUFFIX_MARKS = ".-_"


def _decompressed(name: str, values: Values, base: str | None, line: Line) -> Derived | Removed:
    """``gunzip X.gz`` writes ``X``; so do ``gzip -d``, ``xz -d``, ``zstd -d``, ``lz4 X.lz4``
    (which decompresses by its suffix), and the rest. Every name the program could make of the
    operand is given: the operand less each suffix a mark (``.``, ``-``, ``_``) starts, less
    ``-S``'s suffix, ``.tar`` for ``.tgz``-style suffixes, ``X.out`` (bzip2's, for a suffix it
    does not know)."""
    shorts, longs, always = _SQUEEZERS[name]
    parsed = _Parsed(values, shorts, longs)
    lz4 = name in ("lz4", "unlz4", "lz4c")
    decompress = always or parsed.has(*_DECOMPRESS)
    if lz4 and not parsed.exactly("-z", "--compress"):
        decompress = decompress or any(v and v.endswith(".lz4") for v in parsed.operands)
    recursive = parsed.has("-r", "--recursive")
    if parsed.exactly(*_NO_FILE) or (not lz4 and parsed.exactly("-l")):
        return None
    outputs = parsed.values_of("-o", "--output")
    if not decompress:
        if recursive:  # each file beneath the operand is replaced by its compressed copy
            return Removed(p for p in (_place(v, base) for v in parsed.operands) if p)
        return [o for o in (_place(v, base) for v in outputs) if o is not None] or None
    if recursive:
        return "decompresses every file beneath a directory"
    if parsed.has("-N", "--name"):
        return "restores the name stored in the compressed file (-N)"
    if parsed.has("--filelist", "--files", "--files0"):
        return "decompresses the files a list names"
    if parsed.has("--output-dir-mirror") or (
        name == "lzop" and any(v and v[:1] == "-" and "p" in v for v in values)
    ):
        return "decompresses into a directory it is given, or a mirror of the operands'"
    if any(o is None for o in outputs):
        return "writes to a computed name"
    suffixes = [s for s in parsed.values_of("-S", "--suffix") if s]
    if len(suffixes) != len(parsed.values_of("-S", "--suffix")):
        return "strips a computed suffix"
    flat = parsed.values_of("--output-dir-flat")
    if any(f is None for f in flat):
        return "decompresses into a computed directory"
    out = [o for o in (_place(v, base) for v in outputs) if o is not None]
    operands = parsed.operands
    if lz4 and len(operands) == 2 and operands[1] is not None:
        # `lz4 -d in out`: the second operand is the output; with -m it is one more input
        second = _place(operands[1], base)
        if second is not None:
            out.append(second)
    found = _matches(operands, base, line)
    if isinstance(found, str):
        return found
    for path in found:
        directory, _, leaf = path.rpartition("/")
        places = [_place(f, base) for f in flat] or [directory or "/"]
        for place in places:
            if place is None:
                continue
            out.extend(_into(place, stem) for stem in _stems(leaf, suffixes, name))
    return out or None


def _stems(leaf: str, suffixes: Sequence[str], name: str) -> list[str]:
    stems = [leaf[: -len(s)] for s in suffixes if leaf.endswith(s) and len(leaf) > len(s)]
    stems += [leaf[:i] for i in range(1, len(leaf)) if leaf[i] in _SUFFIX_MARKS]
    dot = leaf.rfind(".")
    if dot > 0 and leaf[dot + 1 : dot + 2] == "t":  # .tgz, .tbz2, .txz, .tzst: a .tar
        stems.append(leaf[:dot] + ".tar")
    if name in ("bzip2", "bunzip2", "pbzip2", "lbzip2"):
        stems.append(leaf + ".out")
    return stems


def _matches(operands: Sequence[str | None], base: str | None, line: Line) -> list[str] | str:
    """The files the operands name: a pattern's matches, as bash expands it when the line
    runs (a pattern the line itself may fill first is not known)."""
    import glob

    from clearance.intent.shell.trees import MAX_LANDED

    out: list[str] = []
    for value in operands:
        if value is None or value == "-":
            continue  # a computed operand asks already; `-` is standard input
        path = absolute(value, base)
        if path is None:
            continue  # in a directory not known: the operand asks already
        if _GLOB.isdisjoint(value):
            out.append(path)
            continue
        directory = path.rpartition("/")[0] or "/"
        if line.overflow or any(
            known is None or known.startswith(directory + "/") or known == directory
            for known, _ in line.written
        ):
            return "decompresses files a pattern matches, which the line itself may make first"
        matched = glob.glob(glob.escape(os.path.dirname(path)) + "/" + os.path.basename(path))
        if len(matched) + len(out) > MAX_LANDED:
            return f"decompresses more than {MAX_LANDED:,} files"
        out.extend(matched or [path])
    return out


class Removed(list[str]):
    """Trees whose every file is replaced (``gzip -r dir``): written beneath, as ``rm -r``'s;
    ``written``: the names the same command writes besides (a cache, a log)."""

    def __init__(self, trees: Iterable[str], written: Iterable[str] = ()) -> None:
        super().__init__(trees)
        self.written = list(written)


# -- downloads: the last segment of the URL --------------------------------------------------


@functools.cache
def _curl_options() -> tuple[str, frozenset[str]]:
    """The letters and long options that take a value, as curl's grammar for command rules
    (``policy.programs``, the one table of curl's options) lists them."""
    from clearance.policy.program_grammar import VALUE
    from clearance.policy.programs import PROGRAMS

    root = PROGRAMS["curl"].root
    shorts = "".join(s for s, (_, takes) in root.short.items() if takes == VALUE)
    return shorts, frozenset(s for s, (_, takes) in root.long.items() if takes == VALUE)


_CURL_NAMED = ("-O", "--remote-name", "--remote-name-all")


def _curl(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``curl -O URL`` writes the last segment of the URL's path (``--output-dir``: there);
    ``-o NAME`` with ``--output-dir`` writes beneath that directory. ``-J`` takes the name the
    server sends; a URL with ``{}`` or ``[]`` is a pattern curl expands (unless ``-g``), into
    the names ``-O`` or an ``-o`` with ``#N`` make. ``--next`` (``-:``) starts another group of
    options and URLs, each read alone."""
    out: list[str] = []
    group: list[str | None] = []
    for value in [*values, "--next"]:
        if value is not None and (
            value == "-:" or spells(value, "--next")
            or (value[:1] == "-" and value[:2] != "--" and ":" in value)
        ):  # fmt: skip
            found = _curl_group(group, base)
            if isinstance(found, str):
                return found
            out += found or []
            group = []
        else:
            group.append(value)
    return out or None


def _curl_group(values: Values, base: str | None) -> Derived:
    parsed = _Parsed(values, *_curl_options())
    dirs = parsed.values_of("--output-dir")
    if any(d is None for d in dirs):
        return "downloads into a computed directory"
    place = _place(dirs[-1], base) if dirs else base
    outputs = parsed.values_of("-o", "--output")
    urls = [*parsed.operands, *parsed.values_of("--url")]
    named = parsed.has(*_CURL_NAMED)
    globbed = not parsed.exactly("-g", "--globoff") and any(
        u is not None and ("{" in u or "[" in u) for u in urls
    )
    if globbed and (named or any(o is None or "#" in o for o in outputs)):
        return "downloads a URL pattern curl expands, under names it makes"
    out: list[str] = []
    if dirs and place is not None:  # `-o NAME` is relative to --output-dir
        out += [_into(place, o) for o in outputs if o and o[0] != "/"]
    if not named:
        return out or None
    if parsed.has("-J", "--remote-header-name"):
        return "saves under the name the server sends (-J)"
    if any(u is None for u in urls):
        return "downloads a computed URL under its own name"
    if place is None:
        return out or None  # in a directory not known: a path relative to nothing
    for url in urls:
        assert url is not None
        out += [_into(place, leaf) for leaf in _url_names(url)]
    return out or None


_WGET_SHORTS = "OoaPiBetTwQlARDIXUn"
_WGET_LONGS = _words(
    "--output-document --output-file --append-output --directory-prefix --input-file --base "
    "--execute --tries --timeout --wait --quota --level --accept --reject --domains "
    "--include-directories --exclude-directories --user-agent --config --default-page "
    "--save-cookies --load-cookies --warc-file --rejected-log --hsts-file --header --user "
    "--password --post-data --post-file --body-data --body-file --method --referer "
    "--bind-address --limit-rate --cut-dirs --restrict-file-names"
)
_WGET_UNLISTED = (
    "-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-x",
    "--force-directories", "--content-disposition", "--trust-server-names", "-i",
    "--input-file", "-e", "--execute", "--config", "-B", "--base", "--warc-file",
    "--default-page", "--protocol-directories",
)  # fmt: skip


def _wget(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``wget URL`` writes the last segment of the URL's path (``index.html`` for none) in
    ``-P``'s directory (else here); ``-O``, ``-o``, ``-a`` and the cookie, log and HSTS files
    name their own. Recursion, ``-x``, the server's or redirect's name, a URL list or wgetrc
    commands make the names not known."""
    parsed = _Parsed(values, _WGET_SHORTS, _WGET_LONGS)
    if parsed.has(*_WGET_UNLISTED):
        return "saves under names the server or its options choose (wget -r, -x, -i, -e)"
    out: list[str] = []
    for value in parsed.values_of("-o", "--output-file", "-a", "--append-output",
                                   "--save-cookies", "--rejected-log", "--hsts-file"):  # fmt: skip
        if value is None:
            return "writes a file whose name is computed"
        place = _place(value, base)
        if place is not None:
            out.append(place)
    documents = parsed.values_of("-O", "--output-document")
    if documents:
        if documents[-1] is None:
            return "writes a file whose name is computed"
        if documents[-1] != "-":
            place = _place(documents[-1], base)
            if place is not None:
                out.append(place)
        return out or None
    if parsed.exactly("--spider"):
        return out or None
    prefixes = parsed.values_of("-P", "--directory-prefix")
    if prefixes and prefixes[-1] is None:
        return "downloads into a computed directory"
    place = _place(prefixes[-1], base) if prefixes else base
    if any(u is None for u in parsed.operands):
        return "downloads a computed URL under its own name"
    if place is None:
        return out or None
    adjust = parsed.has("-E", "--adjust-extension", "--html-extension")
    for url in parsed.operands:
        assert url is not None
        for leaf in _url_names(url) or ["index.html"]:
            out.append(_into(place, leaf))
            if adjust:
                out += [_into(place, leaf + ".html"), _into(place, leaf + ".css")]
    return out or None


def _url_names(url: str) -> list[str]:
    """The names a download may give ``url``'s file: its path's last segment, with and without
    the query and fragment, percent-decoded or not (``[]``: the path ends in ``/``)."""
    from urllib.parse import unquote

    rest = url.split("://", 1)[1] if "://" in url else url
    path = rest.partition("/")[2] if "/" in rest else ""
    names: list[str] = []
    for variant in (path, path.split("#", 1)[0], path.split("?", 1)[0].split("#", 1)[0]):
        leaf = variant.rsplit("/", 1)[-1]
        for spelled in (leaf, unquote(leaf)):
            for part in (spelled, spelled.rsplit("/", 1)[-1]):
                if part and part not in (".", "..") and part not in names:
                    names.append(part)
    return names


def _downloads(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """aria2c, axel, wget2, httpie and xh ``--download``: names the server may choose."""
    if name in ("http", "https", "xh", "xhs"):
        parsed = _Parsed(values, "oaA", frozenset({"--output", "--auth", "--auth-type"}))
        outputs = parsed.values_of("-o", "--output")
        if outputs:
            place = _place(outputs[-1], base)
            return "writes a file whose name is computed" if outputs[-1] is None else (
                [place] if place else None)  # fmt: skip
        if not parsed.has("-d", "--download"):
            return None
    return f"downloads under names the server may choose ({name})"


# -- patch: the names the patch file holds ---------------------------------------------------

# patch(1): the letters and long options that take a value (`-s` is --silent, a flag).
_PATCH_SHORTS = "BDFYVgipdozrx"
_PATCH_LONGS = _words(
    "--prefix --basename-prefix --suffix --version-control --input --strip --directory "
    "--output --reject-file --fuzz --ifdef --get --quoting-style --reject-format --read-only "
    "--debug"
)


def _patch(values: Values, base: str | None, line: Line, stdin: Stdin) -> Derived:
    """``patch`` writes the files its patch names: each name in a header (``---``, ``+++``,
    ``***``, ``Index:``, ``diff --git``, ``rename to``, ``copy to``) with every number of
    leading directories stripped (``-p`` or not, patch may strip that many), beneath ``-d``
    (else here); ``-o``, ``-r`` and an explicit file operand are written too. The patch is read
    from ``-i`` or the second operand, else from the file or heredoc standard input is
    redirected from; a backup prefix or suffix, a link in the patch, a patch from a pipe and a
    patch the line itself may write make the names not known."""
    parsed = _Parsed(values, _PATCH_SHORTS, _PATCH_LONGS)
    if parsed.has("-B", "--prefix", "-Y", "--basename-prefix", "-z", "--suffix", "-V",
                  "--version-control"):  # fmt: skip
        return "makes backups under a prefix or suffix it is given"
    if parsed.has("-e", "--ed", "-D", "--ifdef"):
        return "applies an ed script or an #ifdef merge"
    where = base
    for directory in parsed.values_of("-d", "--directory"):
        if directory is None:
            return "patches in a computed directory"
        where = absolute(directory, where) if where is not None else None
    if where is None:
        return None if base is None else "patches in a directory not known"
    out: list[str] = []
    for value in parsed.values_of("-o", "--output", "-r", "--reject-file"):
        if value is None:
            return "writes a file whose name is computed"
        place = absolute(value, where) if value != "-" else None
        if place is not None:
            out.append(place)
    operands = parsed.operands
    if any(o is None for o in operands):
        return "patches a computed file"
    if operands:  # `patch FILE [PATCH]`: FILE is the one written
        place = absolute(operands[0] or "", where)
        return [*out, place] if place is not None else out or None
    inputs = parsed.values_of("-i", "--input")
    if inputs:  # read after -d's change of directory
        if inputs[-1] is None:
            return "reads a patch whose name is computed"
        return _patch_file(inputs[-1], where, where, line, out)
    if stdin is not None and stdin[0] == "file":  # the shell opens it, before -d
        return _patch_file(stdin[1], base or where, where, line, out)
    if stdin is not None:
        return _patch_names(stdin[1], where, out)
    return "reads its patch from standard input, which clearance does not read"


def _patch_file(source: str, base: str, where: str, line: Line, out: list[str]) -> Derived:
    from clearance.intent.shell.trees import _touched

    path = absolute(source, base)
    if path is None:
        return "reads a patch in a directory not known"
    if _touched(line, path):
        return "reads a patch the line itself may write first"
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_PATCH_BYTES + 1)
    except OSError:
        return out or None  # patch fails on a patch it cannot read: nothing is patched
    if len(data) > MAX_PATCH_BYTES:
        return f"reads a patch larger than {MAX_PATCH_BYTES >> 20} MiB"
    return _patch_names(data.decode("utf-8", "surrogateescape"), where, out)


def _patch_names(text: str, where: str, out: list[str]) -> Derived:
    from clearance.intent.shell.trees import MAX_LANDED

    names: list[str] = []
    for raw in text.splitlines():
        raw = raw.lstrip()  # patch reads an indented patch too
        if raw.startswith(("new file mode 120000", "new mode 120000", "deleted file mode 120000")):
            return "creates or removes a symbolic link"
        for header in _headers(raw):
            if header[:1] == '"' or "$" in header or "`" in header:
                return "names a file in quotes or with an expansion"
            names.append(header)
    if not names:
        return "holds no file names (patch would ask for one, or guess it)"
    for header in names:
        parts = [p for p in header.split("/") if p]
        for strip in range(len(parts)):
            place = absolute("/".join(parts[strip:]), where)
            if place is not None:
                out.append(place)
        if header[:1] == "/":
            out.append(header)
        if len(out) > MAX_LANDED:
            return f"patches more than {MAX_LANDED:,} names"
    return out


_HEADERS = ("+++ ", "--- ", "*** ", "Index: ", "rename to ", "copy to ", "rename from ",
            "copy from ")  # fmt: skip


def _headers(raw: str) -> list[str]:
    """The file names a patch line may give: a header's name without its timestamp, and cut
    at its first blank (patch reads either); both of ``diff --git a/X b/Y``."""
    if raw.startswith("diff --git "):
        rest = raw[len("diff --git ") :]
        first, sep, second = rest.partition(" b/")
        return [n for n in (first, "b/" + second if sep else "") if n]
    for mark in _HEADERS:
        if raw.startswith(mark):
            name = raw[len(mark) :].split("\t", 1)[0].rstrip("\r").strip()
            if mark in ("--- ", "*** ") and name.endswith(("----", "****")):
                return []  # a context diff's hunk line
            if not name or name == "/dev/null":
                return []
            cut = name.split(None, 1)[0]
            return [name] if cut == name else [name, cut]
    return []


# -- copies from another machine -------------------------------------------------------------

# scp(1), sftp(1): the letters that take a value (scp's `-s` is a flag, sftp's takes one).
_SCP_SHORTS = {"scp": "cDFiJloPSX", "sftp": "BbcDFiJloPRSs"}


def _remote(value: str) -> bool:
    """``host:path``, ``user@host:path``, ``container:path``: a place on another machine."""
    head = value.split("/", 1)[0]
    return ":" in head and not value.startswith(("/", "./", "../"))


def _scp(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``scp host:F D`` and ``sftp host:F [D]`` write ``D``, or ``D``/F's last segment when
    ``D`` is a directory; a tree (``-r``), a pattern the remote shell expands, or sftp's own
    commands (a batch, standard input) write names not known."""
    parsed = _Parsed(values, _SCP_SHORTS[name], frozenset())
    operands = parsed.operands
    if any(o is None for o in operands):
        return "copies between computed places"
    if name == "sftp":
        if parsed.has("-b") or not operands or not _remote(operands[0] or ""):
            return "runs sftp commands (a batch, or standard input) that may fetch any file"
        sources, destination = operands[:1], (operands[1] if len(operands) > 1 else ".")
    else:
        if len(operands) < 2:
            return None
        sources, destination = operands[:-1], operands[-1]
    assert destination is not None
    if _remote(destination) or not any(s and _remote(s) for s in sources):
        return None  # an upload, or a local copy: its operands are its paths
    place = absolute(destination, base)
    if place is None:
        return None  # in a directory not known: the destination asks already
    if parsed.has("-r"):
        return "copies a tree from another machine"
    out: list[str] = []
    directory = _is_directory(destination, place)
    for source in sources:
        assert source is not None
        remote = source.split(":", 1)[1] if _remote(source) else source
        leaf = remote.rstrip("/").rsplit("/", 1)[-1]
        if not _GLOB.isdisjoint(remote) or not _SHELL_MARKS.isdisjoint(remote):
            return "copies the files a pattern on the other machine matches"
        if not directory:
            out.append(place)
        elif leaf and leaf not in (".", "..", "~"):
            out.append(_into(place, leaf))
        else:
            return "copies a directory from another machine"
    return out or None


_SHELL_MARKS = frozenset("{$`~\\")


def _copies_in(remote: Callable[[str], bool], what: str, single: tuple[str, ...] = ()) -> Deriver:
    """A copy whose source is on another machine or in a bucket and whose destination is
    local (``docker cp c:/app .``, ``kubectl cp pod:/x .``, ``aws s3 sync s3://b .``): a file or
    a tree, its names are not known. The subcommands that copy are ``DERIVED_BY_WORD``'s (any
    word of the line: a global option's value may stand before them); a remote operand followed
    by a local one
    is such a copy (an option's value read as an operand errs towards asking). ``single``: the
    subcommands that copy one object unless told to recurse (``aws s3 cp s3://b/k ./x``),
    which write the destination, or the object's last segment beneath it."""

    def derive(name: str, values: Values, base: str | None, line: Line) -> Derived:
        subs = DERIVED_BY_WORD[name]
        at = next((i for i, v in enumerate(values) if v is None or v in subs), None)
        if at is None:
            return None
        if "--dry-run" in values or "--dryrun" in values:
            return None  # as spelled: an abbreviation may be another option
        source: str | None = None
        for value in values[at + 1 :]:
            if value is None:
                return f"copies {what} between computed places"
            if value[:1] == "-" and value != "-":
                continue
            if remote(value):
                source = value
            elif source is not None and value != "-":
                if values[at] in single:
                    return _one_object(source, value, base, values, what)
                return f"copies {what} from another machine into this one"
        return None

    return derive


def _one_object(source: str, destination: str, base: str | None, values: Values,
                what: str) -> Derived:  # fmt: skip
    if any(v in ("-r", "-R", "--recursive") for v in values):
        return f"copies {what} from another machine into this one"
    key = source.split("://", 1)[-1]
    leaf = key.rstrip("/").rsplit("/", 1)[-1]
    if not _GLOB.isdisjoint(key) or source.endswith("/") or "/" not in key or not leaf:
        return f"copies {what} from another machine into this one"
    place = absolute(destination, base)
    if place is None:
        return None
    return [_into(place, leaf) if _is_directory(destination, place) else place]


def _bucket(value: str) -> bool:
    return value.startswith(("s3://", "gs://", "az://", "r2://"))


def _url(value: str) -> bool:
    return "://" in value


def _checkout(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """A version control checkout or a sync tool's copy: the files are the repository's."""
    for value in values:
        if value is None or value in DERIVED_BY_WORD[name]:
            return f"writes files a repository or remote holds ({name} {value or '…'})"
    return None


def _session(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """lftp, ftp, tftp, smbclient, unison: their own commands (``-c``, a batch, standard
    input) may fetch any file under any name."""
    return f"runs {name}, whose own commands may fetch files under any name"


# -- extractors whose archives clearance does not list ---------------------------------------


def _extractor(
    keys: str = "",
    commands: tuple[str, ...] = (),
    always: bool = False,
    reads: str = "",
    longs: tuple[str, ...] = ("--extract",),
    bare: bool = False,
    valued: str = "",
) -> Deriver:
    """An archive extraction clearance does not list: ``always``; a long option of ``longs``
    (or a prefix of one); a short option holding one of ``keys`` (``dpkg-deb -v -x``), or with
    ``bare`` any word of letters only holding one (``jar xf``, ``ar x``, wherever it stands: an
    option's value may come first); a word of ``commands`` (``7z x``, ``arj e``). ``reads``:
    letters that only list or test (``cabextract -l``); ``valued``: letters whose value is the
    rest of their cluster (``dpkg-deb -Zxz``: ``xz`` is a compressor, no key)."""

    def derive(name: str, values: Values, base: str | None, line: Line) -> Derived:
        why = f"extracts files whose names clearance does not list ({name})"
        if None in values:
            return why
        words = [v for v in values if v]
        if any(w[:2] == "--" and any(spells(w.partition("=")[0], o) for o in longs)
               for w in words):  # fmt: skip
            return why
        flags = [_cut(w[1:], valued) for w in words if w[:1] == "-" and w[:2] != "--"]
        if reads and any(not set(f).isdisjoint(reads) for f in flags):
            return None
        if always:
            return why
        if keys and any(not set(f).isdisjoint(keys) for f in flags if f.isalpha()):
            return why
        if bare and keys and any(w.isalpha() and not set(w).isdisjoint(keys) for w in words):
            return why
        return why if any(w in commands for w in words) else None

    return derive


def _cut(cluster: str, valued: str) -> str:
    """The letters of a short option cluster up to the first that takes the rest as value."""
    for index, letter in enumerate(cluster):
        if letter in valued:
            return cluster[: index + 1]
    return cluster


def _install(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``install SRC DEST``, ``install SRC... DIR``, ``install -t DIR SRC...``: each source
    lands by its own name in the directory (``-d`` makes directories only). A backup (``-b``,
    ``-S``) takes a name made of another and a suffix: not known."""
    longs = _words("--group --mode --owner --suffix --target-directory --strip-program")
    parsed = _Parsed(values, "gmoSt", longs)
    if parsed.exactly("-d", "--directory"):
        return None
    if parsed.has("-b", "--backup", "-S", "--suffix"):
        return "makes backups under names made with a suffix"
    operands = parsed.operands
    targets = parsed.values_of("-t", "--target-directory")
    if any(o is None for o in operands) or any(t is None for t in targets):
        return "installs to or from a computed name"
    if targets:
        directory: str | None = targets[-1]
        sources = operands
    elif len(operands) >= 2:
        directory, sources = operands[-1], operands[:-1]
    else:
        return None
    assert directory is not None
    place = absolute(directory, base)
    if place is None:
        return None
    if (
        not targets
        and len(sources) == 1
        and (parsed.has("-T", "--no-target-directory") or not _is_directory(directory, place))
    ):
        return [place]
    return [_into(place, (s or "").rstrip("/").rsplit("/", 1)[-1]) for s in sources] or None


def _lwp_download(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``lwp-download URL [LOCAL]``: the name is the server's or the URL's unless ``LOCAL``
    names a file."""
    operands = [v for v in values if v is None or v[:1] != "-"]
    if len(operands) >= 2 and operands[1] is not None:
        place = absolute(operands[1], base)
        if place is not None and not _is_directory(operands[1], place):
            return [place]
    return "saves under the name the server or the URL gives"


_SUFFIX_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"


def _split(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``split [FILE [PREFIX]]`` writes ``PREFIX`` + a suffix (``aa``, ``ab``… or digits) +
    ``--additional-suffix``; ``csplit -f PREFIX`` writes ``PREFIX`` + a number. Every name of
    the suffix length given (two, by default) is written; a longer one, a ``csplit -b`` format
    or a computed word is not known. (split widens a default suffix past ``yz`` to ``zaaa``…:
    names beginning with ``z``, not listed.)"""
    if name in ("csplit", "gcsplit"):
        parsed = _Parsed(values, "bfn", _words("--suffix-format --prefix --digits"))
        if parsed.has("-b", "--suffix-format") or parsed.computed:
            return "names its pieces with a format it is given"
        prefix = (parsed.values_of("-f", "--prefix") or ["xx"])[-1]
        digits = (parsed.values_of("-n", "--digits") or ["2"])[-1] or ""
        if prefix is None or not digits.isdigit() or int(digits) > 3:
            return "names its pieces with a prefix or a number of digits not known"
        stems = [f"{n:0{int(digits)}d}" for n in range(10 ** int(digits))]
        extra = ""
    else:
        longs = "--suffix-length --bytes --line-bytes --lines --number --additional-suffix"
        parsed = _Parsed(values, "abCln", _words(longs + " --separator --filter"))
        length = (parsed.values_of("-a", "--suffix-length") or ["2"])[-1] or ""
        extras = parsed.values_of("--additional-suffix")
        operands = parsed.operands
        prefix = operands[1] if len(operands) > 1 else "x"
        if parsed.computed or prefix is None or any(e is None for e in extras):
            return "splits into pieces whose names are computed"
        if not length.isdigit() or int(length) > 2:
            return "names its pieces with suffixes longer than two characters"
        from itertools import product

        stems = ["".join(p) for p in product(_SUFFIX_LETTERS, repeat=int(length))]
        extra = extras[-1] or "" if extras else ""
    place = absolute(prefix, base)
    if place is None:
        return None
    return [place + stem + extra for stem in stems]


def _mktemp(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``mktemp [-p DIR] [TEMPLATE]`` makes a file (``-d``: a directory) whose name is the
    template's, its ``X``s random: the template as written stands for it (a protected pattern
    with ``*`` meets it, ``.claude/agents/tmp.XXXX``). In ``$TMPDIR`` or ``/tmp`` by default."""
    parsed = _Parsed(values, "p", _words("--tmpdir --suffix"))
    if parsed.computed:
        return "makes a file whose name is computed"
    template = parsed.operands[0] if parsed.operands else "tmp.XXXXXXXXXX"
    suffix = (parsed.values_of("--suffix") or [""])[-1] or ""
    directory = (parsed.values_of("-p", "--tmpdir") or [None])[-1]
    if template is None:
        return "makes a file whose name is computed"
    if directory is None and not parsed.has("-t", "--tmpdir", "-p") and "/" in template:
        where = base  # a template with a directory is relative to here
    elif directory is None:
        return None  # in $TMPDIR or /tmp: outside the project
    else:
        where = absolute(directory, base)
    place = absolute(template.rpartition("/")[2] if directory else template, where)
    return [place + suffix] if place is not None else None


# Package managers: the directory an install, a download or a pack writes into, where the
# names are the packages' own (`pip install --target`, `gem install -i`) or the tool's own
# (`npm pack` a `NAME-VERSION.tgz`, `npm install` a `package.json` and a `node_modules`).
_PIP_TARGETS = ("-t", "--target", "--root", "--prefix", "--src", "--home")
_PIP_LONGS = _words(
    "--target --root --prefix --src --home --dest --wheel-dir --requirement --constraint "
    "--index-url --extra-index-url --find-links --cache-dir --directory --project --log "
    "--log-file --install-dir --bin-dir --out-dir"
)
_PIP_COMMANDS = frozenset({"config", "install", "download", "wheel", "venv", "init", "sync"}) | {
    "build", "python", "tool", "pip"
}  # fmt: skip


def _pip(name: str, values: Values, base: str | None, line: Line) -> Derived | Removed:
    parsed = _Parsed(values, "tdwo", _PIP_LONGS)
    words = _from_command(parsed, _PIP_COMMANDS)
    if words is None:
        return _HIDDEN
    if words[:1] == ["config"]:
        return _pip_config(parsed, words)
    caches = [_place(d, base) for d in parsed.values_of("--cache-dir")]
    logs = [_place(f, base) for f in parsed.values_of("--log", "--log-file")]  # appended to
    if None in caches or None in logs:
        return "writes into a computed directory"
    out: list[str] = [_into(p, "*") for p in caches if p is not None]
    out += [p for p in logs if p is not None]
    if name == "uv":
        # `--directory D` (and `--project D`, where the environment goes) move where uv works
        for moved in parsed.values_of("--directory", "--project"):
            base = absolute(moved or "", base) if base is not None and moved else None
        given = parsed.values_of("--install-dir", "--bin-dir")  # `uv python install`
        if words[:1] == ["build"]:
            given += parsed.values_of("-o", "--out-dir")
        made = _beneath(given, base)
        if isinstance(made, str):
            return made
        out += made or ()
        if words[:1] in (["venv"], ["init"]):
            # `uv venv [D]` (.venv), `uv init [D]` (.): the files beneath D
            rest = values[values.index(words[0]) + 1 :]  # its own options, after it
            made = _venv(rest, "p", _UV_VENV_LONGS, ".venv" if words[0] == "venv" else ".", base)
            if isinstance(made, Removed):  # `uv --cache-dir C venv --clear D`: both
                return Removed(made, [*made.written, *out])
            return made if isinstance(made, str) or made is None else out + made
    if any(k in _PIP_TARGETS for k, _ in parsed.options) or parsed.has(*_PIP_TARGETS):
        return "installs files under names the packages choose into a directory it is given"
    for directory in parsed.values_of("-d", "--dest", "-w", "--wheel-dir"):
        place = _place(directory, base)
        if directory is None or place is None:
            return "downloads packages into a computed directory"
        out.append(_into(place, "package.whl"))  # a package's file name, in that directory
    return out or None


def _gem(name: str, values: Values, base: str | None, line: Line) -> Derived:
    parsed = _Parsed(values, "inv", _words("--install-dir --bindir --version --build-root "
                                           "--target"))  # fmt: skip
    if parsed.has("-i", "--install-dir", "-n", "--bindir", "--user-install", "--build-root"):
        return "installs files under names the gems choose into a directory it is given"
    return _beneath(parsed.values_of("--target"), base)  # `gem unpack --target D`


def _node_packages(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """npm/pnpm/yarn/bun, their commands read as npm reads them (aliases and abbreviations:
    ``NODE_COMMANDS``): a pack writes ``NAME-VERSION.tgz`` (``--pack-destination``), an
    install a ``package.json``, a lock file and ``node_modules`` (``--prefix``, ``--dir``), a
    workspace's ``package.json`` (``-w DIR``); a global install with a prefix writes beneath it;
    ``config set`` writes the settings file (``.npmrc``, ``.yarnrc``), which runs code later;
    the cache, logs, store and global folders given on any command are written beneath."""
    from clearance.intent.shell.names import NODE_COMMANDS, NODE_DIRECTORIES, NODE_WORDS

    parsed = _Parsed(values, "CwL", _NODE_LONGS | NODE_DIRECTORIES)
    # nopt, npm's option reader, takes `-w=DIR` as `-w DIR`
    parsed.options = [(k, v[1:] if k[1] != "-" and v and v[0] == "=" else v)
                      for k, v in parsed.options]  # fmt: skip
    if parsed.computed_option:  # after `--` the words are the script's
        return "writes into a computed directory"
    if any(v and not _GLOB.isdisjoint(v) for k, v in parsed.options if k not in _NODE_DATA):
        return "writes into a directory a pattern names"  # `--prefix .claude/agent[s]`
    location = parsed.values_of("--location", "-L")
    words = _from_command(parsed, NODE_WORDS)
    if words is None:
        return _HIDDEN
    kind = NODE_COMMANDS.get(words[0]) if words else None
    always = _beneath(parsed.values_of(*NODE_DIRECTORIES), base)
    if isinstance(always, str):
        return always
    out = always or []
    if kind == "setup":  # pnpm adds its directory to the shell's start-up files
        return [*out, "~/.bashrc", "~/.bash_profile", "~/.zshrc", "~/.profile",
                "~/.config/fish/config.fish"]  # fmt: skip
    if kind == "set" or (kind == "config" and _writes_settings(words)):
        found = _node_config(name, parsed, location, base)
        return found if isinstance(found, str) or found is None else [*out, *found]
    if kind not in ("install", "init", "pack"):
        return out or None
    if parsed.has("-g", "--global") or "global" in location or words[0] == "global":
        # Global: into npm's prefix, which the line may name (else outside the project).
        prefixes = _beneath(parsed.values_of("--prefix", "--dir", "--cwd", "-C"), base)
        return prefixes if isinstance(prefixes, str) else [*out, *(prefixes or ())] or None
    where = base
    for directory in parsed.values_of("--prefix", "--dir", "--cwd", "-C"):
        where = absolute(directory or "", where) if where is not None and directory else None
    if where is None:
        return out or None
    spaces = [absolute(w, where) for w in parsed.values_of("-w", "--workspace") if w]
    if kind == "pack":
        packs = parsed.values_of("--pack-destination")
        place = absolute(packs[-1] or "", where) if packs else where
        return [*out, _into(place, "package.tgz")] if place is not None else out or None
    if kind == "init":  # `npm init -w DIR`: the workspace's package.json, and the root's
        return [*out, *(_into(w, "package.json") for w in (where, *spaces) if w is not None)]
    names = ("package.json", "package-lock.json", "node_modules/.package-lock.json")
    out += [_into(where, leaf) for leaf in names]
    return out + [_into(w, "package.json") for w in spaces if w is not None]


_NODE_DATA = frozenset({"--registry", "--tag", "--filter"})  # values that name no directory
_NODE_LONGS = _words(
    "--prefix --pack-destination --dir --cwd --registry --tag --workspace --filter "
    "--userconfig --location"
)


def _corepack(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``corepack npm|pnpm|yarn[@VERSION] …`` runs that package manager (read as it);
    ``corepack enable --install-directory DIR`` writes its shims there."""
    first = values[0] if values else None
    if first is None and values:
        return "runs a package manager clearance cannot name"
    manager = (first or "").partition("@")[0]
    if manager in ("npm", "pnpm", "yarn"):
        return _node_packages(manager, values[1:], base, line)
    parsed = _Parsed(values, "", _words("--install-directory"))
    return _beneath(parsed.values_of("--install-directory"), base, parsed.computed)


# The settings files a package manager's `config set` writes (the user's, the project's):
# each names what runs (npm's script-shell and node-options, yarn's yarnPath, pip's target).
_CONFIG_WRITES = frozenset({"set", "delete", "rm", "del", "unset", "edit", "fix"})
_SETTINGS = {
    "npm": ("~/.npmrc", ".npmrc"),
    "pnpm": ("~/.npmrc", "~/.config/pnpm/rc", "~/Library/Preferences/pnpm/rc", ".npmrc"),
    "yarn": ("~/.yarnrc", "~/.yarnrc.yml", ".yarnrc", ".yarnrc.yml"),
    "bun": ("~/.npmrc", ".npmrc"),
}


def _from_command(parsed: _Parsed, commands: Container[str]) -> list[str] | None:
    """The operands from the first that is one of ``commands`` on: an option clearance does not
    know may take the word after it as its value (``npm --loglevel warn config set``). ``None``
    when a computed word comes first: it may be the command (``pip {config,} set``)."""
    words: list[str] = []
    found = False
    for word in parsed.operands:
        if word is None:
            if not found:
                return None
            continue
        found = found or word in commands
        if found:
            words.append(word)
    return words if found else [v for v in parsed.operands if v]


_HIDDEN = "a computed word may be its command"


def _writes_settings(words: list[str]) -> bool:
    """Whether ``config WORD`` writes the settings file (``set``, ``delete``, ``edit``…)."""
    return len(words) > 1 and words[1] in _CONFIG_WRITES


def _node_config(name: str, parsed: _Parsed, location: list[str | None], base: str | None
                 ) -> Derived:  # fmt: skip
    """The settings files ``config set`` may write: the user's (``--userconfig`` names it),
    and the project's where it runs or in a directory above; npm's ``--location=project``
    writes only the project's, ``--location=user`` (its default) only the user's."""
    if parsed.has("-g", "--global") or "global" in location or None in location:
        return "writes the global settings file, whose place clearance does not know"
    where = location[-1] if location else None
    out: list[str] = []
    for leaf in _SETTINGS[name]:
        if leaf.startswith("~"):
            if not (name == "npm" and where == "project"):
                out.append(leaf)
        elif base is not None and not (name == "npm" and where != "project"):
            out += [_into(d, leaf) for d in _ancestors(base)]  # the project's, or one above
    return out + [f for f in parsed.values_of("--userconfig") if f]


def _ancestors(directory: str) -> list[str]:
    out = [directory]
    while directory not in ("/", ""):
        directory = os.path.dirname(directory)
        out.append(directory)
    return out


def _pip_config(parsed: _Parsed, words: list[str]) -> Derived:
    """``pip config set|unset|edit``: the user's pip.conf (``--global``: the system's;
    ``--site``: the environment's)."""
    if not _writes_settings(words):
        return None
    if parsed.has("--site"):
        return "writes the pip.conf of the environment it runs in"
    files = ["~/.config/pip/pip.conf", "~/.pip/pip.conf"]
    if parsed.has("--global"):
        files += ["/etc/xdg/pip/pip.conf", "/etc/pip.conf"]
    return files


# -- virtual environments and install roots: written beneath the directory they are given ----

_VENV_LONGS = _words(
    "--prompt --python --app-data --discovery --creator --seeder --activators --pip "
    "--setuptools --wheel --extra-search-dir"
)
_UV_VENV_LONGS = _words(
    "--python --prompt --index-url --extra-index-url --find-links --index --default-index "
    "--index-strategy --keyring-provider --link-mode --exclude-newer --cache-dir --directory "
    "--project --config-file --color --python-preference --name --build-backend --vcs "
    "--author-from"
)


def _venv(
    values: Values, shorts: str, longs: frozenset[str], default: str | None, base: str | None
) -> Derived | Removed:
    """A virtual environment (``python -m venv D``, ``virtualenv D``, ``uv venv [D]``): its
    files beneath each ``D`` (``--clear``: what was there is replaced, trees and all)."""
    parsed = _Parsed(values, shorts, longs)
    if parsed.computed:
        return "makes a virtual environment in a computed directory"
    operands = [v for v in parsed.operands if v] or ([default] if default else [])
    places = [None if not _GLOB.isdisjoint(d) else _place(d, base) for d in operands]
    if None in places or base is None:
        return None if not places else "makes a virtual environment in a computed directory"
    found = [p for p in places if p is not None]
    if parsed.has("--clear"):
        return Removed(found)
    return [_into(p, "*") for p in found]


def _virtualenv(name: str, values: Values, base: str | None, line: Line) -> Derived | Removed:
    return _venv(values, "p", _VENV_LONGS, None, base)


_CARGO_LONGS = _words(
    "--sync --root --target-dir --artifact-dir --out-dir --manifest-path --package --bin --example "
    "--test --bench --features --jobs --target --profile --message-format --config --color "
    "--version --git --branch --tag --rev --path --registry --index --lockfile-path --name "
    "--vcs --edition"
)


_CARGO_DIRECTORIES = frozenset({"build.target-dir", "build.build-dir", "install.root"})


def _cargo(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``cargo install --root D`` (``D/bin``, ``D/.crates.toml``), a build's ``--target-dir``,
    ``cargo new|init D``: written beneath the directory (``-C D`` first moves there; a leading
    ``+TOOLCHAIN`` is rustup's). ``cargo vendor D`` writes the crates' own names beneath D."""
    if values[:1] and values[0] is not None and values[0][:1] == "+":
        values = values[1:]
    parsed = _Parsed(values, "pjFZC", _CARGO_LONGS)
    if parsed.computed:
        return "writes into a computed directory"
    for moved in parsed.values_of("-C"):
        base = absolute(moved or "", base) if base is not None and moved else None
    words = [v for v in parsed.operands if v]
    given = parsed.values_of("--root", "--target-dir", "--artifact-dir", "--out-dir")
    for setting in parsed.values_of("--config"):  # `KEY=VALUE` in TOML, or a file of them
        key, eq, value = (setting or "").partition("=")
        if not eq:
            return "reads its settings (build.target-dir, install.root) from a file"
        if key.strip() in _CARGO_DIRECTORIES:
            given.append(value.strip().strip("'\""))
    if words[:1] in (["new"], ["init"]):
        given += words[1:2] if words[1:] else (["."] if words == ["init"] else [])
    if words[:1] == ["vendor"]:
        if words[1:]:  # a crate's name is a directory beneath it (`agents`)
            return "copies crates into a directory under the crates' own names"
        given.append("vendor")
    return _beneath(given, base)


def _deno(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``deno install|i --root D``: the program's launcher in ``D/bin``; ``deno init D``: the
    project's files beneath ``D``."""
    parsed = _Parsed(values, "cA", _words("--root --name --config --import-map --lock"))
    given = parsed.values_of("--root")
    words = _from_command(parsed, ("init", "install", "i"))
    if words is None:
        return _HIDDEN
    if words[:1] == ["init"]:
        given += words[1:2] or ["."]
    return _beneath(given, base, parsed.computed)


def _composer(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """composer's working directory (``-d D``): ``vendor``, ``composer.lock`` and the packages'
    files beneath it; ``create-project PACKAGE D`` writes the package's own names."""
    parsed = _Parsed(values, "d", _words("--working-dir --repository --repository-url "
                                          "--stability --add-repository"))  # fmt: skip
    words = [v for v in parsed.operands if v]
    if parsed.computed:
        return "writes into a computed directory"
    if words[:1] == ["create-project"]:
        return "makes a project of the files a package names"
    return _beneath(parsed.values_of("-d", "--working-dir"), base)


def _go(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``go env -w|-u``: go's settings file (GOFLAGS=-toolexec, CC: what later builds run);
    ``go mod vendor -o D``: the modules' own names beneath D. Go's flags take one dash or two,
    and ``-w=true``."""
    if next((v for v in values if v is None or v[:1] != "-"), "") is None:
        return _HIDDEN
    words = [v for v in values if v is not None and v[:1] != "-"]
    words = words[next((i for i, w in enumerate(words) if w in _GO_COMMANDS), 0) :]  # `-C D`
    if words[:1] == ["env"]:
        flags = {(v or "").lstrip("-").partition("=")[0] for v in values}
        if None in values or "w" in flags or "u" in flags:
            return ["~/.config/go/env", "~/Library/Application Support/go/env"]
    if words[:2] == ["mod", "vendor"] and any(
        v is None or v.lstrip("-").partition("=")[0] == "o" for v in values
    ):
        return "copies modules into a directory under the modules' own names"
    return None


_GO_COMMANDS = frozenset(
    {"bug", "build", "clean", "doc", "env", "fix", "fmt", "generate", "get", "help", "install"}
    | {"list", "mod", "run", "telemetry", "test", "tool", "version", "vet", "work"}
)


def _poetry(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``poetry new D``: the project beneath ``D``, its package directory named by ``--name``
    (else ``D``'s own name), at ``D/NAME`` or ``D/src/NAME``."""
    parsed = _Parsed(values, "CP", _words("--name --readme --python --dependency "
                                          "--dev-dependency --directory --project"))  # fmt: skip
    words = _from_command(parsed, ("new",))
    if words is None:
        return _HIDDEN
    if words[:1] != ["new"] or len(words) < 2:
        return None
    for moved in parsed.values_of("-C", "--directory"):  # where poetry works first
        base = absolute(moved or "", base) if base is not None and moved else None
    place = _place(words[1], base)
    names = [n for n in parsed.values_of("--name")] or [os.path.basename(words[1].rstrip("/"))]
    if parsed.computed or place is None or None in names:
        return "makes a project in a computed directory"
    out = [_into(place, "*")]
    for package in names:
        for spelled in {package or "", (package or "").replace("-", "_")}:
            out += [_into(place, f"{spelled}/*"), _into(place, f"src/{spelled}/*")]
    return out


def _conda(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``conda create|install -p D``: the packages' own names beneath ``D``."""
    parsed = _Parsed(values, "pnc", _words("--prefix --name --channel --file"))
    if parsed.values_of("-p", "--prefix") or parsed.computed:
        return "installs files under names the packages choose into a directory it is given"
    return None


def _bundle(name: str, values: Values, base: str | None, line: Line) -> Derived:
    """``bundle install --path D``: the gems beneath ``D/ruby``; ``--binstubs D``: a program
    for each gem's executables, under the names the gems choose."""
    parsed = _Parsed(values, "j", _words("--path --binstubs --gemfile --jobs --without --with "
                                         "--shebang --retry --standalone"))  # fmt: skip
    if parsed.computed or parsed.has("--binstubs"):
        return "writes programs under names the gems choose into a directory it is given"
    return _beneath(parsed.values_of("--path"), base)


def _python_module(name: str, values: Values, base: str | None, line: Line) -> Derived | Removed:
    """``python -m zipfile -e A D``, ``python -m tarfile -e A``, ``python -m gzip -d F``: the
    library extracts or decompresses (its options read as argparse reads them: any prefix)."""
    i = 0
    while i < len(values):
        value = values[i]
        i += 1
        if value is None or value[:1] != "-" or value in ("-", "--"):
            return None  # a script, standard input: not a module
        if value[:2] == "--":
            continue
        for j in range(1, len(value)):
            letter = value[j]
            if letter in "WXQ":  # a value: the rest of the word, or the next word
                i += 0 if value[j + 1 :] else 1
                break
            if letter == "c":
                return None
            if letter == "m":
                module = value[j + 1 :] or (values[i] if i < len(values) else None)
                if module is None and i < len(values):
                    return "runs a module clearance cannot name"
                rest = values[i if value[j + 1 :] else i + 1 :]
                return _module_writes(module, rest, base, line)
    return None


_MODULE_WRITERS = {"zipfile": "--extract", "tarfile": "--extract", "gzip": "--decompress"}


def _module_writes(
    module: str | None, rest: Values, base: str | None, line: Line
) -> Derived | Removed:
    if module == "runpy":  # `python -m runpy M ARGS` runs M as `-m M` does
        if not rest or rest[0] is None:
            return "runs a module clearance cannot name" if rest else None
        module, rest = rest[0], rest[1:]
    if module is not None:
        module = module.removesuffix(".__main__")  # `-m pip.__main__` is pip
    if module == "pip":
        return _pip("pip", rest, base, line)
    if module in ("venv", "virtualenv"):
        return _venv(rest, "p" if module == "virtualenv" else "", _VENV_LONGS, None, base)
    if module == "ensurepip":  # `--root D`: pip's own files beneath D
        parsed = _Parsed(rest, "", _words("--root"))
        return _beneath(parsed.values_of("--root"), base, parsed.computed)
    option = _MODULE_WRITERS.get(module or "")
    if option is None:
        return None
    short = option[1:3]
    for value in rest:
        if value is None or value == short or spells(value.partition("=")[0], option):
            return f"writes files whose names clearance does not list (-m {module})"
    return None


_DERIVERS: dict[str, Deriver] = {name: _decompressed for name in _SQUEEZERS}
_DERIVERS.update(
    {
        "curl": _curl,
        "wget": _wget,
        "wget2": _downloads,
        "aria2c": _downloads,
        "axel": _downloads,
        "http": _downloads,
        "https": _downloads,
        "xh": _downloads,
        "xhs": _downloads,
        "scp": _scp,
        "sftp": _scp,
        "docker": _copies_in(_remote, "a container's files"),
        "podman": _copies_in(_remote, "a container's files"),
        "kubectl": _copies_in(_remote, "a pod's files"),
        "oc": _copies_in(_remote, "a pod's files"),
        "aws": _copies_in(_bucket, "objects of a bucket", ("cp", "mv")),
        "gsutil": _copies_in(_bucket, "objects of a bucket", ("cp", "mv")),
        "gcloud": _copies_in(_bucket, "objects of a bucket", ("cp", "mv")),
        "rclone": _copies_in(_remote, "a remote's files"),
        "azcopy": _copies_in(_url, "a storage account's files"),
        "lftp": _session,
        "jar": _extractor(keys="x", bare=True),
        "ar": _extractor(keys="x", bare=True),
        "ptar": _extractor(keys="x", bare=True),
        "ptargrep": _extractor(always=True, reads="l"),
        "gpgtar": _extractor(keys="d", longs=("--decrypt", "--extract")),
        "gpg-zip": _extractor(keys="d", longs=("--decrypt",)),
        "install": _install,
        "virtualenv": _virtualenv,
        "cargo": _cargo,
        "deno": _deno,
        "composer": _composer,
        "corepack": _corepack,
        "poetry": _poetry,
        "conda": _conda,
        "mamba": _conda,
        "micromamba": _conda,
        "bundle": _bundle,
        "go": _go,
        "ginstall": _install,
        "lwp-download": _lwp_download,
        "mktemp": _mktemp,
        "pip": _pip,
        "pip3": _pip,
        "uv": _pip,
        "gem": _gem,
        "npm": _node_packages,
        "pnpm": _node_packages,
        "yarn": _node_packages,
        "bun": _node_packages,
        "split": _split,
        "gsplit": _split,
        "csplit": _split,
        "gcsplit": _split,
        "cabextract": _extractor(always=True, reads="lt"),
        "uudecode": _extractor(always=True),
        "unsquashfs": _extractor(always=True, reads="l"),
        "dpkg-deb": _extractor(
            keys="xXRe",
            longs=("--extract", "--vextract", "--raw-extract", "--control"),
            valued="Zz",
        ),
        "dpkg": _extractor(keys="xX", longs=("--extract", "--vextract")),
        "lha": _extractor(keys="xe", bare=True),
        "lhasa": _extractor(keys="xe", bare=True),
        "arj": _extractor(commands=("x", "e")),
        "unarj": _extractor(always=True),
        "unace": _extractor(commands=("x", "e")),
        "aunpack": _extractor(always=True),
        "atool": _extractor(keys="xX"),
        "dtrx": _extractor(always=True),
        "unp": _extractor(always=True),
        "xar": _extractor(keys="x"),
        "bsdcpio": _extractor(keys="ip"),
    }
)
_DERIVERS.update({name: _checkout for name in ("svn", "hg", "bzr", "fossil", "s3cmd")})
for _name in ("ftp", "tftp", "smbclient", "unison"):
    _DERIVERS[_name] = _session
for _python in PYTHONS:
    _DERIVERS[_python] = _python_module
NAMES = frozenset(_DERIVERS) | {"patch"}
