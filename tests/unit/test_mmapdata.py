"""revlogperf's mapped data file: slices of one map, grown on demand, the
file itself while the revlog is writing, and a bounded number of maps"""

import gc
import os
import platform

import pytest

from mercurial import configitems, error, ui as uimod, vfs as vfsmod
from mercurial.revlogutils import randomaccessfile

from hgext3rd.revlogperf import config, configitems as revlogperf_items
from hgext3rd.revlogperf import mmapdata

DATA = bytes(range(256)) * 64  # 16 KB


def make_settings(**overrides):
    ui = uimod.ui()
    configitems.loadconfigtable(ui, b'revlogperf', revlogperf_items.configtable)
    settings = config.Settings(ui)
    settings.data_threshold = 4096
    settings.mmap_safe = lambda path: True
    for name, value in overrides.items():
        setattr(settings, name, value)
    return settings


class FakeOwner:
    """what install() reads of the object that reads a revlog's chunks"""

    inline = False
    _inline = property(lambda self: self.inline)  # hg <= 6.5's name

    def __init__(self, opener, filename, size):
        self.opener = opener
        self.index = [(0, size)]
        self._segmentfile = randomaccessfile.randomaccessfile(
            opener, filename, 65536
        )


def segment_for(tmp_path, content, name='x.d', **overrides):
    """the segment file of a revlog whose data file holds ``content``"""
    (tmp_path / name).write_bytes(content)
    opener = vfsmod.vfs(str(tmp_path).encode())
    owner = FakeOwner(opener, name.encode(), len(content))
    mmapdata.install(owner, make_settings(**overrides))
    return owner._segmentfile, tmp_path / name


@pytest.fixture
def mapped(tmp_path):
    return segment_for(tmp_path, DATA)


def test_large_file_is_mapped_by_the_class_core_made(mapped):
    segment, _path = mapped
    assert isinstance(segment, mmapdata.MappedSegmentFile)
    assert isinstance(segment, randomaccessfile.randomaccessfile)


def test_small_file_is_read_as_core_reads_it(tmp_path):
    segment, _path = segment_for(tmp_path, b'small')
    assert type(segment) is randomaccessfile.randomaccessfile
    assert bytes(segment.read_chunk(1, 3)) == b'mal'


def test_decided_from_the_index_without_touching_the_file(tmp_path):
    opener = vfsmod.vfs(str(tmp_path).encode())
    owner = FakeOwner(opener, b'missing.d', len(DATA))
    assert mmapdata.install(owner, make_settings())  # no stat


def test_inline_revlog_is_not_mapped(tmp_path):
    opener = vfsmod.vfs(str(tmp_path).encode())
    owner = FakeOwner(opener, b'x.i', len(DATA))
    owner.inline = True
    assert not mmapdata.install(owner, make_settings())


def test_chunks_are_slices_of_the_map(mapped):
    segment, _path = mapped
    chunk = segment.read_chunk(100, 50)
    assert isinstance(chunk, memoryview)
    assert bytes(chunk) == DATA[100:150]
    assert chunk.obj is segment.read_chunk(0, 1).obj  # one map


def test_the_first_map_settles_the_heap_as_a_large_read_would(
    mapped, monkeypatch
):
    # glibc raises its thresholds when a large block is freed: core's reads
    # free such blocks, maps do not (a heap that moves at every large text)
    settling = mmapdata._HeapSettling()
    monkeypatch.setattr(mmapdata, '_heap', settling)
    segment, _path = mapped
    segment.read_chunk(0, 10)
    assert settling.settled


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
    replacement.write_bytes(b'new!' + DATA[4:])
    replacement.rename(path)  # as revlogperf truncates: a new inode
    assert bytes(segment.read_chunk(0, 4)) == b'new!'
    assert bytes(old) == DATA[:4]  # the old map is intact


def open_fds():
    return len(os.listdir('/proc/self/fd'))


