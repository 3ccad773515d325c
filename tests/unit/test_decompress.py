"""the decompression dispatcher: round trips, and only Mercurial errors"""

import zlib

import pytest
from hypothesis import given, settings, strategies as st

from mercurial import error, util

from hgext3rd.revlogperf import decompress

zstd = util.compengines[b'zstd']._module or pytest.importorskip('zstandard')


class FakeRevlog:
    """what the dispatcher's error path reads of a revlog"""

    inline = False
    index_file = b'data/f.i'
    data_file = b'data/f.d'

    def __init__(self, chunks):
        self.chunks = chunks
        self.index = [(0, len(c)) for c in chunks]

    def get_segment_for_revs(self, start, end):
        return 0, self.chunks[start]


def dispatcher(*chunks):
    owner = FakeRevlog(list(chunks))
    # the dispatcher holds a weak reference: keep the owner alive
    return owner, decompress.make_dispatcher(owner)


def zstd_compress(data, content_size=True):
    cctx = zstd.ZstdCompressor(level=3, write_content_size=content_size)
    if content_size:
        return cctx.compress(data)
    obj = cctx.compressobj()
    return obj.compress(data) + obj.flush()


ENCODINGS = {
    'zlib': zlib.compress,
    'zstd': zstd_compress,
    'zstd-streamed': lambda d: zstd_compress(d, content_size=False),
    'u': lambda d: b'u' + d,
    'stored': lambda d: b'\0' + d,
}


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4096), st.sampled_from(sorted(ENCODINGS)))
def test_round_trip(text, encoding):
    chunk = ENCODINGS[encoding](text)
    _owner, decomp = dispatcher(chunk)
    expected = b'\0' + text if encoding == 'stored' else text
    assert bytes(decomp(chunk)) == expected


def test_empty_chunk():
    _owner, decomp = dispatcher(b'')
    assert decomp(b'') == b''


@settings(max_examples=500, deadline=None)
@given(
    st.binary(min_size=1, max_size=2048),
    st.sampled_from(['zlib', 'zstd', 'zstd-streamed']),
    st.data(),
)
def test_damaged_chunks_raise_revlog_errors(text, encoding, data):
    chunk = bytearray(ENCODINGS[encoding](text))
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(chunk) - 1))
        chunk[pos] = data.draw(st.integers(0, 255))
    chunk = bytes(chunk)
    owner, decomp = dispatcher(chunk)
    try:
        result = decomp(chunk)
    except error.RevlogError as exc:
        msg = exc.args[0]
        assert msg.startswith(b'data/f.d, revision 0: cannot decompress')
        assert exc.hint
    else:
        assert isinstance(result, (bytes, memoryview))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=512))
def test_random_chunks(chunk):
    owner, decomp = dispatcher(chunk)
    try:
        decomp(chunk)
    except error.RevlogError as exc:
        assert b'data/f.d' in exc.args[0]


def test_unknown_header_names_file_revision_and_header():
    owner, decomp = dispatcher(b'x' + b'a' * 10, b'A-not-a-header')
    with pytest.raises(error.RevlogError) as exc:
        decomp(b'A-not-a-header')
    assert exc.value.args[0] == (
        b'data/f.d, revision 1: cannot decompress chunk with header 0x41: '
        b'unknown compression type'
    )
