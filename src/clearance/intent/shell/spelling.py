"""Extra spellings of a unit a rule may match (docs/shell-analysis.md, "Paths").

* The *absolute spelling*: every literal, path-shaped argument (or bare argument naming an
  existing entry) replaced by its absolute path against the effective directory, quotes removed;
  all at once. Computed and glob-bearing arguments stay as typed; relative ones are not spelled
  when the effective directory is unknown.
* *Home spellings*: a unit whose text starts with ``~``, ``$HOME``, ``${HOME}`` or the absolute
  home directory is also spelled with each of the other three prefixes, unless the program
  reassigns ``HOME``. Home prefixes in argument position are matched as typed only.
"""

from __future__ import annotations

from clearance.intent.shell.token import absolute, path_shaped

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.shell.word import Word

__all__ = ["spellings"]


def spellings(
    text: str,
    words: Sequence[Word],
    base: str | None,
    home: str,
    home_ok: bool,
    exists: Callable[[str], bool],
    script: int = 0,
) -> tuple[str, ...]:
    """The extra spellings of the unit ``text`` made of ``words`` (never ``text`` itself).
    ``script``: the index of a shell's ``-c`` script among ``words`` (0: none), a string of
    commands and no path operand, so never spelled as one (nor looked up on disk)."""
    spelled = _absolute(words, base, exists, script) if len(words) > 1 else None
    if not (home_ok and home and text[:1] in ("~", "$", "/")):
        return () if spelled is None or spelled == text else (spelled,)
    out: list[str] = []
    if spelled is not None and spelled != text:
        out.append(spelled)
    for variant in _home(text, home):
        if variant != text and variant not in out:
            out.append(variant)
    return tuple(out)


def _absolute(
    words: Sequence[Word], base: str | None, exists: Callable[[str], bool], script: int
) -> str | None:
    """``exists`` never raises (the analysis wraps it)."""
    parts: list[str] | None = None  # made at the first word that changes
    for i in range(1, len(words)):
        word = words[i]
        value = word.value
        replacement = None
        if value and not word.glob and value[0] != "-" and "\n" not in value and i != script:
            first = value[0]
            if "/" in value or path_shaped(value):
                if first != "~":
                    replacement = absolute(value, base)
            elif base is not None:
                if value == ".":
                    candidate = absolute(value, base)
                else:  # a bare name: `absolute` would only join it
                    candidate = base + "/" + value if base != "/" else "/" + value
                if candidate is not None and exists(candidate):
                    replacement = candidate
        if replacement is not None:
            if parts is None:
                parts = [words[0].raw, *[w.sep + w.raw for w in words[1:i]]]
            parts.append(word.sep + replacement)
        elif parts is not None:
            parts.append(word.sep + word.raw)
    return "".join(parts) if parts is not None else None


def _home(text: str, home: str) -> list[str]:
    if text[:1] not in ("~", "$", "/"):
        return []  # no home prefix can start it
    home = home.rstrip("/") or "/"
    prefixes = ("~", "$HOME", "${HOME}", home)
    for prefix in prefixes:
        if text.startswith(prefix):
            rest = text[len(prefix) :]
            if rest[:1] in ("", "/", " ", "\t"):
                return [other + rest for other in prefixes if other != prefix]
    return []
