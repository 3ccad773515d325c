# configitems.py - every revlogperf config item, with its default and why
#
# Registered when the extension loads, for ``hg config`` and help; read once
# per repository by config.py. Nothing here may import what a command that
# opens no repository would not import (see __init__.py).

from mercurial import (
    configitems as coreitems,
    pycompat,
    registrar,
)

configtable = {}
configitem = registrar.configitem(configtable)

# Revlog indexes of at least this many bytes are mmapped instead of read
# whole. The default is core's own since 6.9 (1 MB): below it, reading the
# file costs less than setting up the map. ``off`` disables index mmap.
# ``experimental.mmapindexthreshold`` is the historical name (hg <= 6.8
# honoured it; later releases ignore it) and keeps working on every release.
ALIASES = {b'mmap-index-threshold': (b'experimental', b'mmapindexthreshold')}
"""the older names of revlogperf's options, which users may set instead"""

configitem(
    b'revlogperf',
    b'mmap-index-threshold',
    default=b'1 MB',
    alias=[ALIASES[b'mmap-index-threshold']],
)

# Large filelogs exist (a file changed in 100k revisions has a 6.4 MB
# index), but core never mmaps them. On by default, so that every revlog
# follows the one threshold.
configitem(b'revlogperf', b'mmap-filelogs', default=True)

# Revlog data files (.d) of at least this many bytes are mapped once per
# revlog and chunks are served as slices of the map, without a file read
# per chunk: reading 500 random changelog revisions of a 100k repository
# took 0.30 of the time on 7.2.4 (make bench, README), and no read measured
# slower. 1 MB, as for indexes. Off
# on Windows, where a mapped file cannot be replaced (strip, upgrade).
# Revlogperf's writers replace the files they shorten (truncation.py); a
# writer without revlogperf still truncates in place, as core does under
# its own index maps.
configitem(
    b'revlogperf',
    b'mmap-data-threshold',
    default=b'off' if pycompat.iswindows else b'1 MB',
)

# At most this many data files are mapped at once in a process, the least
# recently used let go first: each map holds a file descriptor, and a
# server or a command reading hundreds of large filelogs must not run out
# (a typical limit is 1024 descriptors, 256 on macOS). 64 keeps the
# changelog, the manifest and the busiest filelogs mapped.
configitem(b'revlogperf', b'mmap-data-budget', default=64)

# Bytes of file texts kept for the rest of a command (or hgweb request),
# with the filelogs they were read from (walkcache.py): ``log -p`` and
# ``diff`` read each file revision two to four times. ``off`` opens and
# reads as core does.
configitem(b'revlogperf', b'walk-cache', default=b'64 MB')

# Say which index files get mmapped. Off by default: it is for diagnosis.
configitem(b'revlogperf', b'trace-mmap', default=False)

# Decompress chunks through revlogperf's per-revlog dispatcher. On by
# default: it returns exactly what core returns, and is faster for zstd.
configitem(b'revlogperf', b'fast-decompress', default=True)

# hg <= 6.8 does not know core's own mmap options; revlogperf honours them
# on every release, so register them where core does not. (Not a compat.py
# shim: that module imports what this one must not.)
if b'revlog.mmap.index' not in coreitems.coreitems.get(b'storage', {}):
    configitem(b'storage', b'revlog.mmap.index', default=True)
    configitem(b'storage', b'revlog.mmap.index:size-threshold', default=b'1 MB')
