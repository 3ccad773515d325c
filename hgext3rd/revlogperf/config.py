# config.py - a repository's revlogperf settings, read once
#
# The items of configitems.py are read once per repository, when its store vfs is set up, into
# a ``Settings`` object kept in the store vfs options: revlogs find them
# there, so two repositories in one process each follow their own
# configuration, and nothing is re-read on a read path.

import os

from mercurial.i18n import _
from mercurial.revlogutils.constants import KIND_FILELOG
from mercurial import (
    error,
    exthelper,
    pycompat,
    util,
)

from . import compat, configitems

eh = exthelper.exthelper()

OPTIONS_KEY = b'revlogperf'
"""where a repository's ``Settings`` live in its store vfs options"""

_OFF = {b'off', b'no', b'false', b'never', b'none'}

# why a file is not mapped (Settings.why_not_map)
NOT_MAPPED_OFF = b'off'
NOT_MAPPED_SMALL = b'small'
NOT_MAPPED_UNSAFE = b'unsafe'


class Settings:
    """one repository's revlogperf settings, read once when it is opened"""

    def __init__(self, ui):
        self.ui = ui
        self.index_threshold = _mmap_index_threshold(ui)
        self.data_threshold = _size_or_off(ui, b'mmap-data-threshold')
        self.data_budget = _count(ui, b'mmap-data-budget')
        # 0 keeps nothing: off (an lrucachedict of cost 0 has no bound)
        self.walk_cache = _size_or_off(ui, b'walk-cache') or None
        self.mmap_filelogs = _bool(ui, b'mmap-filelogs')
        # where a kind of revlog differs from ``index_threshold``
        self.index_thresholds = {}
        if not self.mmap_filelogs:
            self.index_thresholds[KIND_FILELOG] = None
        self.trace_mmap = _bool(ui, b'trace-mmap')
        self.fast_decompress = _bool(ui, b'fast-decompress')
        self._mmap_safe = {}

    def threshold(self, kind, data=False):
        """the size from which a revlog's index (or data file) is mapped,
        or None when it never is"""
        if data:
            return self.data_threshold
        return self.index_thresholds.get(kind, self.index_threshold)

    def why_not_map(self, kind, size, opener, filename, data=False):
        """None if the file should be mapped, else why not: NOT_MAPPED_OFF,
        NOT_MAPPED_SMALL or NOT_MAPPED_UNSAFE

        The one decision for index maps, data maps and the storage report,
        on every revlog opened: ``filename`` is joined to ``opener`` only
        for a file large enough.
        """
        if data:
            threshold = self.data_threshold
        elif kind == KIND_FILELOG and not self.mmap_filelogs:
            return NOT_MAPPED_OFF
        else:
            threshold = self.index_threshold
        if threshold is None:
            return NOT_MAPPED_OFF
        if size < threshold:
            return NOT_MAPPED_SMALL
        if not self.mmap_safe(opener.join(filename)):
            return NOT_MAPPED_UNSAFE
        return None

    def mmap_safe(self, path):
        """may the file at ``path`` be mmapped? (never on NFS)"""
        directory = os.path.dirname(path)
        safe = self._mmap_safe.get(directory)
        if safe is None:
            fstype = _fstype(directory)
            safe = fstype is not None and not fstype.startswith(b'nfs')
            self._mmap_safe[directory] = safe
        return safe


def _linux_fstype(path):
    """the file system type of ``path`` from /proc/self/mountinfo, or None

    Used where Mercurial's C osutil cannot tell (pure builds).
    """
    try:
        with open('/proc/self/mountinfo', 'rb') as fp:
            lines = fp.read().splitlines()
    except OSError:
        return None
    path = os.path.realpath(path)
    best, fstype = b'', None
    for line in lines:
        fields = line.split(b' ')
        try:
            mountpoint = fields[4].replace(b'\\040', b' ')
            fs = fields[fields.index(b'-') + 1]
        except (IndexError, ValueError):
            continue
        inside = path == mountpoint or path.startswith(
            mountpoint.rstrip(b'/') + b'/'
        )
        if inside and len(mountpoint) >= len(best):
            best, fstype = mountpoint, fs
    return fstype


