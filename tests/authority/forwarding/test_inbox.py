"""The inbox: private files only, exactly one claim per request, leftovers swept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clearance.authority.forwarding.inbox import (
    Inbox,
    UnsafeFile,
    UnsafeInbox,
    read_private_json,
    write_private_json,
)
from clearance.authority.forwarding.protocol import new_id
from clearance.authority.forwarding.wake import Waker, inotify_available


def an_inbox(tmp_path: Path) -> Inbox:
    return Inbox(str(tmp_path / "state"), "P").prepare()


def test_directories_are_private_and_files_0600(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    for path in (box.root, box.requests, box.responses, box.claims):
        assert os.stat(path).st_mode & 0o777 == 0o700
    request_id = new_id()
    write_private_json(box.request_path(request_id), {"a": 1})
    assert os.stat(box.request_path(request_id)).st_mode & 0o777 == 0o600
    assert read_private_json(box.request_path(request_id)) == {"a": 1}


def test_a_symlinked_file_is_never_followed(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    target = tmp_path / "secret.json"
    target.write_text('{"x": 1}')
    target.chmod(0o600)
    link = Path(box.request_path(new_id()))
    link.symlink_to(target)
    with pytest.raises(UnsafeFile):
        read_private_json(str(link))


def test_an_inbox_writable_by_others_is_refused_not_repaired(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    os.chmod(box.requests, 0o733)
    with pytest.raises(UnsafeInbox, match="writable by other users"):
        box.prepare()
    assert os.stat(box.requests).st_mode & 0o777 == 0o733


def test_a_request_is_claimed_once_and_never_after_it_is_answered(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    other = Inbox(box.state, "P")
    request_id = new_id()
    write_private_json(box.request_path(request_id), {})
    claim = box.claim(request_id)
    assert claim is not None and other.claim(request_id) is None
    assert box.answer(request_id, {"ok": True}, claim)
    assert other.claim(request_id) is None  # answered: the response is there, the request gone
    assert not os.path.exists(box.request_path(request_id))


def test_a_withdrawn_request_is_not_answered(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    request_id = new_id()
    write_private_json(box.request_path(request_id), {})
    claim = box.claim(request_id)
    assert claim is not None
    box.withdraw(request_id)
    assert not box.answer(request_id, {"late": True}, claim)
    assert not os.path.exists(box.response_path(request_id))


def test_the_sweep_removes_old_responses_and_orphaned_locks(tmp_path: Path) -> None:
    box = an_inbox(tmp_path)
    old = box.response_path(new_id())
    write_private_json(old, {})
    lock = Path(box.claims, new_id() + ".lock")
    lock.write_text("")
    for path in (old, str(lock)):
        os.utime(path, (1, 1))
    assert box.sweep() == 2
    assert os.listdir(box.responses) == [] and os.listdir(box.claims) == []


@pytest.mark.parametrize("mode", ["inotify", "poll"])
def test_a_waker_wakes_on_a_rename_into_its_directory(tmp_path: Path, mode: str) -> None:
    if mode == "inotify" and not inotify_available():
        pytest.skip("no inotify here")
    box = an_inbox(tmp_path)
    with Waker(box.responses, mode=mode) as waker:
        assert waker.mode == mode
        write_private_json(box.response_path(new_id()), {})
        assert waker.wait(1.0) is (mode == "inotify")
