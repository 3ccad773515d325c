# mmapdata.py - revlog data files read as slices of one map
#
# Every supported release reads a revlog chunk through a ``randomaccessfile``:
# unless a window around it is cached, each read opens the data file, reads
# a 64 KB window into a new bytes object and slices it. A data file at or
# above ``revlogperf.mmap-data-threshold`` is mapped instead, once per
# revlog, and each chunk is a slice of the map: no open, no read, no copy.
#
# Every map holds a file descriptor (Python's mmap keeps a duplicate), so a
# process keeps at most ``revlogperf.mmap-data-budget`` of them; past that,
# the least recently used is dropped and mapped again if it is read again.

import collections
import mmap
import os
import weakref

from mercurial import (
    util,
    vfs as vfsmod,
)
from mercurial.revlogutils import randomaccessfile

from . import compat, mmapindex

_OFFSET, _LENGTH = 0, 1


def install(owner, settings):
    """map ``owner``'s data file from its next read, if it is large enough

    Decided from the index, which says how long the data file is: no stat
    or open of a file that the next read opens anyway. Inline revlogs keep
    their data in the index, and stay small: they are read as core reads.
    """
    if settings.data_threshold is None or getattr(owner, compat.INLINE):
        return False
    segment = owner._segmentfile
    # another extension's subclass is left alone
    if type(segment) is not randomaccessfile.randomaccessfile:
        return False
    index = owner.index
    count = len(index)
    if not count:
        return False
    last = index[count - 1]
    size = (last[_OFFSET] >> 16) + last[_LENGTH]
    opener, filename = segment.opener, segment.filename
    if not isinstance(opener, vfsmod.abstractvfs):
        return False  # another's opener: core's reads (MappedSegmentFile)
    if settings.why_not_map(None, size, opener, filename, data=True):
        return False
    # the object core made, as configured, with the map added
    segment.__class__ = MappedSegmentFile
    segment._settings = settings
    segment._vfs = opener
    cache = getattr(owner, compat.CHUNK_CACHE, None)
    if cache is not None:
        segment._chunk_cache = weakref.ref(cache)
    return True


class MappedSegmentFile(randomaccessfile.randomaccessfile):
    """a revlog data file whose chunks are slices of one map of it

    The file is mapped at the first read. Chunks past the end of the map
    (revisions appended since it was made) come from a new map, or, while
    this revlog is writing (its data may sit in the write buffer) or reads
    through an opener other than the store vfs it was mapped with, from
    the file, as core reads them: a transaction, a release or another
    extension may replace the opener (hg <= 6.8's changelog delays its
    writes through a plain function).
    """

    _settings = None
    _vfs = None  # the store vfs the file was mapped through
    _view = None
    _used = False
    _chunk_cache = None  # weak reference: its chunks may be slices of the map

    def clear_cache(self):
        super().clear_cache()
        self._drop()

    def read_chunk(self, offset, length, *args, **kwargs):
        end = offset + length
        view = self._view
        if view is not None and end <= len(view):
            self._used = True
            return view[offset:end]
        if self._remap(end):
            return self._view[offset:end]
        return super().read_chunk(offset, length, *args, **kwargs)

    def _remap(self, end):
        """map the file again if it reaches ``end``; True if it does"""
        vfs = self._vfs
        if self.writing_handle is not None or self.opener is not vfs:
            return False
        try:
            fp = vfs(self.filename)
        except FileNotFoundError:
            return False  # core's read reports it
        with fp:
            if os.fstat(fp.fileno()).st_size < end:
                return False  # core's read reports the short file
            limit = self._settings.data_budget
            # the old map goes once no slice of it is left
            self._view = None
            if not _BUDGET.make_room(self, limit):
                return False  # read as core reads, until a map is let go
            if not _BUDGET.mapped(self):
                mmapindex.trace(self._settings, vfs.join(self.filename))
            # random reads touch few pages: do not read the whole file in
            mapped = compat.mmapread_lazily(fp)
            self._view = util.buffer(mapped)
        if not _heap.settled:
            _heap.settle()
        _BUDGET.admit(self, mapped)
        return True

    def _drop(self):
        """let the map go"""
        if self._view is not None:
            self._release()
            _BUDGET.forget(self)

    def _release(self):
        # the map and its descriptor go with the last slice of it: the
        # revlog's cache of chunks may hold some (stored and uncompressed
        # chunks are slices)
        self._view = None
        cache = self._chunk_cache and self._chunk_cache()
        if cache is not None:
            cache.clear()