def _fstype(path):
    """the file system type of a directory, or None when it can't be told"""
    try:
        found = util.getfstype(path)
    except OSError:
        return None
    if found is None and pycompat.sysplatform.startswith(b'linux'):
        # pure builds lack osutil.getfstype; the mount table says the same
        found = _linux_fstype(path)
    return found


def _mmap_index_threshold(ui):
    """the index mmap threshold in bytes, or None for no index mmap

    Core's own options, where the user set them, are never overridden:
    ``storage.revlog.mmap.index = no`` turns index mmap off and
    ``storage.revlog.mmap.index:size-threshold`` sets the threshold. Then
    comes ``revlogperf.mmap-index-threshold`` (or its historical alias),
    then the default.
    """
    if ui.hasconfig(b'storage', b'revlog.mmap.index'):
        enabled = _with_hint(
            lambda: ui.configbool(b'storage', b'revlog.mmap.index', True),
            _(b"use 'yes' or 'no'"),
        )
        if not enabled:
            return None
    if ui.hasconfig(b'storage', b'revlog.mmap.index:size-threshold'):
        return _with_hint(
            lambda: ui.configbytes(
                b'storage', b'revlog.mmap.index:size-threshold'
            ),
            _(b"use a size such as '4k' or '1 MB'"),
        )
    return _size_or_off(ui, b'mmap-index-threshold')


def _size_or_off(ui, name):
    """the byte quantity ``revlogperf.<name>``, or None if it is off

    A bad value is an error naming the key the user set: the option, or
    its historical name.
    """
    value = ui.config(b'revlogperf', name)
    if value is None or value.strip().lower() in _OFF:
        return None
    key = b'revlogperf.%s' % name
    alias = configitems.ALIASES.get(name)
    if alias and not ui.hasconfig(b'revlogperf', name):
        key = b'%s.%s' % alias
    hint = _(b"use a size such as '4k' or '1 MB', or 'off'")
    try:
        threshold = util.sizetoint(value)
    except error.ParseError:
        raise error.ConfigError(
            _(b"%s is not a byte quantity ('%s')") % (key, value), hint=hint
        )
    if threshold < 0:
        raise error.ConfigError(
            _(b"%s must not be negative ('%s')") % (key, value), hint=hint
        )
    return threshold


def _with_hint(read, hint):
    """``read()``, whose configuration error gets ``hint``"""
    try:
        return read()
    except error.ConfigError as exc:
        raise error.ConfigError(exc.message, location=exc.location, hint=hint)


def _bool(ui, name):
    """the boolean ``revlogperf.<name>``"""
    return _with_hint(
        lambda: ui.configbool(b'revlogperf', name),
        _(b"use 'yes' or 'no'"),
    )


def _count(ui, name):
    """the positive integer ``revlogperf.<name>``"""
    hint = _(b"use a number of files such as '64'")
    value = _with_hint(lambda: ui.configint(b'revlogperf', name), hint)
    if value < 1:
        raise error.ConfigError(
            _(b"revlogperf.%s must be at least 1 ('%d')") % (name, value),
            hint=hint,
        )
    return value


@eh.wrapfunction(compat.STORE_OPTIONS_MODULE, compat.STORE_OPTIONS_FUNCTION)
def _store_options(orig, ui, requirements, features):
    # read first: a bad value of an option core reads too (the historical
    # name, up to 6.8) is reported with revlogperf's hint
    settings = Settings(ui)
    options = orig(ui, requirements, features)
    options[OPTIONS_KEY] = settings
    return options


def settings(vfs):
    """the revlogperf ``Settings`` of the repository owning ``vfs``, or None

    None too for an opener that is not a store vfs: core's path, for
    revlogs opened through another's (a changelog's delaying opener inside
    a transaction, hg <= 6.8, is a plain function).
    """
    options = getattr(vfs, 'options', None)
    if options is None:
        return None
    return options.get(OPTIONS_KEY)
