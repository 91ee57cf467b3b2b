"""Behaviour pinned byte for byte: goldfish reports and logs, deck validation and card search
(see tests/golden/capture.py). After an intended behaviour change, rewrite the files with
``./dev test tests/test_golden.py --golden-write`` and review the diff."""
from __future__ import annotations

import difflib
import json

import pytest
from django.core.management import call_command

from .conftest import is_postgres
from .golden.capture import GOLDEN_DIR, capture

pytestmark = pytest.mark.django_db


@pytest.fixture
def golden(client, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    for scope in list(SimpleRateThrottle.THROTTLE_RATES):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "100000/minute")
    cache.clear()
    call_command("load_sample_data", verbosity=0)
    return capture(client)


def test_golden_outputs_unchanged(golden, request):
    if request.config.getoption("--golden-write"):
        for name, text in golden.items():
            (GOLDEN_DIR / name).write_text(text, encoding="utf-8")
    for name, text in golden.items():
        stored = (GOLDEN_DIR / name).read_text(encoding="utf-8")
        if stored != text and is_postgres() and _canonical(stored) == _canonical(text):
            continue  # jsonb keeps an object's keys in its own order (cost_detail, effects): same values
        if stored != text:
            diff = "".join(difflib.unified_diff(stored.splitlines(True), text.splitlines(True),
                                                f"stored/{name}", f"now/{name}", n=2))
            pytest.fail(f"{name} differs from the stored golden output:\n{diff[:6000]}")


def _canonical(text: str) -> str:
    return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)
