# mmapindex.py - mmap revlog indexes at or above a size threshold
#
# Every supported release reads an index through ``revlog._get_data``, with
# the threshold core chose. With revlogperf, the repository's ``Settings``
# decide instead: the same option and behaviour on every release, filelogs
# included, and mmap allowed in pure builds where the file system is known to
# be safe.

from mercurial.i18n import _
from mercurial import (
    exthelper,
    revlog,
    util,
)
from mercurial.revlogutils import constants as revlogconst

from . import (
    compat,
    config,
)

eh = exthelper.exthelper()


def index_threshold(settings, kind):
    """the mmap threshold for a revlog of this kind, or None"""
    if kind == revlogconst.KIND_FILELOG and not settings.mmap_filelogs:
        return None
    return settings.index_threshold


@eh.wrapfunction(revlog.revlog, '_get_data')
def _get_data(orig, rl, filepath, mmap_threshold, size=None):
    settings = config.settings(rl.opener)
    if settings is None:
        return orig(rl, filepath, mmap_threshold, size)
    threshold = index_threshold(settings, rl.target[0])
    if threshold is None:
        return orig(rl, filepath, None, size)
    opener = rl.opener
    try:
        with opener(filepath) as fp:
            file_size = opener.fstat(fp).st_size
            if file_size >= threshold:
                path = opener.join(filepath)
                if settings.mmap_safe(path):
                    trace(settings, path)
                    if size is not None:
                        # never map past the end of the file: SIGBUS
                        size = min(size, file_size)
                    # lazily on every release: 6.9+ would fault in the
                    # whole index, which costs more than reading the tip
                    return util.buffer(compat.mmapread_lazily(fp, size))
            return fp.read() if size is None else fp.read(size)
    except FileNotFoundError:
        return b''


def trace(settings, path):
    msg = _(b'mmapping %s\n') % path
    if settings.trace_mmap:
        settings.ui.write_err(msg)
    else:
        settings.ui.debug(msg)
