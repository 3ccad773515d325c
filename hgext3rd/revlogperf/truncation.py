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
# is then truncated in place, as core does, with one warning line for the
# whole operation (strip, rollback, abort). Whatever stops the copy stops
# the replacement only:
# - The copy needs room for the kept bytes: on a full disk, in place.
# - The copy must have the original's owner, group and mode (a store shared
#   by a group): where the writer cannot give them, in place.
# - The copy's name is never longer than core's own temporary names; where
#   the file system refuses it anyway, in place.
#
# The rename is atomic: killed before it, the original is untouched and the
# journal still says what to do (hg recover); killed after it, the work is
# done, and replaying the journal again shortens nothing. A copy is listed
# in the store's ``revlogperf-copies`` before it is made, and the list is
# removed with it: a copy a killed writer leaves is removed by the next
# transaction or ``hg recover``. Removing it is best effort: one that cannot
# be removed (another user's, in a directory the writer may not change)
# stays listed, is named once in a warning and by ``hg
# debug-revlog-storage``, and never stops a transaction.

import errno
import os
import stat
import threading

from mercurial.i18n import _
from mercurial import (
    exthelper,
    localrepo,
    pycompat,
    repair,
    transaction,
    util,
    vfs as vfsmod,
)
from mercurial.utils import stringutil

from . import config, lazyload

eh = exthelper.exthelper()

