# truncation.py - shorten store files by replacing them, so maps stay valid
#
# A process that has a file mmapped dies of SIGBUS when it touches a page
# past the end of the file after another process truncated it. Strip,
# rollback and an aborted transaction (journal playback) shorten revlogs in
# place: every supported release opens the file through the store vfs in
# append mode and calls truncate() on it (transaction._playback,
# repair.strip). Here such a truncate() copies the part that is kept to a
# new file next to the original and renames it over the original: existing
# maps keep the old inode and stay readable, new readers see the short file,
# and a file hardlinked into another repository is never written through.
#
# Every shortened file is replaced, even one that keeps every page it had:
# a map of it still covers the bytes cut off, and the next append writes
# other bytes there. hgweb workers served wrong pages so (changesets not
# found, "rev -1" logs; contrib/bench_server.py, 7.2.4, 2026-12), as core's
# own index maps do; a file handle of the old inode keeps reading it whole.
#
# The replacement must leave what core leaves, or it is not made: the file
# is then truncated in place, as core does, with a one-line warning.
# - The copy needs room for the kept bytes: on a full disk, in place.
# - The copy must have the original's owner, group and mode (a store shared
#   by a group): where the writer cannot give them, in place.
#
# The rename is atomic: killed before it, the original is untouched and the
# journal still says what to do (hg recover); killed after it, the work is
# done, and replaying the journal again shortens nothing. A copy a killed
# writer leaves is listed in the store's ``revlogperf-copies`` first, and
# removed by the next transaction or ``hg recover``.

import errno
import os
import stat

from mercurial.i18n import _
from mercurial import (
    exthelper,
    localrepo,
    pycompat,
    util,
    vfs as vfsmod,
)
from mercurial.utils import stringutil

from . import config

eh = exthelper.exthelper()

COPY_SUFFIX = b'.revlogperf-shortened~'
"""what the name of a shortened copy ends with, until it is renamed"""
COPIES_RECORD = b'revlogperf-copies'
"""the store file listing the shortened copies that may be left over"""
_COPY_BLOCK = 1 << 20


def replace_when_shortening(repo):
    """make the repository's store vfs replace the files it shortens

    Every store file core shortens, it shortens in a transaction (abort,
    strip), a rollback or a recovery: the wrappers below call this first.
    Until then, the store vfs opens files as core's does, at no cost to
    read-only commands and servers, which open thousands of files.

    The raw store vfs is given a subclass in place, as extensions give a
    repository theirs: the working copy, ``.hg`` and every other vfs open
    files as core does. Windows can neither rename over an open file nor
    truncate a mapped one.
    """
    vfs = getattr(getattr(repo, 'store', None), 'rawvfs', None)
    if type(vfs) is vfsmod.vfs and not pycompat.iswindows:
        vfs.__class__ = replacingvfs


class replacingvfs(vfsmod.vfs):
    """a store vfs whose files opened for appending replace themselves
    when they are shortened"""

    def __call__(self, path, mode=b'rb', *args, **kwargs):
        fp = vfsmod.vfs.__call__(self, path, mode, *args, **kwargs)
        if mode[:1] == b'a' and not kwargs.get('atomictemp'):
            settings = config.settings(self)
            if settings is not None:
                return ReplacingTruncate(fp, mode, self, settings.ui)
        return fp


class ReplacingTruncate:
    """a store file opened for appending, whose truncate() replaces the file

    Everything else is the file's own (or the vfs wrapper's: the stat
    ambiguity check runs when the file is replaced, as at closing).
    """

    __slots__ = ('_fp', '_mode', '_vfs', '_ui')

    def __init__(self, fp, mode, vfs, ui):
        self._fp = fp
        self._mode = mode
        self._vfs = vfs
        self._ui = ui

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
        if size >= os.fstat(fp.fileno()).st_size:
            return fp.truncate(size)  # nothing cut off
        path = fp.name
        try:
            replace_with_prefix(self._vfs.base, path, size)
        except CannotReplace as exc:
            self._ui.warn(
                _(
                    b'revlogperf: cannot replace %s (%s): truncated in '
                    b'place, processes reading it may fail\n'
                )
                % (_relative(self._vfs.base, path), exc.reason)
            )
            return fp.truncate(size)
        # the open file is the old inode now: later writes go to the new one
        fp.close()
        self._fp = util.posixfile(path, self._mode)
        return size


