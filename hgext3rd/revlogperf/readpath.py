# readpath.py - read revisions with less work than core's general path
#
# A revision without a delta chain is one chunk; core still plans its read
# as a batch. And checking a revision's hash needs its parents' nodes, which
# core looks up with ``parents(node)``: that maps the node back to its
# revision, and a fresh revlog first builds a dict of every node (pure
# builds) or its node tree (C). The revision number is known there, so the
# parents are taken from its index entry.

import weakref

from mercurial import (
    changelog,
    exthelper,
    revlog,
)
from mercurial.revlogutils import constants

from . import (
    compat,
    damage,
    hotwrap,
    mmapdata,
)

eh = exthelper.exthelper()

_ENTRY_OFFSET_FLAGS, _ENTRY_LENGTH, _ENTRY_BASE = 0, 1, 3
_ENTRY_P1, _ENTRY_P2, _ENTRY_NODE, _ENTRY_COMPRESSION = 5, 6, 7, 10


def install_single_chunk_path(owner):
    """make ``owner._chunks`` read a lone revision (a full text) as one chunk

    Core plans every read as a batch: it slices the revisions into runs,
    reads a segment per run and decompresses each chunk out of it. A
    revision without a delta chain is one chunk, which ``_chunk`` returns
    as it is, with the same result and less work. Only a weak reference to
    ``owner`` is kept: no cycle keeps a dropped revlog and its maps alive.
    """
    owner_ref = weakref.ref(owner)
    chunks = type(owner)._chunks

    def chunks_or_chunk(revs, *args, **kwargs):
        owner = owner_ref()
        if len(revs) == 1:
            return [owner._chunk(revs[0])]
        return chunks(owner, revs, *args, **kwargs)

    owner._chunks = chunks_or_chunk


@hotwrap.hot_wrapper(eh, revlog.revlog, 'checkhash')
def _parents_from_index(core_checkhash):
    def checkhash(rl, text, node, p1=None, p2=None, rev=None):
        if p1 is None and p2 is None and rev is not None:
            index = rl.index
            entry = index[rev]
            try:
                p1 = index[entry[_ENTRY_P1]][_ENTRY_NODE]
                p2 = index[entry[_ENTRY_P2]][_ENTRY_NODE]
            except IndexError as exc:
                raise damage.index_damage(rl, exc)
        return core_checkhash(rl, text, node, p1, p2, rev=rev)

    return checkhash


# Changelog revisions are full texts (changelog.py), read one at a time by
# every scan of history (``log``, ``log -k``, ``desc()``, ``user()``): core
# takes each through its delta-chain machinery, for a chain of one. On
# curl's changelog (39,491 revisions, 7.2.4, 2026-12) a revision cost
# 10.3 us with the mapped file and the dispatcher, of which 2.1 us were
# zstd and 1.7 us the hash check; read straight, it costs 6.5 us.
#
# The changelog's class only: wrapping the revlog's made every filelog and
# manifest read pass through it too, 0.6% of the instructions of 6.3.3's
# ``verify`` of curl's first 6,000 changesets (cachegrind, 2026-12). No
# release's changelog has a ``_revisiondata`` of its own: the revlog's is
# looked up at each read, for the wrappers installed on it after this one.


def read_changelog_straight():
    """read changesets stored whole straight from their slice of the map

    Called once changelog is run (activation.py): the revlog's wrappers are
    installed while changelog's class is being made.
    """
    # another extension's wrapper set on the changelog's class stays, and
    # core's path with it
    if '_revisiondata' not in vars(changelog.changelog):
        changelog.changelog._revisiondata = _full_texts_read_straight


def _full_texts_read_straight(cl, nodeorrev, *args, **kwargs):
    # a checked text, as ``revision()`` asks for it: not raw
    if not kwargs and args in compat.REVISION_TEXT_ARGS:
        if type(nodeorrev) is int and nodeorrev >= 0:
            text = read_full_text(cl, nodeorrev)
            if text is not None:
                return text
    return revlog.revlog._revisiondata(cl, nodeorrev, *args, **kwargs)


def read_full_text(rl, rev):
    """the text of ``rev``, checked and kept as core keeps it, if it is
    stored whole, without flags, in a mapped data file; otherwise None, and
    core reads it: damage, and anything unexpected, is core's to report
    """
    node = rl.node(rev)  # a filtered revision raises here, as in core
    owner = compat.chunk_owner(rl)
    # mapped: not inline, not read by Rust, and set up (revlogsetup.py);
    # and given the dispatcher, after reads counted through core's path
    if (
        type(owner._segmentfile) is not mmapdata.MappedSegmentFile
        or owner._revlogperf_reads >= 0
    ):
        return None
    cached = compat.revision_cache(rl)
    if cached is not None and cached[0] == rev:
        return None
    try:
        text = _checked_full_text(rl, owner, rev, node)
    except Exception:
        return None
    if text is not None:
        compat.seen_text_size(owner, len(text))
        compat.cache_checked_text(owner, rev, node, text)
    return text


def _checked_full_text(rl, owner, rev, node):
    index = rl.index
    entry = index[rev]
    if (
        entry[_ENTRY_BASE] != rev
        or entry[_ENTRY_OFFSET_FLAGS] & 0xFFFF
        or entry[_ENTRY_COMPRESSION] != constants.COMP_MODE_INLINE
    ):
        return None
    chunk = owner._segmentfile.read_chunk(
        entry[_ENTRY_OFFSET_FLAGS] >> 16, entry[_ENTRY_LENGTH]
    )
    text = owner.decompress(chunk)
    if type(text) is not bytes:  # stored as is: a slice of the map
        text = bytes(text)
    p1 = index[entry[_ENTRY_P1]][_ENTRY_NODE]
    p2 = index[entry[_ENTRY_P2]][_ENTRY_NODE]
    if rl.hash(text, p1, p2) != node:
        return None
    return text
