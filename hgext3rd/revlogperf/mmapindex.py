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
    hotwrap,
)

eh = exthelper.exthelper()


@hotwrap.hot_wrapper(eh, revlog.revlog, '_get_data')
def _reading_or_mapping(core_get_data):
    def _get_data(rl, filepath, mmap_threshold, size=None):
        settings = config.settings(rl.opener)
        if settings is None:
            return core_get_data(rl, filepath, mmap_threshold, size)
        kind = rl.target[0]
        threshold = settings.index_thresholds.get(
            kind, settings.index_threshold
        )
        if threshold is None:
            data = core_get_data(rl, filepath, None, size)
        else:
            data = _read_or_map(
                rl.opener, filepath, kind, size, settings, threshold
            )
            if type(data) is memoryview:
                # a map, and a descriptor, as long as the revlog lives
                rl.revlogperf_mapped_index = True
        if 0 < len(data) < 4:
            # core would fail to unpack the header (struct.error)
            raise damage.index_corrupted(rl)
        return data

    return _get_data


# Most indexes (filelogs) are far below the threshold: the first read tells,
# with no stat. Small enough that its buffer comes from the heap.
_PROBE = 64 * 1024


def _read_or_map(opener, filepath, kind, size, settings, threshold):
    """what core's ``revlog._get_data`` returns, mapped by our settings

    Core maps with the threshold it chose (changelog and manifest only), in
    C builds only, and from 6.9 on faults every page in at once.
    """
    try:
        with opener(filepath) as fp:
            if size is not None:
                # the index is the first ``size`` bytes (a docket says so)
                if size < threshold:
                    return fp.read(size)
                data = b''
            else:
                probe = max(1, min(threshold, _PROBE))
                data = fp.read(probe)
                if len(data) < probe:
                    return data  # the whole file, below the threshold
            file_size = os.fstat(fp.fileno()).st_size
            if not settings.why_not_map(kind, file_size, opener, filepath):
                trace(settings, opener.join(filepath))
                if size is not None:
                    # never map past the end of the file: SIGBUS
                    size = min(size, file_size)
                # lazily on every release: 6.9+ would fault in the whole
                # index, which costs more than reading the tip
                return util.buffer(compat.mmapread_lazily(fp, size))
            if size is not None:
                return fp.read(size)
            # read again from the start, into one buffer of the file's
            # size: joining the probe and the rest made opening a 640 KB
            # index 0.78 ms instead of core's 0.05 ms (7.2.4, 2026-12)
            fp.seek(0)
            return fp.read()
    except FileNotFoundError:
        return b''


def trace(settings, path):
    """say that ``path`` is mapped, where ``trace-mmap`` asks for it

    Never in --debug: ``ui.debug`` writes to the command's output, which
    scripts parse (``hg --debug id -i``), and core prints no such line.
    """
    if settings.trace_mmap:
        settings.ui.write_err(_(b'mmapping %s\n') % path)
