from __future__ import annotations

import subprocess
import sys

import pytest

import clearance.audit as audit


def test_the_public_names_are_a_sorted_list() -> None:
    def order(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert audit.__all__ == sorted(audit.__all__, key=order)


@pytest.mark.parametrize("name", audit.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(audit, name) is not None


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        audit.nothing_here  # noqa: B018


def test_the_log_append_path_imports_only_cheap_standard_modules() -> None:
    heavy = [
        "json",
        "re",
        "typing",
        "dataclasses",
        "datetime",
        "subprocess",
        "threading",
        "urllib.request",
        "uuid",
        "secrets",
        "pathlib",
        "clearance.audit.notify",
        "clearance.audit.reader",
        "clearance.audit.bus",
    ]
    code = (
        "import sys\n"
        "from clearance.audit.log import ReviewLog\n"
        f"ReviewLog(sys.argv[1]).write('e', {{'command': 'TOKEN=1 curl -H \"Authorization: x\"', "
        "'headers': {'Cookie': 'c'}, 'n': [1.5, None]})\n"
        f"print([m for m in {heavy!r} if m in sys.modules])\n"
    )
    with_tmp = subprocess.run(
        [sys.executable, "-c", code, "/dev/null/x"], capture_output=True, text=True, check=True
    )
    assert with_tmp.stdout.strip() == "[]"
