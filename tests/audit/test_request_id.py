from __future__ import annotations

import re

from clearance.audit.request_id import new_request_id


def test_a_request_id_is_128_random_bits_in_a_file_name_safe_spelling() -> None:
    ids = {new_request_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(re.fullmatch(r"req-[0-9a-f]{32}", i) for i in ids)