class _HeapSettling:
    """what core's first large read does to glibc's heap, done once

    glibc gives a block above its mmap threshold (128 KB at first) a map
    of its own, and when one is freed, raises that threshold to its size
    and the heap's trim threshold to twice that. Core reads delta chains
    into such blocks, so its heap soon stops shrinking and growing at
    every large text; where the chains are slices of a map, that never
    happens. Annotating a file of 10k revisions (the 20k sample, 7.2.4,
    2026-12), the heap then moved 25,872 times, with 1.6 million page
    faults against core's 184 thousand: 23% more time. A block of 4 MB,
    allocated zeroed (untouched pages) and freed, settles it as core's
    reads do; other allocators just give it back.
    """

    settled = False
    # the anonymous memory resident after the last trim
    trimmed_at = 0

    def settle(self):
        block = bytes(4 << 20)
        del block
        self.settled = True

    def trim(self):
        """give the system the free memory at the heap's end, and the free
        pages inside it, where settling kept them (glibc only), once the
        process holds TRIM_PAST more than after its last trim

        A server calls it after every request (``let_pages_go``).
        """
        glibc = _glibc() if self.settled else None
        if glibc is None:
            return
        held = _anonymous_resident()
        # the mark is not lowered when memory falls between trims: a worker
        # keeps at most what it held after a trim, plus TRIM_PAST. Lowered,
        # the trims came back: /raw-file 1.06 of core's CPU (1.00-1.27),
        # /log 1.13, PSS no lower (6.3.3, 10k sample, 3 rounds, 2026-12)
        if held is not None and held < self.trimmed_at + TRIM_PAST:
            return
        glibc.malloc_trim(0)
        self.trimmed_at = _anonymous_resident() or 0


TRIM_PAST = 1 << 20
"""the growth of a process's anonymous memory that makes a trim worth it.
Trimming after every request cost a 6.3.3 hgweb worker 16% more CPU than
core's on ``/raw-file``: the trim walks the whole heap, and the next
request faults in what it gave back. Past 1 MB, in two runs, the
workers' PSS was 0.95 and 0.91 of core's (0.80 with every request
trimming), and their CPU on ``/raw-file`` 0.98 and 1.08. Past 8 MB,
their PSS was 1.10 of core's (the 10k sample, 3 rounds, 2026-12,
doc/servers.md)."""


def _anonymous_resident():
    """the bytes of anonymous memory this process has resident (Linux),
    else None"""
    try:
        with open('/proc/self/statm', 'rb') as fp:
            fields = fp.read().split()
        # resident pages, less those of files and shared memory
        return (int(fields[1]) - int(fields[2])) * mmap.PAGESIZE
    except (OSError, IndexError, ValueError):
        return None


def give_back_heap_gaps(most):
    """give the system the free pages inside the heap once more than
    ``most`` bytes of it are free (glibc 2.33+; elsewhere, nothing)

    A cache that keeps texts (walkcache.py) pins the heap around the gaps
    that the texts a command drops leave: on curl's history, ``log -p
    FILE`` kept 62 MB of texts and peaked 98 MB above core (7.2.4,
    2026-12). ``mallinfo2`` counts the free bytes from the heap's free
    lists, without touching its pages.
    """
    glibc = _glibc()
    if (
        glibc is not None
        and glibc.mallinfo2 is not None
        and glibc.mallinfo2().fordblks > most
    ):
        glibc.malloc_trim(0)


def _glibc():
    """the C library where it has ``malloc_trim``, or None; its
    ``mallinfo2`` is None before glibc 2.33"""
    global _GLIBC
    if _GLIBC is _UNKNOWN:
        _GLIBC = None
        try:
            import ctypes

            class mallinfo2(ctypes.Structure):
                _fields_ = [
                    (name, ctypes.c_size_t)
                    for name in (
                        'arena',
                        'ordblks',
                        'smblks',
                        'hblks',
                        'hblkhd',
                        'usmblks',
                        'fsmblks',
                        'uordblks',
                        'fordblks',
                        'keepcost',
                    )
                ]

            # the process's own symbols, libc's among them: no search
            libc = ctypes.CDLL(None)
            libc.malloc_trim
            try:
                libc.mallinfo2.restype = mallinfo2
            except AttributeError:  # glibc < 2.33
                libc.mallinfo2 = None
            _GLIBC = libc
        except (ImportError, OSError, AttributeError):
            pass
    return _GLIBC


