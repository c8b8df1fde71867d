"""A JSON Schema (draft 2020-12) of the configuration file, for editors (``clearance schema``).

Built from the same tables the loader validates with, so the two cannot drift: the top-level
keys and settings, the action words, the surfaces. The loader stays the authority (it also
checks what a schema cannot, such as a pattern's position); the schema is what an editor can
underline while you type.

Surfaces are an open set ("any other tool name" is a surface), so the schema cannot know every
one; it names the known surfaces and rejects the common misspellings of each (a dropped,
doubled or swapped letter), and ``clearance validate`` warns on any other name close to a known
one. The value schema of ``bash`` is its own definition, ``$defs/bashRules``: richer bash rule
forms extend that one place.
"""

from __future__ import annotations

from clearance.policy.config import FOREIGN_KNOBS, SETTINGS
from clearance.policy.permission import HOST_SPELLINGS, KNOWN_SURFACES
from clearance.policy.rule import ACTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["config_schema", "misspellings"]


_SETTING_TYPES: dict[str, dict[str, Any]] = {
    "boolean": {"type": "boolean"},
    "object": {"type": "object"},
    "positive integer": {"type": "integer", "minimum": 1},
    "list of strings": {"type": "array", "items": {"type": "string"}},
    # forwarding.broker (clearance.policy.broker): asks through Redis, docs/forwarding.md
    "forwarding": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "broker": {
                "description": "forward asks through Redis: a URL, or {url, session, publicKey}",
                "oneOf": [
                    {"type": "string", "pattern": "^rediss?://"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["url"],
                        "properties": {
                            "url": {"type": "string", "pattern": "^rediss?://"},
                            "session": {"type": "string", "minLength": 1},
                            "publicKey": {
                                "oneOf": [
                                    {"type": "string", "pattern": "^ed25519:"},
                                    {
                                        "type": "array",
                                        "items": {"type": "string", "pattern": "^ed25519:"},
                                    },
                                ]
                            },
                            "prefix": {"type": "string", "pattern": "^[A-Za-z0-9._-]+$"},
                        },
                    },
                ],
            }
        },
    },
}


def misspellings(word: str) -> set[str]:
    """``word`` with one letter dropped, doubled or swapped with its neighbour."""
    out: set[str] = set()
    for i in range(len(word)):
        out.add(word[:i] + word[i + 1 :])
        out.add(word[:i] + word[i] + word[i:])
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    return out


def config_schema() -> dict[str, Any]:
    known = set(KNOWN_SURFACES) | set(HOST_SPELLINGS) | {"*"}
    typos = sorted(
        t for s in KNOWN_SURFACES if len(s) >= 3 for t in misspellings(s) if t not in known and t
    )
    rule_ref = {"$ref": "#/$defs/rule"}
    surfaces: dict[str, Any] = {
        name: {"$ref": "#/$defs/surfaceRules"} for name in sorted(known - {"*", "bash"})
    }
    surfaces["*"] = rule_ref
    surfaces["bash"] = {"$ref": "#/$defs/bashRules"}
    settings = {key: dict(_SETTING_TYPES[kind]) for key, kind in SETTINGS.items()}
    foreign = {key: {"description": "a pi-permission-system knob; loads with a warning"}
               for key in sorted(FOREIGN_KNOBS)}  # fmt: skip
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "clearance configuration",
        "description": "A clearance policy: see docs/configuration.md.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "$schema": {"type": "string"},
            "permission": {"$ref": "#/$defs/permission"},
            "yolo": {"type": "boolean", "description": "every ask becomes allow; denies stand"},
            "yoloMode": {"type": "boolean", "description": "the same as yolo"},
            "agents": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"permission": {"$ref": "#/$defs/permission"}},
                },
            },
            "tests": {"type": "array", "items": {"$ref": "#/$defs/test"}},
            **settings,
            **foreign,
        },
        "$defs": {
            "action": {"enum": list(ACTIONS)},
            "rule": {
                "description": '"allow", "ask", "deny", or {"action": …, "reason": …}',
                "oneOf": [
                    {"$ref": "#/$defs/action"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["action"],
                        "properties": {
                            "action": {"$ref": "#/$defs/action"},
                            "reason": {"type": "string"},
                        },
                    },
                ],
            },
            "surfaceRules": {
                "description": "a rule for the whole surface, or patterns mapped to rules",
                "anyOf": [
                    rule_ref,
                    {
                        "type": "object",
                        "not": {"required": ["action"]},
                        "propertyNames": {"minLength": 1},
                        "additionalProperties": rule_ref,
                    },
                ],
            },
            "bashRules": {
                "description": "bash command patterns mapped to rules (see docs/shell-analysis.md)",
                "$ref": "#/$defs/surfaceRules",
            },
            "permission": {
                "type": "object",
                "properties": surfaces,
                "propertyNames": {"not": {"enum": typos}},
                "additionalProperties": {"$ref": "#/$defs/surfaceRules"},
            },
            "test": {
                "type": "object",
                "additionalProperties": False,
                "required": ["tool", "expect"],
                "properties": {
                    "tool": {"type": "string"},
                    "input": {},
                    "expect": {"$ref": "#/$defs/action"},
                    "cwd": {"type": "string"},
                    "agent": {"type": "string"},
                    "name": {"type": "string"},
                },
            },
        },
    }
