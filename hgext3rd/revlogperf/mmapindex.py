# mmapindex.py - mmap revlog indexes at or above a size threshold
#
# Every supported release reads an index through ``revlog._get_data``, with
# the threshold core chose. With revlogperf, the repository's ``Settings``
# decide instead: the same option and behaviour on every release, filelogs
# included, and mmap allowed in pure builds where the file system is known to
# be safe.

import os

from mercurial.i18n import _
from mercurial import (
    exthelper,
    revlog,
    util,
)

from . import (
    compat,
    config,
    damage,
)

eh = exthelper.exthelper()


@eh.wrapfunction(revlog.revlog, '_get_data')
def _get_data(orig, rl, filepath, mmap_threshold, size=None):
    settings = config.settings(rl.opener)
    if settings is None:
        return orig(rl, filepath, mmap_threshold, size)
    kind = rl.target[0]
    if settings.threshold(kind) is None:
        data = orig(rl, filepath, None, size)
    else:
        data = _read_or_map(rl.opener, filepath, kind, size, settings)
    if 0 < len(data) < 4:
        # core would fail to unpack the header (struct.error)
        raise damage.index_corrupted(rl)
    return data


def _read_or_map(opener, filepath, kind, size, settings):
    """what core's ``revlog._get_data`` returns, mapped by our settings

    Core maps with the threshold it chose (changelog and manifest only), in
    C builds only, and from 6.9 on faults every page in at once.
    """
    try:
        with opener(filepath) as fp:
            file_size = os.fstat(fp.fileno()).st_size
            if not settings.why_not_map(kind, file_size, opener, filepath):
                trace(settings, opener.join(filepath))
                if size is not None:
                    # never map past the end of the file: SIGBUS
                    size = min(size, file_size)
                # lazily on every release: 6.9+ would fault in the whole
                # index, which costs more than reading the tip
                return util.buffer(compat.mmapread_lazily(fp, size))
            return fp.read() if size is None else fp.read(size)
    except FileNotFoundError:
        return b''


def trace(settings, path):
    """say that ``path`` is mapped: with ``trace-mmap``, or in --debug"""
    msg = _(b'mmapping %s\n') % path
    if settings.trace_mmap:
        settings.ui.write_err(msg)
    else:
        settings.ui.debug(msg)
