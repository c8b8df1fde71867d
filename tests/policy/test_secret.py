"""The per-user secret: created once, whole, by one process."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from clearance.policy.secret import user_secret


def test_the_secret_is_created_whole_with_nothing_left_beside_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    secret = user_secret(str(state), create=True)
    assert secret is not None and len(secret) == 32
    assert (state / "secret").read_bytes() == secret
    assert oct((state / "secret").stat().st_mode & 0o777) == "0o600"
    assert sorted(p.name for p in state.iterdir()) == ["secret"]  # no temp file
    assert user_secret(str(state), create=True) == secret  # made once


def _make(state: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(user_secret(state, create=True))


def test_processes_that_create_it_at_once_all_get_the_one_secret(tmp_path: Path) -> None:
    state = str(tmp_path / "state")
    os.makedirs(state, mode=0o700)
    context = multiprocessing.get_context("fork")
    out: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
    workers = [context.Process(target=_make, args=(state, out)) for _ in range(6)]
    for worker in workers:
        worker.start()
    found = {out.get(timeout=30) for _ in workers}
    for worker in workers:
        worker.join(timeout=30)
    assert len(found) == 1 and None not in found
    assert found == {Path(state, "secret").read_bytes()}


def test_an_empty_secret_file_is_not_used(tmp_path: Path) -> None:
    """What a process stopped between creating and writing the file left before: unusable, so
    the caches and grants that need the secret are off (fail closed), never sealed with it."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "secret").touch(mode=0o600)
    assert user_secret(str(state)) is None
    assert user_secret(str(state), create=True) is None
