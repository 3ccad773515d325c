"""the compact chunk cache: Mercurial's cache, in a ring no larger than it"""

import io
import os
import runpy
import unittest

import pytest
from hypothesis import given, settings, strategies as st

from mercurial import context, extensions, localrepo, ui as uimod, util

from hgext3rd.revlogperf import chunkcache, compat, config

KEYS = st.integers(0, 12)
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just('insert'), KEYS, st.integers(0, 40)),
        st.tuples(st.just('get'), KEYS),
        st.tuples(st.just('pop'), KEYS),
        st.tuples(st.just('popoldest')),
        st.tuples(st.just('clear')),
        # as _InnerRevlog.seen_file_size raises the limit
        st.tuples(st.just('maxcost'), st.integers(1, 120)),
    ),
    max_size=200,
)


def apply(cache, operation):
    name, args = operation[0], operation[1:]
    if name == 'insert':
        key, cost = args
        cache.insert(key, 'v%d-%d' % (key, cost), cost=cost)
    elif name == 'maxcost':
        cache.maxcost = max(cache.maxcost, args[0])
    elif name == 'popoldest':
        return cache.popoldest() if len(cache) else None
    elif name == 'pop':
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
    core = util.lrucachedict(capacity, maxcost=maxcost)
    compact = chunkcache.compactlrucachedict(capacity, maxcost=maxcost)
    most = 1  # entries held at once, counting one inserted before a prune
    for operation in operations:
        if operation[0] == 'insert':
            most = max(most, len(compact) + 1)
        assert apply(core, operation) == apply(compact, operation)
        assert contents(compact) == contents(core)
        # core's ring only grows, up to the capacity
        assert compact._size <= min(most, capacity)


@pytest.mark.skipif(
    not os.environ.get('HG_TESTS_DIR'),
    reason="the release's tests/ (make test-unit sets HG_TESTS_DIR)",
)
def test_passes_mercurials_own_lrucachedict_tests(monkeypatch):
    tests = os.environ['HG_TESTS_DIR']
    monkeypatch.syspath_prepend(tests)  # for its silenttestrunner
    monkeypatch.setattr(util, 'lrucachedict', chunkcache.compactlrucachedict)
    module = runpy.run_path(os.path.join(tests, 'test-lrucachedict.py'))
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(
        module['testlrucachedict']
    )
    result = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
    assert result.wasSuccessful(), result.failures + result.errors
    assert result.testsRun >= 10


def test_evictions_by_cost_leave_no_trail_of_empty_nodes():
    # a revlog's pattern: many chunks, a cost limit holding a few of them
    core = util.lrucachedict(10000, maxcost=1000)
    compact = chunkcache.compactlrucachedict(10000, maxcost=1000)
    for rev in range(20000):
        core.insert(rev, b'x' * 100, cost=100)
        compact.insert(rev, b'x' * 100, cost=100)
    assert contents(compact) == contents(core)
    assert core._size == 10000
    # the 10 entries that fit in the cost limit, and one inserted before
    # a prune
    assert compact._size <= 11


def test_revlogs_get_the_compact_cache(tmp_path):
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b'extensions', b'revlogperf', extension)
    extensions.loadall(ui)
    path = str(tmp_path).encode()
    repo = localrepo.instance(ui, path, True)
    with repo.lock():
        context.memctx(
            repo,
            (None, None),
            b'one',
            [b'a'],
            lambda repo, ctx, path: context.memfilectx(repo, ctx, path, b'a'),
            user=b'test',
        ).commit()
    changelog = localrepo.instance(ui, path, False).unfiltered().changelog
    owner = compat.chunk_owner(changelog)
    cache = compat.chunk_cache(owner)
    if util.versiontuple(n=2) >= (6, 6):
        # the extension as loaded (from its path: another module object)
        loaded = extensions.find(b'revlogperf').chunkcache
        # set up at its first chunk: opening a revlog costs what it does
        assert not isinstance(cache, loaded.compactlrucachedict)
        changelog.revision(0)
        assert isinstance(cache, loaded.compactlrucachedict)
    else:
        assert cache is None
