"""The stored items' contract (store/items.py): each kind's named keys against the API's item schema
and against what a loaded release really stores."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from api.description.schemas import SCHEMAS
from loaders.procurement.load import load_release
from store.db import session_scope
from store.items import KEY_COLUMNS, KINDS, ItemKind
from store.models import StatItem


@pytest.mark.parametrize("kind", KINDS.values(), ids=lambda k: k.name)
def test_every_key_that_names_a_field_is_a_field_of_the_item_schema(kind: ItemKind):
    properties = SCHEMAS[kind.schema]["properties"]
    assert len(kind.keys) <= len(KEY_COLUMNS)
    for field in kind.fields:
        assert field is None or field in properties, (kind.name, field)


def test_rows_need_every_key_and_filters_know_only_the_kinds_keys():
    competition = KINDS["competition"]
    row = competition.row(dimension="province", subject=None, period="2024", seq=3, body="{}")
    assert competition.key_values(row) == {"dimension": "province", "subject": "", "period": "2024"}
    assert competition.filters(dimension="province", subject=None) == {KEY_COLUMNS[0]: "province"}
    with pytest.raises(ValueError, match="keys"):
        competition.row(dimension="province", seq=1, body="{}")
    with pytest.raises(ValueError, match="no key"):
        competition.filters(province="6")


def test_stored_items_carry_their_keys_in_their_bodies(app, demo_release):
    """The loader writes through the contract: a key that names a body field equals it, in every item."""
    load_release(demo_release, app.extensions["gosterge.sessions"])
    seen = set()
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        for item in session.scalars(select(StatItem)):
            kind = KINDS[item.kind]
            seen.add(kind.name)
            body = json.loads(item.body)
            keys = kind.key_values({c: getattr(item, c) for c in KEY_COLUMNS})
            for name, field in zip(kind.keys, kind.fields, strict=False):
                if field is not None:
                    assert str(body[field]) == keys[name], (kind.name, name, body)
    assert seen == set(KINDS)
