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
#
# The read path waits once more, for Mercurial to run revlog: ``hg branch``
# and other commands that read the dirstate only never do, and its modules
# and wrappers were 5% of such a command's instructions (7.2.4, 2026-12).
# No revlog can be opened, read or written before revlog is run.

import threading

from mercurial import (
    changelog,
    exthelper,
    repoview,
    revlog,
)

from . import (
    config,
    lazyload,
    truncation,
    walkcache,
)


def _merged(*modules):
    """one exthelper of the modules', merged in this order"""
    helper = exthelper.exthelper()
    for module in modules:
        helper.merge(module.eh)
    return helper


eh = _merged(config, truncation, walkcache)

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
            lazyload.after_load(repoview, _set_up_repoview)
            # after compat's own, asked for when config imported it: the
            # read path needs revlog's layout
            lazyload.after_load(revlog, lambda: _set_up_reads(ui))
            # after: changelog runs revlog to make its class
            lazyload.after_load(changelog, _set_up_changelog_reads)
        _done = True


def _set_up_reads(ui):
    """install the wrappers of revlog reads (run with revlog, once)"""
    from . import (
        checkpoints,
        chunkcache,
        damage,
        decompress,
        mmapindex,
        readpath,
    )

    # checkpoints before damage: the reads damage names are its too
    reads = _merged(
        chunkcache, mmapindex, readpath, checkpoints, damage, decompress
    )
    reads.finaluisetup(ui)
    reads.finalextsetup(ui)


def _set_up_repoview():
    from . import repofilter

    repofilter.install()


def _set_up_changelog_reads():
    from . import readpath

    readpath.read_changelog_straight()
