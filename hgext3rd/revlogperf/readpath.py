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
    exthelper,
    revlog,
)

from . import (
    damage,
    hotwrap,
)

eh = exthelper.exthelper()

_ENTRY_P1, _ENTRY_P2, _ENTRY_NODE = 5, 6, 7


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
