# readpath.py - read revisions without per-read file I/O or node lookups
#
# Every supported release reads a revlog chunk through a ``randomaccessfile``:
# unless a window around it is cached, each read opens the data file, reads
# a 64 KB window into a new bytes object and slices it. A data file at or
# above ``revlogperf.mmap-data-threshold`` is mapped instead, once per
# revlog, and each chunk is a slice of the map: no open, no read, no copy.
#
# Checking a revision's hash needs its parents' nodes. Core looks them up
# with ``parents(node)``, which maps the node back to its revision: a fresh
# revlog first builds a dict of every node (pure builds) or its node tree
# (C). The revision number is known there, so the parents are taken from
# its index entry.

from mercurial import (
    exthelper,
    revlog,
    util,
)
from mercurial.revlogutils import randomaccessfile

from . import compat, config, mmapindex

eh = exthelper.exthelper()

_ENTRY_P1, _ENTRY_P2, _ENTRY_NODE = 5, 6, 7


class MappedSegmentFile(randomaccessfile.randomaccessfile):
    """a revlog data file whose chunks are slices of one map of it

    The file is mapped at the first read. Chunks past the end of the map
    (revisions appended since it was made) come from a new map, or, while
    this revlog is writing (its data may sit in the write buffer), from the
    file, as core reads them.
    """

    def __init__(self, settings, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._settings = settings
        self._view = None

    def clear_cache(self):
        super().clear_cache()
        self._view = None

    def read_chunk(self, offset, length, *args, **kwargs):
        end = offset + length
        view = self._view
        if view is not None and end <= len(view):
            return view[offset:end]
        if self._remap(end):
            return self._view[offset:end]
        return super().read_chunk(offset, length, *args, **kwargs)

    def _remap(self, end):
        """map the file again if it reaches ``end``; True if it does"""
        if self.writing_handle is not None:
            return False
        try:
            fp = self.opener(self.filename)
        except FileNotFoundError:
            return False  # core's read reports it
        with fp:
            if self.opener.fstat(fp).st_size < end:
                return False  # core's read reports the short file
            if self._view is None:
                mmapindex.trace(self._settings, self.opener.join(self.filename))
            # random reads touch few pages: do not read the whole file in
            self._view = util.buffer(compat.mmapread_lazily(fp))
        return True


@eh.wrapfunction(randomaccessfile, 'randomaccessfile')
def _segment_file(orig, opener, filename, *args, **kwargs):
    settings = getattr(opener, 'options', None) and config.settings(opener)
    threshold = settings.data_threshold if settings else None
    if threshold is not None and filename is not None:
        try:
            size = opener.stat(filename).st_size
        except FileNotFoundError:
            size = 0
        # one stat when the revlog opens: a file too small to map is read
        # as core reads it, without a look at it on every first read
        if size and size >= threshold:
            if settings.mmap_safe(opener.join(filename)):
                return MappedSegmentFile(
                    settings, opener, filename, *args, **kwargs
                )
    return orig(opener, filename, *args, **kwargs)


@eh.wrapfunction(compat.DECOMPRESSION_OWNER, '__init__')
def _install_single_chunk_path(orig, owner, *args, **kwargs):
    orig(owner, *args, **kwargs)
    if isinstance(getattr(owner, '_segmentfile', None), MappedSegmentFile):
        owner._chunks = single_chunk_path(owner, owner._chunks)


def single_chunk_path(owner, chunks):
    """``chunks``, reading a lone revision (a full text) as one chunk

    Core plans every read as a batch: it slices the revisions into runs,
    reads a segment per run and decompresses each chunk out of it. A
    revision without a delta chain is one chunk, which ``_chunk`` returns
    as it is, with the same result and less work.
    """
    chunk = owner._chunk

    def chunks_or_chunk(revs, *args, **kwargs):
        if len(revs) == 1:
            return [chunk(revs[0])]
        return chunks(revs, *args, **kwargs)

    return chunks_or_chunk


@eh.wrapfunction(revlog.revlog, 'checkhash')
def _checkhash(orig, rl, text, node, p1=None, p2=None, rev=None):
    if p1 is None and p2 is None and rev is not None:
        index = rl.index
        entry = index[rev]
        p1 = index[entry[_ENTRY_P1]][_ENTRY_NODE]
        p2 = index[entry[_ENTRY_P2]][_ENTRY_NODE]
    return orig(rl, text, node, p1, p2, rev=rev)
