"""the compact chunk cache: Mercurial's cache, in a ring no larger than it"""

import io
import os
import runpy
import unittest

import pytest
from hypothesis import given, settings, strategies as st

from mercurial import extensions, ui as uimod, util

from hgext3rd.revlogperf import chunkcache, config


def core_addcapacity():
    """Mercurial's own ``_addcapacity``, wrapped or not by a loaded
    revlogperf"""
    method = util.lrucachedict._addcapacity
    return getattr(method, "_origfunc", method)


class corelrucachedict(util.lrucachedict):
    _addcapacity = core_addcapacity()


class compactlrucachedict(util.lrucachedict):
    _addcapacity = chunkcache.compact_ring(core_addcapacity())


KEYS = st.integers(0, 12)
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("insert"), KEYS, st.integers(0, 40)),
        st.tuples(st.just("get"), KEYS),
        st.tuples(st.just("pop"), KEYS),
        st.tuples(st.just("popoldest")),
        st.tuples(st.just("clear")),
        # as _InnerRevlog.seen_file_size raises the limit
        st.tuples(st.just("maxcost"), st.integers(1, 120)),
    ),
    max_size=200,
)


def apply(cache, operation):
    name, args = operation[0], operation[1:]
    if name == "insert":
        key, cost = args
        cache.insert(key, "v%d-%d" % (key, cost), cost=cost)
    elif name == "maxcost":
        cache.maxcost = max(cache.maxcost, args[0])
    elif name == "popoldest":
        return cache.popoldest() if len(cache) else None
    elif name == "pop":
        return cache.pop(args[0], None)
    else:
        return getattr(cache, name)(*args)


def contents(cache):
    """entries newest first, as the cache orders them, and their cost"""
    return [(k, cache.peek(k)) for k in cache], cache.totalcost


@settings(max_examples=300, deadline=None)
@given(
    capacity=st.integers(1, 10),
    maxcost=st.integers(0, 60),
    operations=OPERATIONS,
)
def test_same_entries_as_mercurial_in_a_ring_no_larger(
    capacity, maxcost, operations
):
    core = corelrucachedict(capacity, maxcost=maxcost)
    compact = compactlrucachedict(capacity, maxcost=maxcost)
    most = 1  # entries held at once, counting one inserted before a prune
    for operation in operations:
        if operation[0] == "insert":
            most = max(most, len(compact) + 1)
        assert apply(core, operation) == apply(compact, operation)
        assert contents(compact) == contents(core)
        # core's ring only grows, up to the capacity
        assert compact._size <= min(most, capacity)


@pytest.mark.skipif(
    not os.environ.get("HG_TESTS_DIR"),
    reason="the release's tests/ (make test-unit sets HG_TESTS_DIR)",
)
def test_passes_mercurials_own_lrucachedict_tests(monkeypatch):
    tests = os.environ["HG_TESTS_DIR"]
    monkeypatch.syspath_prepend(tests)  # for its silenttestrunner
    monkeypatch.setattr(util, "lrucachedict", compactlrucachedict)
    module = runpy.run_path(os.path.join(tests, "test-lrucachedict.py"))
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(
        module["testlrucachedict"]
    )
    result = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
    assert result.wasSuccessful(), result.failures + result.errors
    assert result.testsRun >= 10


def test_evictions_by_cost_leave_no_trail_of_empty_nodes():
    # a revlog's pattern: many chunks, a cost limit holding a few of them
    core = corelrucachedict(10000, maxcost=1000)
    compact = compactlrucachedict(10000, maxcost=1000)
    for rev in range(20000):
        core.insert(rev, b"x" * 100, cost=100)
        compact.insert(rev, b"x" * 100, cost=100)
    assert contents(compact) == contents(core)
    assert core._size == 10000
    # the 10 entries that fit in the cost limit, and one inserted before
    # a prune
    assert compact._size <= 11


def test_every_cache_gets_the_compact_ring():
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b"extensions", b"revlogperf", extension)
    extensions.loadall(ui)
    method = util.lrucachedict._addcapacity
    # one class for every cache: no call site in core sees two
    assert method._origfunc is core_addcapacity()
    cache = util.lrucachedict(10, maxcost=100)
    for key in range(30):
        cache.insert(key, b"x" * 50, cost=50)
    assert cache._size <= 3


def test_a_dropped_revlog_lets_go_of_the_slices_in_its_cache(tmp_path):
    """the cache's ring is a cycle: without this, the chunks, and a map
    they slice with its file descriptor, would wait for the cycle
    collector"""
    import gc
    import mmap

    class Owner:
        pass

    path = tmp_path / "x.d"
    path.write_bytes(b"x" * 4096)
    with open(path, "rb") as fp:
        mapped = mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ)
    owner = Owner()
    cache = util.lrucachedict(10, maxcost=25)
    setattr(owner, chunkcache.compat.CHUNK_CACHE, cache)
    chunkcache.let_go_with(owner)
    view = memoryview(mapped)
    for rev in range(5):
        cache.insert(rev, view[rev : rev + 10], cost=10)
    view.release()
    gc.disable()
    try:
        with pytest.raises(BufferError):
            mapped.close()
        del owner
        mapped.close()
    finally:
        gc.enable()


