"""``clearance completion bash|zsh|fish``: a completion script, generated from the command table."""

from __future__ import annotations

import sys

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args, Command

__all__ = ["SHELLS", "run_completion", "script"]

SHELLS = ("bash", "zsh", "fish")


def _words(command: Command) -> list[str]:
    words = ["--help"] + [o.name for o in command.options]
    for metavar, _, _ in command.positionals:
        if metavar == "HOST":
            from clearance.cli.hook import HOSTS

            words.extend(HOSTS)
        elif metavar == "SHELL":
            words.extend(SHELLS)
    return words


def _sh_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _bash(commands: tuple[Command, ...]) -> str:
    cases = "\n".join(f'        {c.name}) opts="{" ".join(_words(c))}" ;;' for c in commands)
    names = " ".join(c.name for c in commands)
    return f"""# clearance completion for bash: eval "$(clearance completion bash)"
_clearance() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} opts
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "{names} --help --version" -- "$cur"))
        return
    fi
    case "${{COMP_WORDS[1]}}" in
{cases}
        *) opts="" ;;
    esac
    case "${{COMP_WORDS[COMP_CWORD-1]}}" in
        --cwd|--dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --config|--file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}}
complete -F _clearance clearance
"""


def _zsh(commands: tuple[Command, ...]) -> str:
    names = " ".join(_sh_quote(f"{c.name}:{c.summary}") for c in commands)
    cases = "\n".join(f"        {c.name}) opts=({' '.join(_words(c))}) ;;" for c in commands)
    return f"""#compdef clearance
# clearance completion for zsh: save as _clearance in a directory of $fpath
_clearance() {{
    local -a commands opts
    commands=({names})
    if (( CURRENT == 2 )); then
        _describe 'command' commands
        return
    fi
    case $words[2] in
{cases}
    esac
    case $words[CURRENT-1] in
        --cwd|--dir) _files -/; return ;;
        --config|--file) _files; return ;;
        --color) compadd auto always never; return ;;
    esac
    compadd -- $opts
}}
_clearance "$@"
"""


def _fish(commands: tuple[Command, ...]) -> str:
    lines = ["# clearance completion for fish: save as ~/.config/fish/completions/clearance.fish"]
    lines.append("complete -c clearance -f")
    for c in commands:
        summary = _fish_quote(c.summary)
        lines.append(f"complete -c clearance -n __fish_use_subcommand -a {c.name} -d {summary}")
        for option in c.options:
            flag = option.name[2:]
            text = _fish_quote(option.help)
            extra = ""
            if option.kind == "dir":
                extra = " -r -a '(__fish_complete_directories)'"
            elif option.choices is not None:
                extra = f" -r -a '{' '.join(option.choices)}'"
            elif option.metavar is not None:
                extra = " -r"
            lines.append(
                f"complete -c clearance -n '__fish_seen_subcommand_from {c.name}' "
                f"-l {flag} -d {text}{extra}"
            )
        positional = [w for w in _words(c) if not w.startswith("-")]
        if positional:
            lines.append(
                f"complete -c clearance -n '__fish_seen_subcommand_from {c.name}' "
                f"-a '{' '.join(positional)}'"
            )
    return "\n".join(lines) + "\n"


def script(shell: str) -> str:
    from clearance.cli._commands import COMMANDS

    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](COMMANDS)


def run_completion(args: Args) -> int:
    shell = args.positionals[0] if args.positionals else ""
    if shell not in SHELLS:
        from clearance.cli._args import suggest

        raise UsageError(f"no completion for {shell!r}; choose bash, zsh or fish"
                         f"{suggest(shell, SHELLS)}")  # fmt: skip
    sys.stdout.write(script(shell))
    return 0