@pytest.mark.skipif(
    not os.path.isdir('/proc/self/fd'), reason='needs /proc/self/fd'
)
def test_a_dropped_segment_closes_its_map_at_once(tmp_path):
    gc.disable()
    try:
        before = open_fds()
        segment, _path = segment_for(tmp_path, DATA)
        segment.read_chunk(0, 10)
        assert open_fds() == before + 1  # the map's descriptor
        assert mmapdata.live_maps() >= 1
        del segment
        assert open_fds() == before
    finally:
        gc.enable()


@pytest.mark.skipif(
    not os.path.isdir('/proc/self/fd'), reason='needs /proc/self/fd'
)
def test_maps_stay_within_the_budget(tmp_path):
    before = open_fds()
    segments = [
        segment_for(tmp_path, DATA, name='f%d.d' % i, data_budget=3)[0]
        for i in range(10)
    ]
    for rounds in range(3):
        for i, segment in enumerate(segments):
            assert bytes(segment.read_chunk(i, 5)) == DATA[i : i + 5]
            assert mmapdata.live_maps() <= 3
            assert open_fds() <= before + 3


def test_the_least_recently_used_map_goes_first(tmp_path):
    a, b, c = (
        segment_for(tmp_path, DATA, name=name, data_budget=2)[0]
        for name in ('a.d', 'b.d', 'c.d')
    )
    a.read_chunk(0, 1)
    b.read_chunk(0, 1)
    a.read_chunk(0, 1)  # a is used again since b was mapped
    c.read_chunk(0, 1)
    assert a._view is not None
    assert b._view is None


@pytest.mark.skipif(
    not os.path.isdir('/proc/self/fd'), reason='needs /proc/self/fd'
)
def test_the_budget_holds_while_callers_keep_slices(tmp_path):
    # a map let go lives on while a slice of it does, and holds its
    # descriptor: past the budget, files are read as core reads them
    gc.disable()
    try:
        before = open_fds()
        segments = [
            segment_for(tmp_path, DATA, name='f%d.d' % i, data_budget=3)[0]
            for i in range(10)
        ]
        kept = []
        for rounds in range(2):
            for i, segment in enumerate(segments):
                kept.append(segment.read_chunk(i, 5))
                assert bytes(kept[-1]) == DATA[i : i + 5]
                assert mmapdata.live_maps() <= 3
                assert open_fds() <= before + 3
        del kept
        # with the slices gone, files are mapped again
        assert bytes(segments[9].read_chunk(0, 4)) == DATA[:4]
        assert segments[9]._view is not None
    finally:
        gc.enable()


def resident_bytes(path):
    """how much of ``path``'s maps this process has in its page tables"""
    total, inside = 0, False
    with open('/proc/self/smaps') as fp:
        for line in fp:
            first = line.split(None, 1)[0]
            if '-' in first and not first.endswith(':'):  # a map's header
                inside = line.rstrip('\n').endswith(str(path))
            elif inside and first == 'Rss:':
                total += int(line.split()[1]) * 1024
    return total


@pytest.mark.skipif(
    not mmapdata._CAN_LET_PAGES_GO, reason='Linux and Python 3.8+ only'
)
def test_an_idle_server_holds_no_page_of_its_maps(tmp_path):
    content = DATA * 64  # 1 MB
    segment, path = segment_for(tmp_path, content)
    assert bytes(segment.read_chunk(0, len(content))) == content
    assert resident_bytes(path) >= len(content) // 2
    mmapdata.let_pages_go()
    assert resident_bytes(path) == 0
    # still mapped, and read again from the page cache
    assert bytes(segment.read_chunk(4096, 16)) == content[4096 : 4096 + 16]
    assert 0 < resident_bytes(path) < len(content)


def test_an_idle_server_gives_back_the_heap_it_settled(monkeypatch):
    """settling keeps up to 8 MB of freed heap: glibc's malloc_trim gives
    it back between requests, and only where revlogperf settled the heap"""
    glibc = FakeGlibc(free=0)
    calls = glibc.trims
    monkeypatch.setattr(mmapdata, '_GLIBC', glibc)
    settling = mmapdata._HeapSettling()
    monkeypatch.setattr(mmapdata, '_heap', settling)
    mmapdata.let_pages_go()
    assert calls == []
    settling.settle()
    mmapdata.let_pages_go()
    assert calls == [0]


