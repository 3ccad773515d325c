# tasks.py - the revlog read tasks that the perf commands time
#
# Seed 000 measured a revlog reader with four tasks, each on a revlog opened
# anew as a starting process would: open it, read every index entry, read
# the tip's text, read 500 random revisions in forward order.

import random

from mercurial.revlogutils import constants

from .. import compat, perf


def reopener(rl):
    """a function opening ``rl`` anew, with the options its repository gives"""
    # core opens changelog and manifest with mmaplargeindex, never filelogs
    mmaplargeindex = rl.target[0] in (
        constants.KIND_CHANGELOG,
        constants.KIND_MANIFESTLOG,
    )

    def reopen():
        return compat.readonly_revlog(
            rl.opener, rl.target, rl.radix, mmaplargeindex
        )

    return reopen


def sample_revisions(length, count=perf.SAMPLE_SIZE, seed=0):
    """``count`` random revisions out of ``length``, in forward order"""
    count = min(count, length)
    return sorted(random.Random(seed).sample(range(length), count))


def benchmark_tasks(rl, count=perf.SAMPLE_SIZE, seed=0):
    """the four tasks of the historical revlog benchmark, as (name,
    function) pairs"""
    reopen = reopener(rl)
    tip = len(rl) - 1
    sample = sample_revisions(len(rl), count, seed)

    def open_():
        reopen()

    def index():
        opened = reopen()
        entries = opened.index
        for rev in range(len(opened)):
            entries[rev]

    def tip_():
        reopen().revision(tip)

    def sample_():
        opened = reopen()
        revision = opened.revision
        for rev in sample:
            revision(rev)

    return [
        (b'open', open_),
        (b'index', index),
        (b'tip', tip_),
        (b'sample', sample_),
    ]


def _chunk_reader(rl):
    """(chunk, chunks, reading) of a revlog: one chunk, many, open files"""
    owner = compat.chunk_owner(rl)
    return owner._chunk, owner._chunks, rl.reading


def chunk_tasks(rl):
    """decompress every chunk one by one, and all of them in one batch"""
    revs = list(range(len(rl)))

    def one_by_one():
        rl.clearcaches()
        chunk, _chunks, reading = _chunk_reader(rl)
        with reading():
            for rev in revs:
                chunk(rev)

    def batch():
        rl.clearcaches()
        _chunk, chunks, reading = _chunk_reader(rl)
        with reading():
            chunks(revs)

    return [(b'chunk', one_by_one), (b'chunk batch', batch)]


def index_memory(rl):
    """(peak, retained) bytes Python allocates to read every index entry

    Seed 002: an index that caches each entry it hands out costs about 200
    bytes per entry; one that builds entries on demand retains nothing.
    """
    import tracemalloc  # here, not when the extension loads

    opened = reopener(rl)()
    entries = opened.index
    started = tracemalloc.is_tracing()
    if not started:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        for rev in range(len(opened)):
            entries[rev]
        current, peak = tracemalloc.get_traced_memory()
    finally:
        if not started:
            tracemalloc.stop()
    return peak - base, current - base
