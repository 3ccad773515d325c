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

from mercurial import util

from . import compat


class compactlrucachedict(util.lrucachedict):
    """a util.lrucachedict whose ring grows only when no node is free

    The same entries, in the same order, evicted at the same time: only the
    number of nodes differs.
    """

    def _addcapacity(self):
        # emptied nodes are always the oldest (evictions and pops leave
        # them there): take one, as an insert at full capacity does
        head = self._head
        oldest = head.prev
        if oldest.key is util._notset:
            return oldest
        # util.lrucachedict._addcapacity, without a second call per insert
        node = util._lrucachenode()
        oldest.next = node
        node.prev = oldest
        node.next = head
        head.prev = node
        self._size += 1
        return node


class mappedlrucachedict(compactlrucachedict):
    """the cache of a revlog whose data file is mapped: its chunks can be
    slices of the map"""

    def __del__(self):
        # the ring is a reference cycle, which lives on until the cycle
        # collector runs: let go of the chunks now (slices hold the map,
        # and the map a file descriptor)
        if self._cache:
            self.clear()


def install(owner):
    """give the cache core made for ``owner``, as configured, the compact ring

    In place, as extensions give a repository their class: whatever core
    configured stays.
    """
    cache = getattr(owner, compat.CHUNK_CACHE, None)
    if cache is not None:
        cache.__class__ = compactlrucachedict


def holds_map_slices(cache):
    """``cache`` may hold slices of a map: empty it when it is dropped

    Only then: emptying a ring costs a walk of it.
    """
    if type(cache) is compactlrucachedict:
        cache.__class__ = mappedlrucachedict
