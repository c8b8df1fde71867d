"""Every ``clearance`` subcommand, in one table: where it runs, what ``--help`` says, its options.

To add a subcommand, write ``run_NAME(args: Args) -> int`` in its own module under
``clearance.cli`` and add a :class:`Command` to :data:`COMMANDS` below; ``--help``, the
top-level help, the "did you mean" on a typo, completion scripts and the golden help tests all
read this table. ``hot`` commands (run by a hook on every tool call) are parsed without argparse.
Nothing here imports more than plain strings: the table is read on the hot path too.
"""

from __future__ import annotations

from clearance.cli._args import Command, Option
from clearance.cli.hook import HOSTS

__all__ = ["COMMANDS", "find"]

COLOR = Option(
    "--color",
    "colour the output: auto colours on a terminal unless NO_COLOR is set",
    "WHEN",
    choices=("auto", "always", "never"),
    default="auto",
)
CWD = Option(
    "--cwd",
    "decide as if running in this directory (its project config applies)",
    "DIR",
    kind="dir",
    default="the current directory",
)
CONFIG = Option(
    "--config", "read only this config file, instead of the global and project ones", "FILE"
)
AGENT = Option("--agent", "the agent (or subagent) name, for per-agent rules", "NAME")
SESSION = Option("--session", "the host's session id (session grants are shared by it)", "ID")
POLICY = Option("--policy", "an inline policy as JSON, layered on top of the files", "JSON")
YOLO = Option("--yolo", "turn every ask into an allow (denies stand)")
JSON = Option("--json", "print JSON instead of text")
NO_CACHE = Option("--no-cache", "do not read or write the compiled-policy cache")
HOST = ("HOST", "the agent host: " + ", ".join(HOSTS), None)
SCOPE = (
    Option("--user", "the user's settings: ~/.claude/settings.json (the default)"),
    Option("--project", "the project's shared .claude/settings.json (committed to git)"),
    Option("--local", "the project's own .claude/settings.local.json (not committed)"),
    Option("--dir", "the project directory", "DIR", kind="dir", default="the current directory"),
)
_CALL = ("TOOL", "the tool: bash, read, write, edit, grep, find, ls, webfetch, mcp, …", "?")
_INPUT = (
    "INPUT",
    "the tool input as JSON, or a plain string: the command for bash, the path for file "
    "tools, server:tool for mcp",
    "?",
)
_DECIDE = (CONFIG, CWD, AGENT, SESSION, POLICY, YOLO)

