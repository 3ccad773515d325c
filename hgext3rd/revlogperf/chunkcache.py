# chunkcache.py - caches of decompressed chunks that stay as small as they are
#
# Mercurial 6.6+ keeps each revlog's recently decompressed chunks in a
# util.lrucachedict bounded by a count (10,000) and by a cost that follows
# the sizes read. Evicting by cost empties nodes at the old end of the
# cache's ring, but an insert below the count grows the ring by a node
# instead of reusing one of them: the ring fills up with empty nodes, and
# every later eviction walks past them first (reading a 100k-revision
# changelog on 7.2.4, measured 2026-11: 4.9 million nodes walked forward,
# 14.9 million in reverse, which made reverse reads 10% slower).
#
# The fix is made to the class, for every cache: giving each revlog's cache
# a class of its own made the method calls core makes on caches slower than
# what the fix saves, on commands that open many revlogs (``diff``: 1.2%
# more instructions, 7.2.4, 2026-12).
#
# Mercurial 6.3 to 6.5 keep no decompressed chunks at all: a revision read
# again, or the next one of the same delta chain, decompresses its whole
# chain again. Those revlogs get the cache 6.6+ has (``give_cache``), with
# core's bounds, so that a revlog kept across changesets (walkcache.py)
# pays off there too.

import weakref

from mercurial import (
    exthelper,
    revlog,
    util,
)

from . import compat, hotwrap

eh = exthelper.exthelper()


@hotwrap.hot_wrapper(eh, util.lrucachedict, '_addcapacity')
def compact_ring(core_addcapacity):
    """``_addcapacity`` that grows the ring only when no node is free

    The same entries, in the same order, evicted at the same time: only the
    number of nodes differs. It replaces core's method rather than calling
    it: a cache that grows calls it on every insert.
    """
    notset = util._notset
    node_class = util._lrucachenode

    def _addcapacity(cache):
        # emptied nodes are always the oldest (evictions and pops leave
        # them there): take one, as an insert at full capacity does
        head = cache._head
        oldest = head.prev
        if oldest.key is notset:
            return oldest
        # core's _addcapacity
        node = node_class()
        oldest.next = node
        node.prev = oldest
        node.next = head
        head.prev = node
        cache._size += 1
        return node

    return _addcapacity


@eh.extsetup
def _core_ring_at_exit(ui):
    # (after compact_ring's, registered first) util outlives revlogperf's
    # modules when Python exits: a method of ours left on its class kept
    # them all for Python's last shutdown passes, 5 million instructions
    # or 0.7% of ``hg status`` (7.2.4, 2026-12). Core's, put back once a
    # command has run, reads the same; a command server (``hg serve
    # --cmdserver``) runs its later commands with it.
    ui.atexit(
        setattr,
        util.lrucachedict,
        '_addcapacity',
        util.lrucachedict._addcapacity._origfunc,
    )


def let_go_with(owner):
    """let ``owner``'s decompressed chunks go when ``owner`` goes

    A cache's ring is a reference cycle, which lives on, with every chunk
    in it, until the cycle collector runs. ``log -p`` drops a filelog per
    changeset: on curl's history (7.2.4, 2026-12) the rings of dropped
    filelogs held 2.7 MB of chunks at a time without revlogperf, and 10.8
    MB with the filelogs kept longer (walkcache.py), which read more into
    them. Chunks may also be slices of a data map, which holds a file
    descriptor. Not a class of its own for such caches: core's calls on
    caches would see two classes.
    """
    cache = compat.chunk_cache(owner)
    if cache is not None:
        owner._revlogperf_chunks_go = weakref.ref(
            owner, lambda _dropped: let_go_of_chunks(cache)
        )


def let_go_of_chunks(cache):
    # not clear(), which makes a method call per node (``log -p`` drops a
    # large filelog per changeset)
    for node in cache._cache.values():
        node.value = None


# core 6.6+'s bounds: 10,000 chunks, and a cost that grows to 4 times the
# largest text read (``experimental.revlog.uncompressed-cache.*``)
CHUNK_COUNT = 10000
FIRST_MAX_COST = 65536

