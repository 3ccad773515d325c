# truncation.py - shorten files by replacing them, so that maps stay valid
#
# A process that has a file mmapped dies of SIGBUS when it touches a page
# past the end of the file after another process truncated it. Strip,
# rollback and an aborted transaction (journal playback) shorten revlogs in
# place: every supported release opens the file through a vfs in append mode
# and calls truncate() on it (transaction._playback, repair.strip). Here
# such a truncate() writes the part that is kept to a temporary file next to
# the original and renames it over the original: existing maps keep the old
# inode and stay readable, new readers see the short file, and a file
# hardlinked into another repository is never written through. A file that
# keeps every page it had (most filelogs are smaller than a page) cannot
# raise SIGBUS in a map and is shortened in place, as core does.
#
# The rename is atomic: killed before it, the original is untouched and the
# journal still says what to do (hg recover); killed after it, the work is
# done, and replaying the journal again shortens nothing.

import mmap
import os

from mercurial import (
    exthelper,
    pycompat,
    util,
    vfs as vfsmod,
)

eh = exthelper.exthelper()

_PAGE = mmap.PAGESIZE


@eh.wrapfunction(vfsmod.vfs, '__call__')
def _open(orig, vfs, path, mode=b'rb', *args, **kwargs):
    fp = orig(vfs, path, mode, *args, **kwargs)
    # Windows cannot rename over an open file, nor truncate a mapped one
    if (
        mode[:1] == b'a'
        and not kwargs.get('atomictemp')
        and not pycompat.iswindows
    ):
        return ReplacingTruncate(fp, mode)
    return fp


class ReplacingTruncate:
    """a file opened for appending, whose truncate() replaces the file

    Everything else is the file's own (or the vfs wrapper's: the stat
    ambiguity check runs when the file is replaced, as at closing).
    """

    __slots__ = ('_fp', '_mode')

    def __init__(self, fp, mode):
        self._fp = fp
        self._mode = mode

    def __getattr__(self, name):
        return getattr(self._fp, name)

    def __enter__(self):
        self._fp.__enter__()
        return self

    def __exit__(self, *exc_info):
        return self._fp.__exit__(*exc_info)

    def truncate(self, size=None):
        fp = self._fp
        if size is None:
            size = fp.tell()
        fp.flush()
        if not unmaps_pages(os.fstat(fp.fileno()).st_size, size):
            return fp.truncate(size)
        path = fp.name
        replace_with_prefix(path, size)
        # the open file is the old inode now: later writes go to the new one
        fp.close()
        self._fp = util.posixfile(path, self._mode)
        return size


def unmaps_pages(old_size, new_size):
    """would shortening a file from ``old_size`` to ``new_size`` take from
    a map of it a page that it touches?

    Only a page wholly past the new end raises SIGBUS; within the last
    page, a map reads zeros past the end. Most filelogs are smaller than a
    page: they are truncated in place, as core does, at no cost.
    """
    if new_size >= old_size:
        return False
    return _pages(new_size) < _pages(old_size)


def _pages(size):
    return (size + _PAGE - 1) // _PAGE


def replace_with_prefix(path, size):
    """replace the file at ``path`` with a copy of its first ``size`` bytes

    The copy keeps the file's permission bits (``util.mktempcopy``); it is
    shortened before anyone can map it.
    """
    tmp = util.mktempcopy(path)
    try:
        os.truncate(tmp, size)
        # not util.rename: extensions that watch it for the files core
        # writes anew must not take this shortening for one (Mercurial's
        # test-transaction-rollback-on-revlog-split.t kills the process at
        # such a rename)
        os.replace(tmp, path)
    except BaseException:
        util.tryunlink(tmp)
        raise