def test_a_server_trims_once_it_holds_more_than_after_its_last_trim(
    monkeypatch,
):
    """a trim after every request cost 6.3.3's workers CPU on short pages:
    the next request faults in what it gave back"""
    glibc = FakeGlibc(free=0)
    monkeypatch.setattr(mmapdata, '_GLIBC', glibc)
    held = [50 << 20]
    monkeypatch.setattr(mmapdata, '_anonymous_resident', lambda: held[0])
    settling = mmapdata._HeapSettling()
    monkeypatch.setattr(mmapdata, '_heap', settling)
    settling.settle()
    mmapdata.let_pages_go()
    assert glibc.trims == [0]
    held[0] += mmapdata.TRIM_PAST - 1
    mmapdata.let_pages_go()
    assert glibc.trims == [0]
    held[0] += 1
    mmapdata.let_pages_go()
    assert glibc.trims == [0, 0]
    # where the process's memory cannot be read, every request trims
    held[0] = None
    mmapdata.let_pages_go()
    mmapdata.let_pages_go()
    assert glibc.trims == [0, 0, 0, 0]


@pytest.mark.skipif(
    not os.path.exists('/proc/self/status'), reason='Linux /proc only'
)
def test_the_anonymous_memory_resident_is_the_kernel_s_rssanon():
    def rss_anon():
        with open('/proc/self/status', 'rb') as fp:
            for line in fp:
                if line.startswith(b'RssAnon:'):
                    return int(line.split()[1]) * 1024

    block = b'x' * (16 << 20)  # written: resident
    read = mmapdata._anonymous_resident()
    assert read >= len(block)
    anon = rss_anon()
    if anon is None:
        pytest.skip('no RssAnon before Linux 4.5')
    # two readings, a moment apart: the same to within a few pages
    assert abs(read - anon) < 1 << 20
    del block


class FakeGlibc:
    """malloc_trim and mallinfo2, recorded"""

    def __init__(self, free):
        self.free = free
        self.trims = []

    def malloc_trim(self, pad):
        self.trims.append(pad)

    def mallinfo2(self):
        return type('mallinfo2', (), {'fordblks': self.free})()


def test_the_heap_gaps_go_back_once_large(monkeypatch):
    glibc = FakeGlibc(free=1000)
    monkeypatch.setattr(mmapdata, '_GLIBC', glibc)
    mmapdata.give_back_heap_gaps(1000)
    assert glibc.trims == []
    glibc.free = 1001
    mmapdata.give_back_heap_gaps(1000)
    assert glibc.trims == [0]


def test_before_glibc_2_33_idle_servers_trim_but_gaps_stay(monkeypatch):
    glibc = FakeGlibc(free=1 << 30)
    glibc.mallinfo2 = None
    monkeypatch.setattr(mmapdata, '_GLIBC', glibc)
    mmapdata.give_back_heap_gaps(0)
    assert glibc.trims == []
    settling = mmapdata._HeapSettling()
    settling.settle()
    monkeypatch.setattr(mmapdata, '_heap', settling)
    mmapdata.let_pages_go()
    assert glibc.trims == [0]


def test_no_glibc_no_trim(monkeypatch):
    monkeypatch.setattr(mmapdata, '_GLIBC', None)
    mmapdata.give_back_heap_gaps(0)
    assert mmapdata._glibc() is None


@pytest.mark.skipif(platform.libc_ver()[0] != 'glibc', reason='glibc only')
def test_glibc_malloc_trim_and_mallinfo2_are_found(monkeypatch):
    monkeypatch.setattr(mmapdata, '_GLIBC', mmapdata._UNKNOWN)
    assert mmapdata._glibc().malloc_trim is not None
    # the free bytes of a heap that has some
    blocks = [bytes(1000) for _ in range(2000)]
    del blocks[::2]
    assert mmapdata._glibc().mallinfo2().fordblks > 0
    mmapdata.give_back_heap_gaps(0)  # runs
