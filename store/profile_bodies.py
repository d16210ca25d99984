"""A profile's stored body (store/details.py `profiles_r<id>`): its JSON deflated with a preset
dictionary, one byte ahead saying which dictionary (docs/benchmarks.md, "A national release's own
size").

A national release has about 1.5 million profiles (a party and a period each) of about 1 KB of JSON:
1.5 GB of text, three quarters of the release's file. Each body is compressed on its own, since a
profile is read alone; zlib alone saves half, because one body is too short to repeat itself much,
while with a dictionary of what every body shares (keys, flag ids, authority types, the words of
Turkish firms' and authorities' names) a body takes about a fifth of its text. Raw deflate, without
zlib's header and checksum (10 bytes a body with a dictionary's id): the leading byte names the
dictionary, and a body that does not inflate to JSON fails to parse.

A dictionary is never edited once released: a body compressed today must inflate after a better one
is added. A new one takes the next version and becomes CURRENT; DICTIONARIES keeps every old one.
Bodies written as text, by releases loaded before compression, are read as they are.
"""

from __future__ import annotations

import zlib

# Window of 8 KB: a body (at most a few KB) and the dictionary fit in it, and a compressor of this
# size starts several times faster than zlib's default of 32 KB, which dominates at 1 KB a body.
WINDOW_BITS = 13
LEVEL = 9
_FLAGS = ('"flags":[{"flag":"single-bid","contracts":0},{"flag":"at-or-above-estimate","contracts":0},'
          '{"flag":"just-below-estimate","contracts":0},{"flag":"negotiated-without-notice","contracts":0},'
          '{"flag":"winner-share","contracts":0}]}')
# Deflate finds a string sooner the nearer it is to the body: what every body holds comes last.
_VERSION_1 = (
    "Ltd. Şti. A.Ş. Tic. San. ve Tic. Sanayi ve Ticaret Limited Şirketi Anonim Şirketi İnşaat Taahhüt Gıda "
    "Sağlık Ürünleri Tıbbi Bilişim Teknoloji Enerji Elektrik Otomotiv Temizlik Hizmetleri Petrol Nakliyat Turizm "
    "Belediyesi Belediye Başkanlığı Büyükşehir İl Müdürlüğü Genel Müdürlüğü Bölge Müdürlüğü Valiliği Özel İdaresi "
    "Üniversitesi Rektörlüğü Hastanesi Devlet Hastanesi Eğitim ve Araştırma Bakanlığı Kaymakamlığı Başhekimliği "
    "Komutanlığı Kurumu Başkanlığı Ankara İstanbul İzmir "
    + "".join(f'"type":"{t}",' for t in ("ministry", "special-provincial-administration", "university",
                                          "state-enterprise", "health", "regulatory", "other", "municipality"))
    + '{"id":"","name":"","type":"municipality","province":6,"contracts":1,"value":1.00,"share":1.0}],'
    '{"period":"all","contracts":1,"value":1.00,"tenders":1,"singleBidShare":0.0,"lotsWithBids":1,'
    '"averageDiscount":null,"discountTenders":0,"localShare":1.0,"localShareContracts":1,"hhi":10000.0,'
    '"topContractors":[{"id":"","name":"","province":34,"contracts":1,"value":1.00,"share":0.1},'
    '"topAuthorities":[{"id":"","name":"","type":"municipality","province":6,"contracts":1,"value":1.00,"share":1.0}],'
    '"sectors":[{"sector":1,"contracts":1,"value":1.00}],"provinces":[{"province":34,"contracts":1,"value":1.00}],'
    + _FLAGS
).encode()
# Every dictionary ever released, by the byte that starts a body compressed with it.
DICTIONARIES: dict[int, bytes] = {1: _VERSION_1}
CURRENT = 1


def pack_body(text: str, version: int = CURRENT) -> bytes:
    """A profile's JSON as stored: the dictionary's version, then the JSON deflated with it."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, zdict=DICTIONARIES[version])
    return bytes((version,)) + compressor.compress(text.encode()) + compressor.flush()


def unpack_body(stored: bytes | str) -> str:
    """A stored body's JSON, whichever dictionary compressed it; text as it is (a release loaded
    before bodies were compressed)."""
    if isinstance(stored, str):
        return stored
    data = bytes(stored)  # a memoryview from some drivers
    # zlib's largest window inflates whatever window a body was deflated with.
    inflater = zlib.decompressobj(-zlib.MAX_WBITS, zdict=DICTIONARIES[data[0]])
    return (inflater.decompress(data[1:]) + inflater.flush()).decode()
