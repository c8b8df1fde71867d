"""Command rules meet a unit's operands as the links planted before the line resolve them
(docs/configuration.md, "Command rules"): attacks and their benign twins under the guard
(``examples/policies/guard.jsonc``) and the built-in policy, in a scratch directory under
``/tmp`` holding real links."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.path import through_plantable_links

GUARD = Path(__file__).resolve().parents[2] / "examples" / "policies" / "guard.jsonc"

# (line, guard's answer, the built-in policy's answer); T is a scratch directory under /tmp in
# which l -> /, e -> /etc, u -> /usr, s -> T/scratch (a plain directory), x/etc a real
# directory, and f -> /etc/hosts.
ATTACKS = [
    ("rm -rf T/l/etc", "deny", "deny"),
    ("rm -r -f T/l/usr", "deny", "deny"),
    ("rm --recursive --force T/l/home", "deny", "deny"),
    ("rm -rf T/l/", "deny", "deny"),  # a trailing slash follows the link itself
    ("rm -rf T/l/.", "deny", "deny"),
    ("cd T && rm -rf l/etc", "deny", "deny"),
    ("rm -rf T/l*/etc", "deny", "deny"),  # the glob's match is followed too
    ("true && rm -rf T/l/bin", "deny", "deny"),
    ("rm -rf T/s/../l/etc", "deny", "deny"),
    # A wrapped command's words are the wrapper's unit's paths.
    ("nice rm -rf T/l/etc", "deny", "deny"),
    ("timeout 5 rm -rf T/l/etc", "deny", "deny"),
    ("time rm -rf T/l/etc", "deny", "deny"),
    ("sudo rm -rf T/l/etc", "deny", "deny"),
    ("env rm -rf T/l/etc", "deny", "deny"),
    # A brace expansion's words, a computed word beside, an option's glued value.
    ("rm -rf T/{l,s}/etc", "deny", "deny"),
    ("cd T && rm -rf {l,s}/etc", "deny", "deny"),
    ('rm -rf T/l/etc "$X"', "deny", "deny"),
    ("dd if=/dev/zero of=T/l/dev/sda", "deny", "ask"),
    # A path an earlier unit names too is one fact, met by the later unit's own words.
    ("ls T/e && rm -rf T/e/", "deny", "deny"),
    ("ls T/l/etc && rm -rf T/l/etc T/s/build", "deny", "deny"),
    # A link the line itself makes before the removal.
    ("ln -s / T/m && rm -rf T/m/etc", "deny", "deny"),
    ("ln -s ../../.. T/m && rm -rf T/m/etc", "deny", "deny"),
    ("ln -s / T/m; rm -rf T/m/", "deny", "deny"),  # the word reaches `/`, which ln names too
    ("ln -s /etc T/m && rm -rf T/m/.", "deny", "deny"),
    ("ln -s / T/m && rm -rf T/m*/etc", "deny", "deny"),
    ("rm -rf T/h/", "deny", "deny"),  # h -> the home directory, spelled ~
    ("export HOME=/usr; rm -r ~", "deny", "deny"),  # `~` is no longer the home: unknown
]
BENIGN = [
    ("rm -rf T/l", "allow", "ask"),  # removes the link, not what it points to
    ("rm -rf T/x/etc", "allow", "ask"),  # a real directory named etc
    ("rm -rf T/s/build", "allow", "ask"),  # a link the agent made to its own scratch
    # the link moved makes every name beneath the root reachable under T/m, more than clearance
    # lists (ADR 0045)
    ("mv T/l T/m", "ask", "ask"),
    ("ls T/l/etc", "allow", "ask"),
    ("cat T/f", "allow", "ask"),
    ("nice rm -rf T/s/build", "allow", "ask"),
    ("rm -rf T/{s,x}/build", "allow", "ask"),
    ("dd if=/dev/zero of=T/s/img", "allow", "ask"),
    # removes the link, not the directory (/usr: /etc may hold a pip.conf, whose name the
    # removal of a link to it takes away, which asks as for every file that runs code later)
    ("ls T/u && rm -rf T/u", "allow", "ask"),
    ("ln -s /etc/ssl T/m && rm -rf T/m", "allow", "ask"),
    ("rm -rf T/h", "allow", "ask"),
]


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[dict[str, Engine], str, str]]:
    scratch = Path(tempfile.mkdtemp(prefix="clearance-links-", dir="/tmp"))
    root = Path(tempfile.mkdtemp(prefix="clearance-links-home-"))
    try:
        (scratch / "l").symlink_to("/")
        (scratch / "e").symlink_to("/etc")
        (scratch / "u").symlink_to("/usr")
        (scratch / "scratch" / "build").mkdir(parents=True)
        (scratch / "s").symlink_to(scratch / "scratch")
        (scratch / "x" / "etc").mkdir(parents=True)
        (scratch / "f").symlink_to("/etc/hosts")
        project = root / "project"
        (root / "home").mkdir()
        (scratch / "h").symlink_to(root / "home")
        (project / ".git").mkdir(parents=True)
        env = {"HOME": str(root / "home"), "CLEARANCE_HOME": str(root / "state")}
        engines = {
            "guard": Engine.load(cwd=str(project), policy=GUARD.read_text(), env=env),
            "builtin": Engine.load(cwd=str(project), env=env),
        }
        yield engines, str(scratch), str(project)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)


def _decide(world: tuple[dict[str, Engine], str, str], policy: str, line: str) -> str:
    engines, scratch, project = world
    command = line.replace("T/", scratch + "/").replace("cd T ", f"cd {scratch} ")
    return engines[policy].check(ToolCall("bash", {"command": command}, project)).action


@pytest.mark.parametrize(("line", "guard", "builtin"), ATTACKS + BENIGN)
def test_a_link_planted_before_the_line_meets_the_rules_for_its_target(
    world: tuple[dict[str, Engine], str, str], line: str, guard: str, builtin: str
) -> None:
    engines, scratch, project = world
    c = line.replace("T/", scratch + "/")
    print(engines["guard"].check(ToolCall("bash", {"command": c}, project)).reason)
    assert (_decide(world, "guard", line), _decide(world, "builtin", line)) == (guard, builtin)


def test_the_reason_names_the_spelling_through_the_link(
    world: tuple[dict[str, Engine], str, str],
) -> None:
    engines, scratch, project = world
    call = ToolCall("bash", {"command": f"rm -rf {scratch}/l/etc"}, project)
    assert 'through a link: "rm -rf /etc"' in engines["guard"].check(call).reason


def test_links_are_resolved_as_the_kernel_walks_them(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "up").symlink_to("a/b/..")  # a relative target with a climb in it
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    base = os.path.realpath(tmp_path)
    assert through_plantable_links(f"{base}/up/b", follow_last=False) == f"{base}/a/b"
    assert through_plantable_links(f"{base}/up", follow_last=False) == f"{base}/up"
    assert through_plantable_links(f"{base}/up", follow_last=True) == f"{base}/a"
    assert through_plantable_links(f"{base}/missing/x", follow_last=True) == f"{base}/missing/x"
    # A loop ends in the kernel's answer instead of spinning.
    assert through_plantable_links(f"{base}/loop/x", follow_last=True)


@pytest.mark.skipif(os.geteuid() == 0, reason="root could have planted any link")
def test_a_link_no_user_could_plant_is_kept_as_typed() -> None:
    # `/bin -> usr/bin` on a merged-/usr system: root's, in a directory a user cannot write.
    if not os.path.islink("/bin"):
        pytest.skip("/bin is not a link here")
    assert through_plantable_links("/bin/sh", follow_last=True).startswith("/bin/")


def test_a_rule_for_the_word_as_typed_still_speaks(tmp_path: Path) -> None:
    """The absolute spelling of a word with no link on it is one more spelling, not a tighter
    one: the rule written for the word as typed, later in the list, still decides."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "node_modules").mkdir()
    (project / "build").mkdir()
    (project / "build" / "a.o").write_text("x")
    policy = """{"permission": {"bash": {"*": "allow", "rm [-r -f] *": "deny",
      "rm [-r -f] node_modules": "allow", "rm [-r -f] build/*": "allow"}}}"""
    env = {"HOME": str(tmp_path / "home"), "CLEARANCE_HOME": str(tmp_path / "state")}
    engine = Engine.load(cwd=str(project), policy=policy, env=env)

    def decide(line: str) -> str:
        return engine.check(ToolCall("bash", {"command": line}, str(project))).action

    assert decide("rm -rf node_modules") == "allow"
    assert decide("rm -rf build/*") == "allow"
    assert decide("rm -rf build") == "deny"
    # ... while the built-in denies, last in the list, meet it: `usr` in `/` is /usr.
    assert decide("cd / && rm -r usr") == "deny"
    assert decide("rm -r /tmp/../etc") == "deny"


def test_a_project_behind_a_link_keeps_its_rules_for_words_as_typed(tmp_path: Path) -> None:
    """A link on the way to the working directory the host gave is the session's place: a
    relative word under it is spelled through it as one more spelling, not a tighter one."""
    data = tmp_path / "data" / "proj"
    (data / ".git").mkdir(parents=True)
    (data / "node_modules").mkdir()
    (tmp_path / "work").symlink_to(tmp_path / "data")
    project = tmp_path / "work" / "proj"
    policy = """{"permission": {"bash": {"*": "allow", "rm [-r -f] *": "deny",
      "rm [-r -f] node_modules": "allow"}}}"""
    env = {"HOME": str(tmp_path / "home"), "CLEARANCE_HOME": str(tmp_path / "state")}
    engine = Engine.load(cwd=str(project), policy=policy, env=env)

    def decide(line: str) -> str:
        return engine.check(ToolCall("bash", {"command": line}, str(project))).action

    assert decide("rm -rf node_modules") == "allow"
    assert decide("rm -rf src") == "deny"
