"""Profile bodies as stored (store/profile_bodies.py): what is packed is what is read back, with
every dictionary, and a body packed with a released dictionary still reads after a new one comes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from store.jsontext import item_json
from store.profile_bodies import CURRENT, DICTIONARIES, pack_body, unpack_body

# JSON as profiles hold it: Turkish names and any other text, amounts, shares, nulls, nested lists.
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(),
                    st.floats(allow_nan=False, allow_infinity=False), st.decimals(allow_nan=False, allow_infinity=False))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(), inner, max_size=6),
                    max_leaves=60)

# Packed with dictionary 1 when it was released: it must read back whatever dictionaries come later.
RELEASED = {1: ("01434ad946064626a80a8c10e1616462646c6861aa6760863b35391b2222fde83c478f231bfc10d502b8aa51424a3c66064"
                "0032dcc2c0c2c2dcc0d2ccd8c90833bb61600")}
RELEASED_TEXT = ('{"period":"2024","contracts":2,"value":12423185.06,"topContractors":[{"id":"C1",'
                 '"name":"ŞAHİN İnşaat A.Ş.","share":0.6031886809870962}],"flags":[]}')


@settings(max_examples=300, deadline=None)
@given(value=JSON, version=st.sampled_from(sorted(DICTIONARIES)))
def test_a_packed_body_reads_back_as_written(value, version):
    text = item_json(value)
    packed = pack_body(text, version)
    assert isinstance(packed, bytes) and packed[0] == version
    assert unpack_body(packed) == text
    assert unpack_body(memoryview(packed)) == text


@given(text=st.text())
def test_text_stored_before_compression_reads_as_it_is(text):
    assert unpack_body(text) == text


def test_bodies_packed_with_a_released_dictionary_still_read():
    for version, packed in RELEASED.items():
        assert packed[:2] == f"{version:02x}" and unpack_body(bytes.fromhex(packed)) == RELEASED_TEXT
    assert set(RELEASED) <= set(DICTIONARIES) and CURRENT in DICTIONARIES


def test_a_profile_takes_a_fraction_of_its_text():
    profile = {"period": "all", "contracts": 3, "value": "1757.29", "singleBidShare": 0.0, "lotsWithBids": 1,
               "averageDiscount": None, "discountTenders": 0, "localShare": 1.0, "localShareContracts": 1,
               "topAuthorities": [{"id": "A874", "name": "Çankaya Belediyesi", "type": "municipality", "province": 6,
                                   "contracts": 1, "value": "1757.29", "share": 1.0}],
               "sectors": [{"sector": 21, "contracts": 1, "value": "1757.29"}],
               "provinces": [{"province": 6, "contracts": 1, "value": "1757.29"}],
               "flags": [{"flag": f, "contracts": 0} for f in ("single-bid", "at-or-above-estimate",
                                                               "just-below-estimate", "negotiated-without-notice",
                                                               "winner-share")]}
    text = json.dumps(profile, ensure_ascii=False, separators=(",", ":"))
    assert len(pack_body(text)) < len(text.encode()) / 3
