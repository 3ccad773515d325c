# checkpoints.py - texts kept along a long delta chain, for its next reads
#
# A revision's text is its chain's base patched with every delta after it.
# Core keeps the last text it read, and starts from it only when that
# revision is in the next one's chain: reading newest first, never. ``log
# -p`` reads a manifest per changeset that way, ``log -p FILE`` the file's
# revisions too, and each read folds the whole chain again: 462 deltas on
# average for the manifest of the 5k sample (7.2.4, 2026-12).
#
# Within a walk (walkcache.py), once a revlog has been read a second time,
# a read whose chain is long keeps the text at every CHECKPOINT_EVERY-th
# place of its chain, with the texts the walk keeps (by node, within
# ``revlogperf.walk-cache``), and a later read patches from the nearest one
# kept. The places depend on the chain alone, so every revision of a chain
# finds the same ones. A revlog read once (most filelogs of ``update``) pays
# nothing: core reads it.

import weakref

from mercurial import (
    exthelper,
    mdiff,
    revlog,
)

from . import (
    compat,
    hotwrap,
)

eh = exthelper.exthelper()

CHECKPOINT_EVERY = 32
"""deltas between two texts kept; each kept text costs one more copy of the
text when it is made"""

_CHAINS = '_revlogperf_chains'


class Chains:
    """what one revlog keeps along its chains, for one walk"""

    __slots__ = ('walk', 'radix', 'last', 'last_node')

    def __init__(self, walk, radix):
        # weak: the walk keeps the filelog, whose revlog keeps this
        self.walk = weakref.ref(walk)
        self.radix = radix
        # the revision read last, None before the first read
        self.last = self.last_node = None


def attach(rl, walk):
    """keep checkpoints of ``rl``'s chains in ``walk`` from now on"""
    if compat.uses_rust(rl):
        return
    # the revlog's own dict: the walk keeps the revlog, not the other way
    rl.__dict__[_CHAINS] = Chains(walk, rl.radix)


def _start(chain, node, radix, texts):
    """(place in ``chain``, text kept there) to patch from, or (0, None)"""
    last = len(chain) - 1
    place = last - last % CHECKPOINT_EVERY
    if place == last:
        place -= CHECKPOINT_EVERY
    while place > 0:
        text = texts.get((radix, node(chain[place])))
        if text is not None:
            return place, text
        place -= CHECKPOINT_EVERY
    return 0, None


@hotwrap.hot_wrapper(eh, revlog.revlog, '_rawtext')
def patching_from_checkpoints(core_rawtext):
    """``revlog._rawtext`` that starts from the nearest text kept in the
    chain, and keeps texts along it"""

    def _rawtext(rl, node, rev, _df=None, **kwargs):
        chains = rl.__dict__.get(_CHAINS)
        # hg <= 6.3 passes _df (None but while a write is in progress):
        # named, it is not looked for in a dict at every read
        if chains is None or _df is not None or kwargs:
            if _df is not None:
                kwargs['_df'] = _df
            return core_rawtext(rl, node, rev, **kwargs)
        if rev is None:
            # read again by node (``verify``: rawdata() after revision()):
            # core's cache has it, and core needs no revision number
            if node == chains.last_node:
                return core_rawtext(rl, node, rev)
            rev = rl.rev(node)
        last = chains.last
        chains.last, chains.last_node = rev, node
        # the first read, or read oldest first (verify, annotate, bundle):
        # core's own text, the last read, is often in the chain. Asking
        # core's cache and the walk first was 1.2% of the instructions of
        # 6.3.3's ``verify`` of curl's first 6,000 changesets (2026-12).
        if last is None or last <= rev:
            return core_rawtext(rl, node, rev)
        walk = chains.walk()
        if walk is None or not walk.alive:
            return core_rawtext(rl, node, rev)
        cached = compat.revision_cache(rl)
        cached_rev = cached[0] if cached is not None else None
        if cached_rev is not None and cached_rev <= rev:
            return core_rawtext(rl, node, rev)
        # stopped: core's own text is in the chain (annotate reads oldest
        # first), and core patches from it
        chain, stopped = rl._deltachain(rev, stoprev=cached_rev)
        if (
            stopped
            or len(chain) <= CHECKPOINT_EVERY
            or rl.rawsize(rev) > walk.largest
        ):
            return core_rawtext(rl, node, rev)
        start, text = _start(chain, rl.node, chains.radix, walk.kept)
        return rev, _patch(rl, walk, chains.radix, chain, start, text), False

    return _rawtext


def _patch(rl, walk, radix, chain, start, text):
    """the text at the end of ``chain``, from ``text`` at place ``start``
    (the base's chunk where ``text`` is None), keeping checkpoints"""
    owner = compat.chunk_owner(rl)
    rev = chain[-1]
    rawsize = rl.rawsize(rev)
    compat.seen_text_size(owner, rawsize)
    first = start + 1 if text is not None else 0
    bins = owner._chunks(chain[first:], targetsize=4 * rawsize)
    if text is None:
        text = bytes(bins[0])
        bins = bins[1:]
    texts, largest = walk.kept, walk.largest
    done = 0
    place = start + CHECKPOINT_EVERY - start % CHECKPOINT_EVERY
    last = len(chain) - 1
    while place < last:
        upto = place - start
        text = mdiff.patches(text, bins[done:upto])
        done = upto
        kept = chain[place]
        # a flagged revision's stored text is not what its node names
        if len(text) <= largest and not rl.flags(kept):
            texts.insert((radix, rl.node(kept)), text, cost=len(text))
            walk.count_kept(len(text))
        place += CHECKPOINT_EVERY
    return mdiff.patches(text, bins[done:])