READS_ON_TRIAL = 8
"""reads of a revlog given a cache before one finds a chunk in it: after
that, its chunks are read as core reads them. ``verify`` and ``annotate``
read oldest first, each chunk once: keeping them all made ``verify``
1.12 of core's CPU time, 1.04 since; ``annotate`` 1.06, 1.03 since
(curl's history, 6.3.3, 2026-12)."""


def give_cache(owner):
    """a cache of decompressed chunks for ``owner``, where core gives it
    none (hg <= 6.5) and reads its chunks as ``revlog`` does, else None;
    ``read_through`` puts it to use"""
    if not compat.NO_CORE_CHUNK_CACHE:
        return None
    # bundle and union revlogs read some chunks from another file, through
    # a ``_chunk`` of their own (6.3's union one takes no ``df``): they
    # read as core reads them
    klass, core = type(owner), compat.DECOMPRESSION_OWNER
    if klass._chunk is not core._chunk or klass._chunks is not core._chunks:
        return None
    cache = util.lrucachedict(CHUNK_COUNT, maxcost=FIRST_MAX_COST)
    setattr(owner, compat.CHUNK_CACHE, cache)
    return cache


def read_through(owner, cache):
    """make ``owner``'s chunk reads (hg <= 6.5: ``_chunk`` and ``_chunks``)
    go through ``cache``, over whatever reads them now

    As 6.6+ does: chunks found are not read, the others are read in one
    batch and kept; the cost bound follows the texts read (core asks
    ``_chunks`` for 4 times the text's size at most). Only a weak reference
    to ``owner`` is kept.
    """
    owner_ref = weakref.ref(owner)
    klass = type(owner)
    chunk_of = owner.__dict__.get('_chunk')
    chunks_of = owner.__dict__.get('_chunks')
    get, insert = cache.get, cache.insert
    # reads left before one must have found a chunk (a list: both share it)
    trial = [READS_ON_TRIAL]

    def read_as_before():
        for name, before in (('_chunk', chunk_of), ('_chunks', chunks_of)):
            if before is None:
                owner_ref().__dict__.pop(name, None)
            else:
                setattr(owner_ref(), name, before)
        cache.clear()

    def given_up(hit):
        """count a read on trial: True once the revlog reads as core does"""
        if hit:
            trial[0] = None
            return False
        trial[0] -= 1
        if trial[0]:
            return False
        read_as_before()
        return True

    def cached_chunk(rev, df=None):
        found = get(rev)
        if trial[0] is not None and given_up(found is not None):
            return owner_ref()._chunk(rev, df=df)
        if found is None:
            if chunk_of is None:
                found = klass._chunk(owner_ref(), rev, df=df)
            else:
                found = chunk_of(rev, df=df)
            insert(rev, found, cost=len(found))
        return found

    def cached_chunks(revs, df=None, targetsize=None):
        if targetsize is not None and targetsize > cache.maxcost:
            cache.maxcost = targetsize
        revs = list(revs)
        found = [get(rev) for rev in revs]
        missing = [rev for rev, chunk in zip(revs, found) if chunk is None]
        if trial[0] is not None and given_up(len(missing) < len(revs)):
            return owner_ref()._chunks(revs, df=df, targetsize=targetsize)
        if missing:
            if chunks_of is None:
                read = klass._chunks(
                    owner_ref(), missing, df=df, targetsize=targetsize
                )
            else:
                read = chunks_of(missing, df=df, targetsize=targetsize)
            read = iter(read)
            for i, chunk in enumerate(found):
                if chunk is None:
                    chunk = found[i] = next(read)
                    insert(revs[i], chunk, cost=len(chunk))
        return found

    owner._chunk = cached_chunk
    owner._chunks = cached_chunks


def _forget_chunks(orig, rl, *args, **kwargs):
    # what core 6.6+ clears with its own cache
    cache = rl.__dict__.get(compat.CHUNK_CACHE)
    if cache is not None:
        cache.clear()
    return orig(rl, *args, **kwargs)


if compat.NO_CORE_CHUNK_CACHE:  # hg <= 6.5
    eh.wrapfunction(revlog.revlog, 'clearcaches')(_forget_chunks)
    eh.wrapfunction(revlog.revlog, 'strip')(_forget_chunks)
