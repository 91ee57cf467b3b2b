"""The OpenAPI schema generates without drf-spectacular warnings (enum-name or operationId collisions
would give clients generated names like ``GameBcaEnum`` or ``decks_create_2``)."""
from __future__ import annotations

import pytest
from django.core.management import call_command


def test_schema_generates_and_validates_without_warnings(tmp_path, capsys):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    err = capsys.readouterr().err
    assert "Warning" not in err, err
    text = out.read_text()
    assert "operationId: decks_import" in text and "operationId: decks_create\n" in text
    for name in ("GameEnum:", "VisibilityEnum:"):
        assert name in text
    assert "Game863Enum" not in text and "_2\n" not in text


@pytest.mark.parametrize("collision", ["enum", "operation_id"])
def test_the_check_fails_on_a_collision(tmp_path, collision, monkeypatch):
    """The check above can fail: put either collision back and the command refuses."""
    from decks.api import serializers as deck_serializers
    from decks.api import views as deck_views
    from rules import games as g

    if collision == "enum":  # unlabelled game codes next to the labelled model choices
        field = deck_serializers.ValidateSerializer._declared_fields["game"]
        monkeypatch.setitem(field._kwargs, "choices", list(g.GAMES))  # serializers deep-copy from _kwargs
    else:
        from drf_spectacular.utils import extend_schema

        post = extend_schema(operation_id="decks_create")(deck_views.DeckListView.post)
        monkeypatch.setattr(deck_views.DeckImportView, "post", post)
    with pytest.raises(Exception, match="warnings"):
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))
