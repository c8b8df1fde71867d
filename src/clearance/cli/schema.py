"""``clearance schema``: the config's JSON Schema (draft 2020-12), for editors."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args

__all__ = ["run_schema"]


def run_schema(args: Args) -> int:
    from clearance._json import dumps
    from clearance.policy.schema import config_schema

    sys.stdout.write(dumps(config_schema(), indent=2) + "\n")
    return 0
