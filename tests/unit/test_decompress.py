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


def test_empty_first_chunk_leaves_the_choice_to_the_next():
    chunk = zlib.compress(b'text' * 10)
    owner, first = dispatcher(b'', chunk)
    owner.decompress = first
    assert owner.decompress(b'') == b''
    assert owner.decompress is first
    assert owner.decompress(chunk) == b'text' * 10
    assert 'straight_to' in owner.decompress.__qualname__


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


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.binary(max_size=512), st.sampled_from(sorted(ENCODINGS))),
        min_size=1,
        max_size=12,
    ),
    st.booleans(),
)
def test_mixed_chunks_round_trip_whatever_comes_first(pieces, bound_once):
    """the first chunk picks a fast path; any later chunk still reads right

    Core's ``_chunk`` looks ``decompress`` up on every call, ``_chunks``
    once per batch: both see the right text.
    """
    chunks = [ENCODINGS[encoding](text) for text, encoding in pieces]
    owner, first = dispatcher(*chunks)
    owner.decompress = first
    decomp = owner.decompress
    for (text, encoding), chunk in zip(pieces, chunks):
        if not bound_once:
            decomp = owner.decompress
        expected = b'\0' + text if encoding == 'stored' else text
        assert bytes(decomp(chunk)) == expected


@pytest.mark.parametrize('encoding', ['zlib', 'zstd'])
def test_one_library_revlog_skips_the_header_test(encoding):
    texts = [b'revision %d\n' % i * 20 for i in range(3)]
    chunks = [ENCODINGS[encoding](t) for t in texts]
    owner, first = dispatcher(*chunks)
    owner.decompress = first
    for text, chunk in zip(texts, chunks):
        assert bytes(owner.decompress(chunk)) == text
    assert 'straight_to' in owner.decompress.__qualname__
    # another header: every header is tested from now on, the library's first
    assert bytes(owner.decompress(b'u' + texts[0])) == texts[0]
    assert 'preferring' in owner.decompress.__qualname__
    assert bytes(owner.decompress(chunks[0])) == texts[0]


def test_damage_on_the_fast_path_is_a_revlog_error():
    good = zlib.compress(b'a' * 100)
    bad = good[:10] + b'\xff' * 4 + good[14:]
    owner, first = dispatcher(good, bad)
    owner.decompress = first
    owner.decompress(good)
    with pytest.raises(error.RevlogError) as exc:
        owner.decompress(bad)
    assert exc.value.args[0].startswith(
        b'data/f.d, revision 1: cannot decompress chunk with header 0x78'
    )


def history(tmp_path, engine):
    """a repository whose file ``f`` is a delta chain of six revisions, in
    revlogs compressed by ``engine``, and the text of its last revision"""
    import os
    import subprocess
    import sys

    hg_script = os.path.join(os.path.dirname(sys.executable), 'hg')
    if not os.path.exists(hg_script):
        pytest.skip('no hg beside python')
    path = tmp_path / engine
    config = ['--config', 'format.revlog-compression=%s' % engine]
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 't'}
    subprocess.run([hg_script, 'init', str(path)] + config, check=True, env=env)
    text = b''
    for i in range(6):
        text += b'line %d\n' % i * 50
        (path / 'f').write_bytes(text)
        subprocess.run(
            [hg_script, '-R', str(path), 'commit', '-qAm', 'r%d' % i],
            check=True,
            env=env,
        )
    return path, text


@pytest.fixture
def loaded_extension():
    from mercurial import extensions, ui as uimod

    ui = uimod.ui.load()
    ui.setconfig(
        b'extensions',
        b'revlogperf',
        decompress.__file__.rsplit('/', 1)[0].encode(),
    )
    extensions.loadall(ui)
    return ui, extensions.find(b'revlogperf')


def spied_filelog(ui, path, loaded, monkeypatch):
    """filelog ``f`` of ``path``, its chunk reader, and the chunks core's
    own ``decompress`` (the class's) is given"""
    from mercurial import hg

    owner_class = loaded.compat.DECOMPRESSION_OWNER
    through_the_class = []
    wrapped = owner_class.decompress

    def spy(owner, data):
        through_the_class.append(len(data))
        return wrapped(owner, data)

    monkeypatch.setattr(owner_class, 'decompress', spy)
    filelog = hg.repository(ui, str(path).encode()).file(b'f')
    revlog = getattr(filelog, '_revlog', filelog)
    assert len(revlog._deltachain(5)[0]) > 1
    return filelog, loaded.compat.chunk_owner(revlog), through_the_class


def test_a_zlib_revlog_read_a_few_times_is_cores_alone(
    tmp_path, loaded_extension, monkeypatch
):
    """``log -p``, ``annotate`` and ``diff`` open each file's revlog anew
    and read it a few times: a dispatcher would cost more than it saves;
    one read many times gets one (#18)"""
    ui, loaded = loaded_extension
    path, text = history(tmp_path, 'zlib')
    filelog, owner, through_the_class = spied_filelog(
        ui, path, loaded, monkeypatch
    )
    reads = loaded.decompress._READS_BEFORE_DISPATCHER
    tip = filelog.node(5)
    for _read in range(reads):
        assert filelog.revision(tip) == text
        getattr(filelog, '_revlog', filelog).clearcaches()
    assert 'decompress' not in owner.__dict__
    assert len(through_the_class) >= reads * 6  # the whole chain, by core
    del through_the_class[:]
    assert filelog.revision(tip) == text
    assert 'decompress' in owner.__dict__
    assert through_the_class == []


def test_a_zstd_revlog_has_a_dispatcher_from_its_first_read(
    tmp_path, loaded_extension, monkeypatch
):
    """core would make it a compressor and a context, and stream each chunk;
    core binds ``decompress`` per batch: the dispatcher, from the start"""
    if not util.compengines[b'zstd'].available():
        pytest.skip('this build cannot write zstd revlogs')
    ui, loaded = loaded_extension
    path, text = history(tmp_path, 'zstd')
    filelog, owner, through_the_class = spied_filelog(
        ui, path, loaded, monkeypatch
    )
    tip = filelog.node(5)
    assert filelog.revision(tip) == text
    assert 'decompress' in owner.__dict__
    assert through_the_class == []
