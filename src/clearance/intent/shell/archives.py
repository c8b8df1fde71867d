"""What ``tar -x`` and ``unzip`` extract: the members of the archive, listed (bounded), land
beneath the directory they extract into (``clearance.intent.shell.trees``; ADR 0045).

An archive is listed only when nothing earlier in the line may write it, it is no larger than
:data:`_ARCHIVE_BYTES`, and the options change nothing about where members land; a member that
is a link (a later member may write through it), absolute or climbing out makes the names not
known. What is listed is the archive as it is when the line is decided: one rewritten between
then and the extraction, by a process already running, is a residual.
"""

from __future__ import annotations

import os

from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from clearance.intent.shell.line import Line

    # What an extraction lands: (the directory, the names beneath it), or why that is not
    # known (a sentence), or None: nothing is extracted.
    Landing = tuple[str, list[str]] | str | None

__all__ = ["tar", "unzip"]

_ARCHIVE_BYTES = 256 << 20  # a larger archive is not listed
# tar options that change nothing about where members land (short letters, long names).
_TAR_SHORT_PLAIN = frozenset("xvzjJpokmUwWa")
_TAR_LONG_PLAIN = frozenset({
    "--extract", "--get", "--verbose", "--gzip", "--gunzip", "--bzip2", "--xz", "--lzma",
    "--preserve-permissions", "--same-owner", "--no-same-owner", "--keep-old-files",
    "--skip-old-files", "--overwrite", "--touch", "--unlink-first", "--same-permissions",
    "--no-same-permissions", "--auto-compress",
})  # fmt: skip
_UNZIP_PLAIN = frozenset("oqnuf")
_UNZIP_READS = frozenset("ltvZpc")  # list, test, print: nothing is written


def tar(line: Line, values: Sequence[str | None], base: str | None, budget: int) -> Landing:
    """``tar -x``: the members of the archive, listed, land beneath ``-C`` (else here)."""
    extract = unusual = False
    files: list[str | None] = []  # -f, --file: the archive
    dirs: list[str | None] = []  # -C, --directory: where members land
    rest = list(values)
    if rest and rest[0] is not None and rest[0][:1] not in ("-", "") and "x" in rest[0]:
        # `tar xf a.tar`: the first word is a cluster of letters, each valued one taking the
        # next words in turn (followed here for one)
        unusual = sum(rest[0].count(letter) for letter in "fCbTXgKNVLH") > 1
        rest[0] = "-" + rest[0]
    i = 0
    while i < len(rest):
        value = rest[i]
        i += 1
        if value is None:
            unusual = True
            continue
        if value[:2] == "--":
            key, eq, given = value.partition("=")
            if key in ("--extract", "--get"):
                extract = True
            elif key in ("--file", "--directory"):
                (files if key == "--file" else dirs).append(
                    given if eq else (rest[i] if i < len(rest) else None)
                )
                i += 0 if eq else 1
            elif key not in _TAR_LONG_PLAIN:
                unusual = True
            continue
        if value[:1] != "-" or len(value) < 2:
            continue  # a member to extract: the listing holds it
        letters = value[1:]
        for j, letter in enumerate(letters):
            if letter == "x":
                extract = True
            elif letter in "fC":
                got = letters[j + 1 :] or (rest[i] if i < len(rest) else None)
                if not letters[j + 1 :]:
                    i += 1
                (files if letter == "f" else dirs).append(got)
                break
            elif letter not in _TAR_SHORT_PLAIN:
                unusual = True
    if not extract:
        return None
    archive = files[0] if len(files) == 1 else None
    directory = dirs[0] if dirs else None
    unusual = unusual or len(dirs) > 1 or None in dirs
    if unusual or archive is None or archive == "-":
        return "extracts an archive with options or input clearance does not follow"
    return _members(line, archive, directory, base, budget, _tar_members)


def unzip(line: Line, values: Sequence[str | None], base: str | None, budget: int) -> Landing:
    archive: str | None = None
    directory: str | None = None
    i = 0
    while i < len(values):
        value = values[i]
        i += 1
        if value is None:
            return "extracts with a computed word"
        if value == "-d":
            directory = values[i] if i < len(values) else None
            i += 1
            if directory is None:
                return "extracts into a computed directory"
        elif value[:1] == "-":
            if not _UNZIP_READS.isdisjoint(value[1:]):
                return None  # lists, tests or prints the members: writes none of them
            if not set(value[1:]) <= _UNZIP_PLAIN:
                return "extracts an archive with options clearance does not follow"
        elif archive is None:
            archive = value
    if archive is None:
        return None
    return _members(line, archive, directory, base, budget, _zip_members)


def _members(
    line: Line,
    archive: str,
    directory: str | None,
    base: str | None,
    budget: int,
    lister: Callable[[str, int], list[str] | None],
) -> Landing:
    path = absolute(archive, base)
    place = absolute(directory if directory is not None else ".", base)
    if path is None or place is None:
        return "extracts an archive from or into a directory not known"
    if line.wrote(path, archive) or line.under(path) or line.overflow:
        return f"extracts {archive}, which the line itself may write first"
    if not os.path.lexists(path):
        return None  # no archive, and the line makes none first: nothing is extracted
    try:
        if os.path.getsize(path) > _ARCHIVE_BYTES:
            return f"extracts {archive}, larger than clearance lists"
        names = lister(path, budget)
    except Exception:  # any archive clearance cannot read is not listed
        names = None
    if names is None:
        return f"extracts {archive}, whose members clearance cannot list"
    return place, names


def _safe(name: str) -> str | None:
    """A member's landing name (``""``: the directory itself), or ``None`` when it is
    absolute or climbs out."""
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if name[:1] == "/" or ".." in parts:
        return None
    return "/".join(parts)


def _tar_members(path: str, budget: int) -> list[str] | None:
    import tarfile

    with tarfile.open(path, "r:*") as archive:
        return _landing(((m.name, m.issym() or m.islnk()) for m in archive), budget)


def _zip_members(path: str, budget: int) -> list[str] | None:
    import stat
    import zipfile

    with zipfile.ZipFile(path) as archive:
        entries = archive.infolist()
        return _landing(((i.filename, stat.S_ISLNK(i.external_attr >> 16)) for i in entries),
                        budget)  # fmt: skip


def _landing(members: Iterable[tuple[str, bool]], budget: int) -> list[str] | None:
    """The landing names of ``members`` (name, whether a link), or ``None`` past ``budget``,
    at a link (a later member may write through it), or at a name absolute or climbing out."""
    out: list[str] = []
    for member, link in members:
        name = _safe(member)
        if len(out) >= budget or link or name is None:
            return None
        if name:
            out.append(name)
    return out
