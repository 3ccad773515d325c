# activation.py - the read path and the truncation guard, set up once
#
# Loading revlogperf must cost a command that opens no repository nothing
# (``hg version``, ``hg help``, a chg server starting): the wrappers here
# need Mercurial modules such a command never runs, ~13 ms on 7.2.4
# (2026-12). They are installed when Mercurial runs localrepo (see
# lazyload.py), before anything in it can be called: every local
# repository is made by ``localrepo.makelocalrepository``, whoever opens
# it (hg.repository, bundle and union repositories, a clone's destination,
# chainsaw), and every write needs one. Nothing reads or writes a revlog
# of a repository before the guard is in place.

import threading

from mercurial import exthelper

from . import (
    checkpoints,
    chunkcache,
    config,
    damage,
    decompress,
    mmapindex,
    readpath,
    truncation,
    walkcache,
)

eh = exthelper.exthelper()
eh.merge(config.eh)
eh.merge(chunkcache.eh)
eh.merge(mmapindex.eh)
eh.merge(readpath.eh)
# before damage.py: the reads it names are these too
eh.merge(checkpoints.eh)
eh.merge(damage.eh)
eh.merge(decompress.eh)
eh.merge(truncation.eh)
eh.merge(walkcache.eh)

# hgweb serves in threads: the first repositories may be made at once
_lock = threading.Lock()
_started = _done = False


def activate(ui):
    """install every wrapper of revlogperf's, once per process"""
    global _started, _done
    if _done:
        return
    with _lock:
        if not _started:
            # set first: a failure half-way must not wrap twice on retry
            _started = True
            eh.finaluisetup(ui)
            eh.finalextsetup(ui)
        _done = True