COPY_SUFFIX = b'-shorten~'
"""what the name of a shortened copy ends with, until it is renamed: the
copy of ``data/f.i`` is ``data/.f.i-shorten~``, one byte shorter than the
``data/.f.i-XXXXXXXX~`` core's own temporary copies (util.mktempcopy) get"""
# listed by revlogperf before 2a8cab7: still removed where left
_OLD_COPY_SUFFIXES = (b'.revlogperf-shortened~',)
COPIES_RECORD = b'revlogperf-copies'
"""the store file listing the shortened copies that may be left over; it
exists only while a copy is being made, or where one could not be removed"""
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
            replace_with_prefix(
                self._vfs.base, path, size, self._vfs.createmode
            )
        except CannotReplace as exc:
            _report_in_place(
                self._ui, _relative(self._vfs.base, path), exc.reason
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


def copy_name(path):
    """where the shortened copy of the store file ``path`` is made"""
    directory, name = os.path.split(path)
    return os.path.join(directory, b'.' + name + COPY_SUFFIX)


def replace_with_prefix(store, path, size, createmode=None):
    """replace the file at ``path`` with a copy of its first ``size`` bytes

    The copy has the original's owner, group and permission bits, and is
    on disk before the rename. Raises CannotReplace, leaving the original
    as it was, where that cannot be done for any reason of the system's.
    """
    copy = copy_name(path)
    try:
        _list_copy(store, copy, createmode)
        src = os.open(path, os.O_RDONLY)
    except OSError as exc:
        _unlist_copies(store)
        raise CannotReplace(_reason(exc))
    try:
        original = os.fstat(src)
        # a copy a killed writer left, if it may be removed
        _remove_quietly(copy)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
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
        _remove_quietly(copy)
        raise CannotReplace(_reason(exc))
    except BaseException:
        _remove_quietly(copy)
        raise
    finally:
        os.close(src)
        _unlist_copies(store)


def _reason(exc):
    return stringutil.forcebytestr(exc.strerror or exc)


def _remove_quietly(path):
    """remove ``path`` if this process may; never raises"""
    try:
        os.unlink(path)
    except OSError:
        pass


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


# One warning line per operation for the files truncated in place: a strip
# by another user of a group-shared store may fall back for every revlog it
# shortens. Operations run in one thread each (hgweb serves pushes so).
_operation = threading.local()


def _report_in_place(ui, path, reason):
    pending = getattr(_operation, 'in_place', None)
    if pending is None:
        _warn_in_place(ui, [(path, reason)])
    else:
        pending.append((ui, path, reason))
        ui.note(
            _(b'revlogperf: cannot replace %s (%s): truncated in place\n')
            % (path, reason)
        )


def _warn_in_place(ui, files):
    """one warning line for ``files``, (path, reason) pairs"""
    (first, reason), others = files[0], len(files) - 1
    if not others:
        ui.warn(
            _(
                b'revlogperf: cannot replace %s (%s): truncated in place, '
                b'processes reading it may fail\n'
            )
            % (first, reason)
        )
        return
    reasons = b'; '.join(sorted({r for p, r in files}))
    ui.warn(
        _(
            b'revlogperf: cannot replace %s and %d other store files (%s): '
            b'truncated in place, processes reading them may fail\n'
        )
        % (first, others, reasons)
    )


def _one_warning_per_operation(orig, *args, **kwargs):
    if getattr(_operation, 'in_place', None) is not None:
        return orig(*args, **kwargs)  # within another operation
    _operation.in_place = files = []
    try:
        return orig(*args, **kwargs)
    finally:
        _operation.in_place = None
        if files:
            _warn_in_place(files[0][0], [(p, r) for ui, p, r in files])


# only once the command runs them: most never shorten a file
lazyload.wrap_after_load(
    eh, transaction, '_playback', _one_warning_per_operation
)
lazyload.wrap_after_load(eh, repair, 'strip', _one_warning_per_operation)


def _list_copy(store, copy, createmode=None):
    """list ``copy`` in the store before it exists, for a later cleanup

    The list gets the mode core gives the store's new files: another
    writer of a group-shared store must be able to list its copies too.
    """
    path = os.path.join(store, COPIES_RECORD)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        if createmode is not None and os.fstat(fd).st_size == 0:
            try:
                os.fchmod(fd, createmode & 0o666)
            except OSError:
                pass  # another writer's empty list
        os.write(fd, _relative(store, copy) + b'\n')
    finally:
        os.close(fd)


def _unlist_copies(store):
    """list only the copies that are still there, and remove the list when
    there are none; never raises"""
    record = os.path.join(store, COPIES_RECORD)
    try:
        left = leftover_copies(store)
        if not left:
            os.unlink(record)
        else:
            with open(record, 'wb') as fp:
                fp.write(b''.join(p + b'\n' for p in left))
    except OSError:
        pass


def _relative(store, path):
    """``path`` relative to the store directory, as stored on disk"""
    return os.path.relpath(path, store)


def _is_copy_name(path):
    name = os.path.basename(path)
    if name.endswith(_OLD_COPY_SUFFIXES):
        return True
    return name.startswith(b'.') and name.endswith(COPY_SUFFIX)


def leftover_copies(store):
    """the shortened copies listed in the store that are still there"""
    try:
        with open(os.path.join(store, COPIES_RECORD), 'rb') as record:
            listed = record.read().splitlines()
    except FileNotFoundError:
        return []
    return sorted(
        path
        for path in set(listed)
        if _is_copy_name(path) and os.path.lexists(os.path.join(store, path))
    )


def removable(store, path):
    """whether this process may remove the store file ``path``"""
    directory = os.path.dirname(os.path.join(store, path))
    try:
        st = os.stat(directory)
        if not os.access(directory, os.W_OK | os.X_OK):
            return False
        if st.st_mode & stat.S_ISVTX and os.geteuid() != 0:
            owner = os.lstat(os.path.join(store, path)).st_uid
            return os.geteuid() in (owner, st.st_uid)
    except OSError:
        return False
    return True


_warned = set()


def remove_leftover_copies(repo):
    """remove the copies killed writers left, as far as this process may;
    never raises (the store lock is held)"""
    store = repo.store.path
    for path in leftover_copies(store):
        try:
            os.unlink(os.path.join(store, path))
            repo.ui.debug(b'removed leftover copy %s\n' % path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if (store, path) not in _warned:
                _warned.add((store, path))
                repo.ui.warn(
                    _(
                        b'revlogperf: cannot remove %s, left by a killed '
                        b'writer (%s): its owner or an administrator can '
                        b'remove it\n'
                    )
                    % (path, _reason(exc))
                )
    _unlist_copies(store)


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