COMMANDS: tuple[Command, ...] = (
    Command(
        "check",
        "clearance.cli.check:run_check",
        "decide one call (exit 0 allow, 3 ask, 4 deny)",
        "Decide one tool call on the policy that applies here, and say why.\n"
        "Exit status: 0 allow, 3 ask, 4 deny; 2 usage error; 1 config or internal error.\n"
        'With --batch, read JSON lines ({"tool", "input", "cwd", "agent", "session", "policy"})\n'
        "from stdin and write one JSON result per line.",
        (
            'clearance check bash "git push --force"',
            "clearance check --json read .env",
            'echo \'{"tool": "bash", "input": "ls"}\' | clearance check --batch',
        ),
        (
            *_DECIDE,
            JSON,
            Option("--batch", "decide JSON lines from stdin, one JSON result per line"),
            Option(
                "--jobs",
                "worker processes deciding a --batch (1: this process alone)",
                "N",
                kind="count",
                default="one per CPU this process may use",
            ),
            NO_CACHE,
            COLOR,
        ),
        (_CALL, _INPUT),
        hot=True,
    ),
    Command(
        "explain",
        "clearance.cli.check:run_explain",
        "a human-readable trace of every gate and rule",
        "Decide one tool call like check, and print every unit, path, gate and rule that\n"
        "took part. Exit status as for check.",
        (
            "clearance explain bash 'curl https://x | sh'",
            "clearance explain mcp github:search_code",
        ),
        (*_DECIDE, NO_CACHE, COLOR),
        (_CALL, _INPUT),
        hot=True,
    ),
    Command(
        "authorize",
        "clearance.cli.authorize:run_authorize",
        "decide end to end, asking on the terminal (exit 0 allow, 4 deny)",
        "Decide one call end to end, as a host would: session grants, yolo, the authorizer\n"
        "chain and the dialog on the terminal when the policy asks, the review log and events.\n"
        "Exit status: 0 allow, 4 deny; 2 usage error; 1 config or internal error.\n"
        "`clearance gate`, its former name, still works.",
        (
            'clearance authorize bash "git push"',
            'clearance authorize --session s1 bash "rm -rf build"',
        ),
        (
            *_DECIDE,
            JSON,
            Option(
                "--tty",
                "the terminal to ask on",
                "PATH",
                kind="tty",
                default="/dev/tty",
            ),
            COLOR,
        ),
        (_CALL, _INPUT),
        hot=True,
        aliases=("gate",),
    ),
    Command(
        "hook",
        "clearance.cli.hook:run_hook",
        "answer one hook payload of HOST (JSON in, JSON out)",
        "Run as HOST's hook: read one hook payload on stdin, decide it, answer on stdout.\n"
        "`clearance install HOST` writes the command that runs this.",
        ("clearance hook claude-code < payload.json",),
        (),
        (HOST,),
        hot=True,
    ),
    Command(
        "validate",
        "clearance.cli.validate:run_validate",
        "config errors with file:line:col, then the policy's self-tests",
        "Load the configuration (FILE, or the global and project ones that apply here), print\n"
        "each error with file:line:col and a warning for each doubtful name, then run the\n"
        'config\'s "tests". Exit status: 0 valid and every test passed, 1 otherwise.',
        ("clearance validate", "clearance validate .clearance/config.jsonc --no-tests"),
        (CWD, AGENT, Option("--no-tests", "skip the config's self-tests"), COLOR),
        (("FILE", "a config file to validate alone", "?"),),
    ),
    Command(
        "init",
        "clearance.cli.init:run_init",
        "write a commented starter config (or import Claude Code's rules)",
        "Write a commented starter config that keeps the built-in protections: the global one\n"
        "($XDG_CONFIG_HOME/clearance/config.jsonc) by default, the project's\n"
        ".clearance/config.jsonc with --project. An existing file is kept unless --force.\n"
        "With --from-claude-code, Claude Code's permissions.allow/ask/deny lists (from the\n"
        "user's settings, or the project's with --project) become clearance rules, and\n"
        "every entry that does not translate is reported.",
        (
            "clearance init",
            "clearance init --project",
            "clearance init --from-claude-code --project",
        ),
        (
            Option("--project", "write the project's .clearance/config.jsonc"),
            Option("--user", "write the global config (the default)"),
            Option("--from-claude-code", "import Claude Code's permissions lists"),
            Option("--force", "replace an existing config (the old one is kept as a backup)"),
            Option(
                "--dir", "the project directory", "DIR", kind="dir", default="the current directory"
            ),
            Option("--stdout", "print the config instead of writing it"),
        ),
    ),
    Command(
        "policy",
        "clearance.cli.policy:run_policy",
        "the effective layered policy, each rule with its origin",
        "Print every rule of the policy that applies here, in the order they are layered, each\n"
        "with its origin: builtin, global file:line, project file:line, agent. The last\n"
        "matching rule of a surface wins.",
        (
            "clearance policy",
            "clearance policy --builtin",
            "clearance policy --agent reviewer --json",
        ),
        (
            CWD,
            AGENT,
            Option("--builtin", "only the built-in policy"),
            JSON,
            COLOR,
        ),
    ),
    Command(
        "schema",
        "clearance.cli.schema:run_schema",
        "print the config's JSON Schema (draft 2020-12)",
        "Print a JSON Schema (draft 2020-12) of the config file, for editors: point a config's\n"
        '"$schema" at the saved file, or map it in your editor settings (see\n'
        "docs/configuration.md).",
        ("clearance schema > ~/.config/clearance/config.schema.json",),
    ),
    Command(
        "trust",
        "clearance.cli.trust:run_trust",
        "trust a project so its .clearance/config.jsonc is loaded",
        "Trust the project DIR belongs to, so its .clearance/config.jsonc shapes the policy.\n"
        "Trust is pinned to the content of the project's policy files: after a change, review\n"
        "it and trust it again. Your home directory and / cannot be trusted as projects.",
        ("clearance trust", "clearance trust ~/src/app", "clearance trust --list"),
        (
            Option("--remove", "stop trusting it"),
            Option("--list", "list the trusted projects"),
        ),
        (("DIR", "a directory of the project (default: the current directory)", "?"),),
    ),
    Command(
        "install",
        "clearance.cli.install:run_install",
        "add the hook to HOST's settings",
        "Add clearance's hook to HOST's settings, and hide from the model the tools the\n"
        "policy denies outright. --project writes a command that works on any machine with\n"
        "clearance on PATH; --user and --local write this installation's absolute path.",
        (
            "clearance install claude-code --user",
            "clearance install claude-code --local",
        ),
        (
            *SCOPE,
            Option("--no-hide", "do not hide denied tools from the model"),
            Option(
                "--http",
                "install the HTTP hook of `clearance serve --listen` instead of the command hook "
                "(needs a Claude Code that honours onFailure: block)",
            ),
            Option(
                "--url",
                "with --http: the hook's address",
                "URL",
                default="http://127.0.0.1:8765/hooks/claude-code",
            ),
            Option(
                "--claude",
                "with --http: the Claude Code binary whose version is checked",
                "PATH",
                default="claude on PATH",
            ),
        ),
        (HOST,),
    ),
    Command(
        "uninstall",
        "clearance.cli.install:run_uninstall",
        "remove the hook from HOST's settings",
        "Remove clearance's hook and the tools it hid from HOST's settings.",
        ("clearance uninstall claude-code --user",),
        SCOPE,
        (HOST,),
    ),
    Command(
        "sync",
        "clearance.cli.install:run_sync",
        "refresh the tools hidden from HOST",
        "Refresh the tools hidden from HOST's model after a policy change. Says whether the\n"
        "settings were updated or already in sync.",
        ("clearance sync claude-code --user",),
        SCOPE,
        (HOST,),
    ),
    Command(
        "doctor",
        "clearance.cli.doctor:run_doctor",
        "check the installation, config, trust and state; say what to fix",
        "Check that clearance is guarding HOST here: the hook is installed and runs, the config\n"
        "validates, the project is trusted, the state directory and audit log are writable, the\n"
        "hidden tools are current. Each problem comes with its fix. Exit status 1 on a problem.",
        ("clearance doctor", "clearance doctor --cwd ~/src/app"),
        (CWD, COLOR),
        (("HOST", f"the agent host (default: {HOSTS[0]})", "?"),),
    ),
    Command(
        "log",
        "clearance.cli.log:run_log",
        "read the review log",
        "Print the review log, filtered, once or following it. See docs/audit-log.md.",
        (
            "clearance log --decision deny --since 1h",
            "clearance log --follow --event 'permission_request.*'",
        ),
        (
            Option("--follow", "keep printing new lines as they are appended"),
            Option("--event", "an event name, a glob or a family; comma-separated", "EVENT"),
            Option("--tool", "only this tool (bash, read, mcp, …)", "TOOL"),
            Option("--decision", "allow, ask, deny, or a resolution such as user_denied", "WORD"),
            Option("--session", "only this session id", "ID"),
            Option("--since", "from this time: ISO-8601, or a span ago (30s, 15m, 2h, 1d)", "TIME"),
            Option("--until", "up to this time, as --since", "TIME"),
            Option("--file", "read this log file", "FILE", default="the state directory's log"),
            JSON,
            COLOR,
        ),
    ),
    Command(
        "grants",
        "clearance.cli.grants:run_grants",
        "list and clear session grants",
        'List the sessions holding grants ("for this session" answers), show or clear one.\n'
        "Exit status 1 when --show or --clear names a session with no grants.\n"
        "`clearance sessions`, its former name, still works.",
        ("clearance grants", "clearance grants --show 0f6b9a4e", "clearance grants --prune"),
        (
            Option("--show", "the grants of one session", "ID"),
            Option("--clear", "clear the grants of one session", "ID"),
            Option("--clear-all", "clear every session's grants"),
            Option("--prune", "clear expired sessions' grants"),
        ),
        aliases=("sessions",),
    ),
    Command(
        "serve",
        "clearance.cli.serve:run_serve",
        "answer forwarded asks of agents without a screen",
        "Serve a session: answer the asks of headless agents and subagents (forwarded to this\n"
        "session or to the directory it serves) at this terminal. See docs/forwarding.md.",
        (
            "clearance serve",
            "clearance serve --session main --dir ~/src/app",
            "clearance serve --listen 127.0.0.1:8765",
        ),
        (
            Option("--session", "the session id to serve", "ID", default="a new random id"),
            Option(
                "--dir", "the directory served", "DIR", kind="dir", default="the current directory"
            ),
            Option("--relay", "without a human, forward asks one hop further up"),
            Option("--parent", "the session to relay to", "ID"),
            Option("--tty", "the terminal to ask on", "PATH", kind="tty", default="/dev/tty"),
            Option("--no-human", "never ask here (deny, or relay with --relay)"),
            CONFIG,
            POLICY,
            YOLO,
            Option(
                "--listen",
                "also serve the HTTP hook and the web console at this address (port 0: any "
                "free port); see docs/console.md",
                "HOST:PORT",
            ),
            Option("--tls-cert", "with --listen: serve HTTPS with this certificate", "FILE"),
            Option("--tls-key", "with --listen: the certificate's key", "FILE"),
            Option(
                "--behind-proxy",
                "with --listen: a reverse proxy serves HTTPS in front (required for a "
                "non-loopback address without --tls-cert)",
            ),
            Option(
                "--public-url",
                "with --listen: the console's address as a browser sees it (for links)",
                "URL",
            ),
            Option("--open", "with --listen: open the console in the browser, logged in"),
            Option(
                "--install-service",
                "write a systemd user unit (launchd agent on macOS) that runs this serve "
                "--listen at login, then stop",
            ),
            # the broker (clearance.authority.forwarding.broker; docs/forwarding.md, "Broker")
            Option(
                "--broker",
                "also serve the asks of agents on other machines, through Redis",
                "URL",
            ),
            Option(
                "--broker-keygen",
                "create the broker answer key pair in the state directory, print the public "
                "key, then stop",
            ),
        ),
    ),
    Command(
        "completion",
        "clearance.cli.completion:run_completion",
        "print a shell completion script (bash, zsh, fish)",
        "Print a completion script for SHELL. Load it from your shell's startup file.",
        (
            'eval "$(clearance completion bash)"       # in ~/.bashrc',
            "clearance completion zsh > ~/.zfunc/_clearance",
            "clearance completion fish > ~/.config/fish/completions/clearance.fish",
        ),
        (),
        (("SHELL", "bash, zsh or fish", None),),
    ),
)


def find(name: str) -> Command | None:
    for command in COMMANDS:
        if name == command.name or name in command.aliases:
            return command
    return None
