"""revlogperf's mapped data file: slices of one map, grown on demand, and
the file itself while the revlog is writing"""

import types

import pytest

from mercurial import error, ui as uimod, vfs as vfsmod

from hgext3rd.revlogperf import config, readpath

DATA = bytes(range(256)) * 64  # 16 KB
# core's class (the module attribute is wrapped once revlogperf is loaded)
CORE_SEGMENT_FILE = readpath.MappedSegmentFile.__bases__[0]


@pytest.fixture
def mapped(tmp_path):
    (tmp_path / 'x.d').write_bytes(DATA)
    opener = vfsmod.vfs(str(tmp_path).encode())
    settings = types.SimpleNamespace(
        data_threshold=4096, trace_mmap=False, ui=uimod.ui()
    )
    segment = readpath.MappedSegmentFile(settings, opener, b'x.d', 65536)
    return segment, tmp_path / 'x.d'


def test_chunks_are_slices_of_the_map(mapped):
    segment, _path = mapped
    chunk = segment.read_chunk(100, 50)
    assert isinstance(chunk, memoryview)
    assert bytes(chunk) == DATA[100:150]
    assert chunk.obj is segment.read_chunk(0, 1).obj  # one map


def test_appended_data_gets_a_new_map(mapped):
    segment, path = mapped
    segment.read_chunk(0, 10)
    with path.open('ab') as fp:
        fp.write(b'appended')
    assert bytes(segment.read_chunk(len(DATA), 8)) == b'appended'


def test_writing_revlog_reads_its_write_handle(mapped):
    segment, path = mapped
    segment.read_chunk(0, 10)
    with path.open('a+b') as fp:
        fp.write(b'buffered')  # not flushed: only the handle has it
        segment.writing_handle = fp
        assert bytes(segment.read_chunk(len(DATA), 8)) == b'buffered'
        segment.writing_handle = None


def test_short_file_is_core_partial_read_error(mapped):
    segment, _path = mapped
    with pytest.raises(error.RevlogError) as raised:
        segment.read_chunk(len(DATA) - 4, 8)
    assert b'partial read of revlog x.d' in bytes(raised.value)


def test_clear_cache_drops_the_map(mapped):
    segment, path = mapped
    old = segment.read_chunk(0, 4)
    segment.clear_cache()
    replacement = path.with_name('x.tmp')
    replacement.write_bytes(b'new!')
    replacement.rename(path)  # as revlogperf truncates: a new inode
    assert bytes(segment.read_chunk(0, 4)) == b'new!'
    assert bytes(old) == DATA[:4]  # the old map is intact


def open_segment(tmp_path, content):
    """the segment file revlogperf's factory makes for a file of content"""
    (tmp_path / 'x.d').write_bytes(content)
    opener = vfsmod.vfs(str(tmp_path).encode())
    settings = types.SimpleNamespace(
        data_threshold=4096,
        trace_mmap=False,
        ui=uimod.ui(),
        mmap_safe=lambda path: True,
    )
    opener.options = {config.OPTIONS_KEY: settings}
    return readpath._segment_file(CORE_SEGMENT_FILE, opener, b'x.d', 65536)


def test_small_file_is_read_as_core_reads_it(tmp_path):
    segment = open_segment(tmp_path, b'small')
    assert bytes(segment.read_chunk(1, 3)) == b'mal'
    assert type(segment) is CORE_SEGMENT_FILE  # decided once


def test_large_file_is_mapped(tmp_path):
    segment = open_segment(tmp_path, DATA)
    assert isinstance(segment, readpath.MappedSegmentFile)
    assert bytes(segment.read_chunk(4000, 200)) == DATA[4000:4200]