_UNKNOWN = object()
_GLIBC = _UNKNOWN


_heap = _HeapSettling()


class MapBudget:
    """the data files a process has mapped, at most ``limit`` at a time

    Least recently used first, as a clock: a map read since the last pass
    gets a second chance, so that a read costs one attribute store. A map
    let go lives on while a slice of it does (a caller may hold one), and
    so does its descriptor: the budget counts every map alive, and a file
    is read as core reads it while they fill it.
    """

    def __init__(self):
        self._maps = collections.OrderedDict()  # id -> weakref to segment
        self._alive = {}  # id -> weakref to a map not freed yet

    def __len__(self):
        return len(self._alive)

    def mapped(self, segment):
        """has ``segment`` a map (or had one, before it was let go)?"""
        return id(segment) in self._maps

    def make_room(self, segment, limit):
        """let maps go until ``segment`` may map its file: True if it may"""
        if limit is None:
            return True
        limit = max(limit, 1)
        key = id(segment)
        while len(self._maps) - (key in self._maps) >= limit:
            if not self._evict_one(key):
                break
        return len(self._alive) < limit

    def admit(self, segment, mapped):
        key = id(segment)
        if key not in self._maps:
            forget = self._maps.pop
            self._maps[key] = weakref.ref(segment, lambda _r: forget(key, 0))
        self._maps.move_to_end(key)
        segment._used = False
        try:
            free = self._alive.pop
            ref = weakref.ref(mapped, lambda _r, k=id(mapped): free(k, 0))
        except TypeError:
            return  # an empty file: core gives b'', no map
        self._alive[id(mapped)] = ref

    def forget(self, segment):
        self._maps.pop(id(segment), None)

    def let_pages_go(self):
        """unmap the pages of every map alive: they stay in the page
        cache, and are mapped again, from there, where they are read again"""
        for ref in list(self._alive.values()):
            mapped = ref()
            if mapped is not None and not mapped.closed:
                mapped.madvise(mmap.MADV_DONTNEED)

    def _evict_one(self, keep):
        """let one map go, or give it a second chance: False if none can"""
        for key, ref in self._maps.items():
            victim = ref()
            if key == keep:
                continue
            if victim is not None and victim._used:
                victim._used = False
                self._maps.move_to_end(key)
                return True
            if victim is not None:
                victim._release()
            del self._maps[key]
            return True
        return False


_BUDGET = MapBudget()


def let_go_of_repository(repo):
    """let the data maps of ``repo``'s changelog and manifest go

    For a repository replaced by a new one (hgweb, when the store changed):
    it lives on until the cycle collector runs, and with it the maps of
    files a writer may have replaced since, whose pages count as the
    process's. Nothing is loaded that ``repo`` had not loaded.
    """
    found = repo.unfiltered().__dict__
    revlogs = [found.get('changelog')]
    manifestlog = found.get('manifestlog')
    if manifestlog is not None:
        store = getattr(manifestlog, '_rootstore', None)
        revlogs.append(getattr(store, '_revlog', None))
    for rl in revlogs:
        if rl is None:
            continue
        segment = getattr(compat.chunk_owner(rl), '_segmentfile', None)
        if isinstance(segment, MappedSegmentFile):
            segment._drop()


def let_pages_go():
    """between two requests of a server, let the pages its maps hold go

    A page of a map counts in the process's memory (RSS, PSS) as long as
    it is mapped, while core's reads leave the same pages in the page cache
    alone: an hgweb worker that served a few requests would hold 4 MB more
    than core's (the 10k sample, 6.3.3, 2026-12).
    """
    if _CAN_LET_PAGES_GO:
        _BUDGET.let_pages_go()
    _heap.trim()


# Linux, and Python 3.8+; elsewhere the pages stay
_CAN_LET_PAGES_GO = hasattr(mmap.mmap, 'madvise') and hasattr(
    mmap, 'MADV_DONTNEED'
)


def live_maps():
    """how many maps of data files this process holds now"""
    return len(_BUDGET)
