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

import weakref

from mercurial import (
    exthelper,
    util,
)

from . import hotwrap

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


def holds_map_slices(owner, cache):
    """``cache``, of the revlog ``owner``, may hold slices of a map: the
    weak reference to keep on ``owner`` that lets go of them when ``owner``
    is dropped

    A cache's ring is a reference cycle, which lives on until the cycle
    collector runs; slices hold the map, and the map a file descriptor.
    Not a class of its own for such caches: core's calls on caches would
    see two classes.
    """
    return weakref.ref(owner, lambda _dropped: let_go_of_chunks(cache))


def let_go_of_chunks(cache):
    # not clear(), which makes a method call per node (``log -p`` drops a
    # large filelog per changeset)
    for node in cache._cache.values():
        node.value = None
