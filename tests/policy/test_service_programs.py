"""The option table's cloud, backup, database, disk and server tools
(``clearance.policy.programs_services``): a command rule about one of them meets every spelling
of its options, finds the subcommand behind the tool's own value-taking options, and never takes
an option's value for an operand or an option."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.policy.command_rule import CommandPattern, parse_argv
from clearance.policy.programs import PROGRAMS
from clearance.policy.programs_services import SERVICE_PROGRAMS


def meets(pattern: str, argv: list[str], action: str = "deny") -> bool:
    compiled = CommandPattern(pattern, action)
    found = parse_argv(argv)
    assert found is not None
    name, parsed = found
    return name == compiled.program and compiled.match(parsed)


def test_the_service_tools_are_in_the_one_table() -> None:
    for name, program in SERVICE_PROGRAMS.items():
        assert PROGRAMS[name] is program


@pytest.mark.parametrize(
    ("pattern", "argv", "expected"),
    [
        # the tool's own options before the subcommand, and where the tool allows them after
        ("aws s3 rm [--recursive] *", ["aws", "--profile", "prod", "s3", "rm", "s3://b", "--recursive"], True),
        ("aws s3 rm [--recursive] *", ["aws", "s3", "rm", "s3://b", "--region", "eu-west-1"], False),
        ("aws s3 rm [--recursive] *", ["aws", "s3", "rm", "s3://b", "--exclude", "--recursive"], False),
        ("aws [] delete-*", ["aws", "--region", "us-east-1", "sqs", "delete-queue", "--queue-url", "q"], True),
        ("gcloud [] delete", ["gcloud", "--project", "p", "storage", "buckets", "delete", "gs://b"], True),
        ("az [] delete", ["az", "--subscription", "delete", "storage", "blob", "list"], False),
        ("gh repo delete [] *", ["gh", "-R", "owner/repo", "repo", "delete"], True),
        ("gh repo delete [] *", ["gh", "--repo=owner/repo", "repo", "delete", "--yes"], True),
        ("gh api [-X=DELETE] *", ["gh", "api", "-X", "DELETE", "repos/o/r"], True),
        ("gh api [-X=DELETE] *", ["gh", "api", "--method=DELETE", "repos/o/r"], True),
        ("gh api [-X=DELETE] *", ["gh", "api", "-XGET", "repos/o/r"], False),
        ("glab api [-X=DELETE] *", ["glab", "api", "--method", "DELETE", "projects/1"], True),
        ("restic forget [] *", ["restic", "-r", "/srv/repo", "forget"], True),
        ("restic forget [] *", ["restic", "-o", "s3.bucket=b", "forget", "--keep-last", "1"], True),
        ("restic forget [--dry-run] *", ["restic", "forget", "-n", "--prune"], True),
        ("vault secrets disable [] *", ["vault", "--namespace", "admin", "secrets", "disable", "kv/"], True),
        ("vault secrets disable [] *", ["vault", "-namespace=admin", "secrets", "disable", "kv/"], True),
        ("vault kv destroy [] *", ["vault", "kv", "destroy", "-mount", "secret", "app"], True),
        ("rclone [--dry-run] *", ["rclone", "sync", "-n", "a:", "b:"], True),
        ("borg delete [] *", ["borg", "-r", "/srv/repo", "delete", "::a"], True),
        ("velero backup delete [] *", ["velero", "-n", "velero", "backup", "delete", "nightly"], True),
        ("rabbitmqctl reset [] *", ["rabbitmqctl", "-n", "rabbit@node2", "reset"], True),
        ("rabbitmqctl reset [] *", ["rabbitmqctl", "-p", "reset", "list_queues"], False),
        ("mc rb [--force] *", ["mc", "-C", "/cfg", "rb", "--force", "myminio/b"], True),
        ("http [] DELETE *", ["http", "--auth", "u:p", "DELETE", ":9200/x"], True),
        ("https [] DELETE *", ["https", "-a", "DELETE", "GET", "example.org"], False),
        ("azcopy sync [--delete-destination=true] *", ["azcopy", "sync", "a", "b", "--delete-destination", "true"], True),
        ("azcopy sync [--delete-destination=true] *", ["azcopy", "sync", "a", "b", "--delete-destination=false"], False),
        # SQL handed to a client: the statement is the option's value, in any spelling
        ("psql [-c=*DROP?*] *", ["psql", "-U", "admin", "-c", "DROP TABLE users"], True),
        ("psql [-c=*DROP?*] *", ["psql", "--command=DROP DATABASE x"], True),
        ("psql [-c=*DROP?*] *", ["psql", "-d", "DROP TABLE", "-c", "SELECT 1"], False),
        ("mysql [-e=*DROP?*] *", ["mysql", "-psecret", "-e", "DROP DATABASE shop"], True),
        ("mysql [-e=*DROP?*] *", ["mysql", "-p", "-e", "DROP DATABASE shop"], True),
        ("mysqladmin [] drop", ["mysqladmin", "-u", "drop", "status"], False),
        ("mysqladmin [] drop", ["mysqladmin", "-u", "root", "drop", "shop"], True),
        # disks: one option, every spelling
        ("wipefs [--all] *", ["wipefs", "-a", "/dev/sdb"], True),
        ("wipefs [--all] *", ["wipefs", "--al", "/dev/sdb"], True),
        ("wipefs [--no-act] *", ["wipefs", "-an", "/dev/sdb"], True),
        ("wipefs [--offset] *", ["wipefs", "-t", "ext4", "/dev/sdb"], False),
        ("mdadm [--create] *", ["mdadm", "-C", "/dev/md0", "-l", "1", "/dev/sda1"], True),
        ("mdadm [--zero-superblock] *", ["mdadm", "--zero-super", "/dev/sda1"], True),
        ("mdadm [--stop] *", ["mdadm", "--detail", "/dev/md0"], False),
        # servers and remote copies: a value is never an operand
        ("nginx [-s=stop] *", ["nginx", "-s", "stop"], True),
        ("nginx [-s=stop] *", ["nginx", "-s", "reload"], False),
        ("scp [] * *:/etc*", ["scp", "-P", "22", "passwd", "root@host:/etc/"], True),
        ("scp [] * *:/etc*", ["scp", "-i", "key", "user@host:/etc/hosts", "."], False),
    ],
)  # fmt: skip
def test_a_rule_reads_the_tool_as_the_tool_does(
    pattern: str, argv: list[str], expected: bool
) -> None:
    assert meets(pattern, argv) is expected


_AWS_GLOBAL = [
    ["--profile", "prod"], ["--profile=prod"], ["--region", "eu-west-1"], ["--output", "json"],
    ["--endpoint-url", "http://localhost:4566"], ["--query", "Contents"], ["--debug"],
    ["--no-cli-pager"], ["--no-verify-ssl"], ["--color", "off"],
]  # fmt: skip
_S3_RM = [["--recursive"], ["--dryrun"], ["--quiet"], ["--exclude", "*.log"], ["--include=*.txt"]]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_AWS_GLOBAL), max_size=3),
    st.lists(st.sampled_from(_S3_RM), max_size=3),
    st.booleans(),
)
def test_aws_global_options_anywhere_never_hide_the_subcommand_s(
    globals_: list[list[str]], own: list[list[str]], globals_last: bool
) -> None:
    flat_globals = [w for option in globals_ for w in option]
    flat_own = [w for option in own for w in option]
    if globals_last:
        argv = ["aws", "s3", "rm", "s3://bucket/key", *flat_own, *flat_globals]
    else:
        argv = ["aws", *flat_globals, "s3", "rm", *flat_own, "s3://bucket/key"]
    assert meets("aws s3 rm [] *", argv, "ask")
    assert meets("aws s3 rm [--recursive] *", argv) is (["--recursive"] in own)
    assert meets("aws s3 rm [--dryrun] *", argv, "allow") is (["--dryrun"] in own)
