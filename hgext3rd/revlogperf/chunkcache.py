# chunkcache.py - caches of decompressed chunks that stay as small as they are
#
# Mercurial 6.6+ keeps each revlog's recently decompressed chunks in a
# util.lrucachedict bounded by a count (10,000) and by a cost that follows
# the sizes read. Evicting by cost empties nodes at the old end of the
# cache's ring, but an insert below the count grows the ring by a node
# instead of reusing one of them: the ring fills up with empty nodes, and
# every later eviction walks past them first (reading a 100k-revision
# changelog on 7.2.4: 4.9 million nodes walked forward, 14.9 million in
# reverse, which made reverse reads 10% slower than forward).

from mercurial import (
    exthelper,
    util,
)

from . import compat

eh = exthelper.exthelper()


class compactlrucachedict(util.lrucachedict):
    """a util.lrucachedict whose ring grows only when no node is free

    The same entries, in the same order, evicted at the same time: only the
    number of nodes differs.
    """

    def _addcapacity(self):
        # emptied nodes are always the oldest (evictions and pops leave
        # them there): take one, as an insert at full capacity does
        oldest = self._head.prev
        if oldest.key is util._notset:
            return oldest
        return super()._addcapacity()


@eh.wrapfunction(compat.DECOMPRESSION_OWNER, '__init__')
def _compact_chunk_cache(orig, owner, *args, **kwargs):
    orig(owner, *args, **kwargs)
    cache = compat.chunk_cache(owner)
    if cache is not None:
        # the cache core made, as configured, given the one method more (as
        # extensions give a repository theirs)
        cache.__class__ = compactlrucachedict