class CannotReplace(Exception):
    """the shortened copy could not be made as core's file would be"""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def replace_with_prefix(store, path, size):
    """replace the file at ``path`` with a copy of its first ``size`` bytes

    The copy has the original's owner, group and permission bits, and is
    on disk before the rename. Raises CannotReplace, leaving the original
    as it was, where that cannot be done.
    """
    copy = path + COPY_SUFFIX
    try:
        _record_copy(store, copy)
        src = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise CannotReplace(stringutil.forcebytestr(exc.strerror))
    try:
        original = os.fstat(src)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        dst = os.open(copy, flags, 0o600)
        try:
            _copy_prefix(src, dst, size)
            _give_ownership(dst, original)
            os.fsync(dst)
        finally:
            os.close(dst)
        # not util.rename: extensions that watch it for the files core
        # writes anew must not take this shortening for one (Mercurial's
        # test-transaction-rollback-on-revlog-split.t kills the process at
        # such a rename)
        os.replace(copy, path)
    except OSError as exc:
        util.tryunlink(copy)
        raise CannotReplace(stringutil.forcebytestr(exc.strerror))
    except BaseException:
        util.tryunlink(copy)
        raise
    finally:
        os.close(src)


def _copy_prefix(src, dst, size):
    offset = 0
    while offset < size:
        block = os.pread(src, min(_COPY_BLOCK, size - offset), offset)
        if not block:
            raise OSError(errno.EIO, 'file shorter than expected')
        while block:
            written = os.write(dst, block)
            block = block[written:]
            offset += written


def _give_ownership(fd, original):
    """give the file ``fd`` the owner, group and mode of ``original``"""
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (original.st_uid, original.st_gid):
        # root may give a file away; others may only change its group to
        # one of theirs: EPERM, and the original is truncated in place
        os.fchown(fd, original.st_uid, original.st_gid)
    # after chown, which clears the set-id bits
    os.fchmod(fd, stat.S_IMODE(original.st_mode))


def _record_copy(store, copy):
    """list ``copy`` in the store before it exists, for a later cleanup"""
    with open(os.path.join(store, COPIES_RECORD), 'ab') as record:
        record.write(_relative(store, copy) + b'\n')


def _relative(store, path):
    """``path`` relative to the store directory, as stored on disk"""
    return os.path.relpath(path, store)


def leftover_copies(store):
    """the shortened copies a killed writer left in the store directory"""
    try:
        with open(os.path.join(store, COPIES_RECORD), 'rb') as record:
            listed = record.read().splitlines()
    except FileNotFoundError:
        return []
    return sorted(
        path
        for path in set(listed)
        if path.endswith(COPY_SUFFIX)
        and os.path.lexists(os.path.join(store, path))
    )


def remove_leftover_copies(repo):
    """remove the copies a killed writer left (the store lock is held)"""
    store = repo.store.path
    for path in leftover_copies(store):
        util.tryunlink(os.path.join(store, path))
        repo.ui.debug(b'removed leftover copy %s\n' % path)
    util.tryunlink(os.path.join(store, COPIES_RECORD))


def _has_record(repo):
    return os.path.lexists(os.path.join(repo.store.path, COPIES_RECORD))


@eh.wrapfunction(localrepo.localrepository, 'transaction')
def _transaction(orig, repo, *args, **kwargs):
    replace_when_shortening(repo)
    tr = orig(repo, *args, **kwargs)
    if _has_record(repo):
        remove_leftover_copies(repo)
    return tr


@eh.wrapfunction(localrepo.localrepository, 'rollback')
def _rollback(orig, repo, *args, **kwargs):
    replace_when_shortening(repo)
    return orig(repo, *args, **kwargs)


@eh.wrapfunction(localrepo.localrepository, 'recover')
def _recover(orig, repo, *args, **kwargs):
    replace_when_shortening(repo)
    with repo.lock():
        if _has_record(repo):
            remove_leftover_copies(repo)
    return orig(repo, *args, **kwargs)