def growing_file(tmp_path, revisions, **settings):
    """a repository with revlogperf loaded (``settings`` in its section),
    where revision n of the file ``f`` is its first n lines"""
    import subprocess
    import sys

    from mercurial import hg

    exe = os.path.join(os.path.dirname(sys.executable), "hg")
    env = {**os.environ, "HGRCPATH": "", "HGUSER": "test"}
    path = tmp_path / "repo"
    subprocess.run([exe, "init", str(path)], check=True, env=env)
    for n in range(revisions):
        (path / "f").write_text("".join("line %d\n" % i for i in range(n)))
        subprocess.run(
            [exe, "--cwd", str(path), "commit", "-qAm", str(n)],
            check=True,
            env=env,
        )
    ui = uimod.ui.load()
    ui.setconfig(
        b"extensions", b"revlogperf", os.path.dirname(config.__file__).encode()
    )
    for name, value in settings.items():
        ui.setconfig(b"revlogperf", name.replace("_", "-").encode(), value)
    extensions.loadall(ui)
    return hg.repository(ui, str(path).encode())


@pytest.mark.skipif(
    not chunkcache.compat.NO_CORE_CHUNK_CACHE,
    reason="Mercurial 6.6+ caches decompressed chunks itself",
)
def test_revlogs_of_older_releases_get_the_chunk_cache(
    tmp_path, monkeypatch, command
):
    from mercurial import revlog

    repo = command(growing_file(tmp_path, 12))
    fl = repo.file(b"f")._revlog
    # newest first, each read finds chunks of the one before; then all of
    # them again (the first read, before the cache, kept none)
    [fl.revision(rev) for rev in reversed(range(len(fl)))]
    texts = [fl.revision(rev) for rev in range(len(fl))]
    cache = getattr(fl, chunkcache.compat.CHUNK_CACHE)
    assert len(cache) > 0
    reads = []
    core_chunks = revlog.revlog._chunks
    monkeypatch.setattr(
        revlog.revlog,
        "_chunks",
        lambda rl, revs, **kwargs: reads.append(revs)
        or core_chunks(rl, revs, **kwargs),
    )
    fl._revisioncache = None
    assert fl.revision(len(fl) - 1) == texts[-1]
    assert reads == []  # the whole chain came from the cache
    fl.clearcaches()
    assert len(cache) == 0
    assert fl.revision(len(fl) - 1) == texts[-1]
    assert reads  # read again
    # a dropped revlog's chunks go at once, not with the cycle collector
    import gc

    from hgext3rd.revlogperf import walkcache

    chunks = cache._cache
    walkcache.forget(repo)  # which kept the filelog for the command
    gc.disable()
    try:
        del fl
        assert all(node.value is None for node in chunks.values())
    finally:
        gc.enable()


def test_a_revlog_keeps_chunks_from_its_second_read_on(tmp_path):
    """``update`` reads most filelogs once: their chunks are not kept"""
    from hgext3rd.revlogperf import compat

    repo = growing_file(tmp_path, 6)
    fl = repo.file(b"f")
    owner = compat.chunk_owner(fl._revlog)
    assert fl.revision(5) == b"".join(b"line %d\n" % i for i in range(5))
    cache = compat.chunk_cache(owner)
    assert cache is not None  # core's (6.6+), or given after the first read
    assert len(cache) == 0
    assert fl.revision(4) == b"".join(b"line %d\n" % i for i in range(4))
    chain, _stopped = fl._revlog._deltachain(4)
    assert len(chain) > 1
    assert len(cache) == len(chain)


def test_without_the_walk_cache_the_first_read_keeps_its_chunks(tmp_path):
    """``diff`` reads each side twice: without the walk's texts, a first
    read that kept nothing is decoded again (11% more than core)"""
    from hgext3rd.revlogperf import compat

    if compat.NO_CORE_CHUNK_CACHE:
        pytest.skip(
            "hg <= 6.5: core keeps no chunks, revlogperf from the"
            " second read on"
        )
    repo = growing_file(tmp_path, 6, walk_cache=b"0")
    fl = repo.file(b"f")
    fl.revision(4)
    cache = compat.chunk_cache(compat.chunk_owner(fl._revlog))
    chain, _stopped = fl._revlog._deltachain(4)
    assert len(cache) == len(chain) > 1


@pytest.mark.skipif(
    not chunkcache.compat.NO_CORE_CHUNK_CACHE,
    reason="Mercurial 6.6+ caches decompressed chunks itself",
)
def test_a_revlog_that_finds_no_chunk_kept_keeps_none(tmp_path):
    """verify and annotate read oldest first, each chunk once"""
    repo = growing_file(tmp_path, 20)
    fl = repo.file(b"f")._revlog
    texts = [fl.revision(rev) for rev in range(len(fl))]
    assert texts[-1] == b"".join(b"line %d\n" % i for i in range(19))
    assert len(getattr(fl, chunkcache.compat.CHUNK_CACHE)) == 0
    assert "_chunks" not in fl.__dict__  # read as core reads
