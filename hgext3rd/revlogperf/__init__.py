# revlogperf - faster, leaner revlog reads, and the commands to measure them
#
# This software may be used and distributed according to the terms of the
# GNU General Public License version 2 or any later version.
"""faster, leaner revlog reads, and commands to measure them

revlogperf changes how Mercurial reads revlogs (the files under .hg/store
that hold every revision), never what it reads, and gives the same options
on every supported Mercurial release.

Index mmap
----------

A revlog index of at least ``revlogperf.mmap-index-threshold`` bytes is
mmapped instead of read whole, for the changelog, the manifest and, unless
``revlogperf.mmap-filelogs`` is off, filelogs. Pages are read as they are
touched, on every release (6.9+ would read the whole index in at once), so
opening a large revlog costs almost nothing. The historical name
``experimental.mmapindexthreshold`` works as an alias on every release.
Mercurial's own ``storage.revlog.mmap.index`` and
``storage.revlog.mmap.index:size-threshold`` win where you set them.
Nothing is mmapped on NFS::

  [revlogperf]
  # a byte quantity, or "off" (default: 1 MB, as core 6.9+)
  mmap-index-threshold = 4k
  # also mmap large filelog indexes (default: yes)
  mmap-filelogs = yes
  # print "mmapping <file>" for every index mmapped (default: no)
  trace-mmap = no

Decompression
-------------

Each revlog decompresses its chunks through one dispatcher, set up when the
revlog is opened: zlib, zstd, stored and uncompressed chunks inline, any
other compression engine looked up once. zstd chunks are decompressed in one
call instead of streamed. Where Mercurial has no zstd module of its own
(pure builds), the ``zstandard`` package opens zstd repositories. A damaged
chunk is reported with its file, revision and header::

  [revlogperf]
  # set to "no" to run Mercurial's own decompression (default: yes)
  fast-decompress = yes

Mercurial 6.6+ also caches decompressed chunks per revlog, in a ring that
gains a slot per chunk up to 10,000 even after evictions have emptied slots,
and every eviction walks past the empty ones first. revlogperf's cache takes
an empty slot before adding one: the same chunks kept and evicted, without
the walk (reading a 100k changelog in reverse: 14.9 million slots walked,
48,000 with revlogperf).

Data file mmap
--------------

A data file (``.d``) of at least ``revlogperf.mmap-data-threshold`` bytes is
mapped once per revlog, and each chunk read is a slice of the map instead of
a file read::

  [revlogperf]
  # a byte quantity, or "off" (default: 1 MB; off on Windows)
  mmap-data-threshold = 1 MB

Reading a revision checks its hash with its parents taken from the index,
which spares pure builds a map of every node.

Strip, rollback and aborted transactions
----------------------------------------

Mercurial shortens revlog files in place when it strips, rolls back or
aborts a transaction, and a process that has such a file mmapped then dies
of SIGBUS. With revlogperf the shortened file is written anew and renamed
over the old one, so other processes keep reading the old one. Load
revlogperf in every process that writes the repository.

Measuring
---------

The ``perf::revlog-*`` commands time the four revlog read tasks of the
historical benchmarks (open, index, tip, sample), chunk decompression and
index memory, on the changelog (-c), the manifest (-m) or a file, and print
what ``contrib/perf.py`` prints, honouring its ``[perf]`` settings
(``run-limits``, ``presleep``, ``all-timing``, ``stub``). Both extensions
load together. ``hg perf::revlog-suite --compare SETTINGS`` compares
settings side by side in one process.
"""

from mercurial import exthelper

from . import (
    chunkcache,
    config,
    damage,
    decompress,
    metadata,
    mmapindex,
    readpath,
    stats,
    truncation,
)
from .perf import commands as perfcommands

__version__ = metadata.__version__
testedwith = metadata.testedwith
minimumhgversion = metadata.minimumhgversion

eh = exthelper.exthelper()
eh.merge(config.eh)
eh.merge(mmapindex.eh)
eh.merge(readpath.eh)
eh.merge(damage.eh)
eh.merge(decompress.eh)
eh.merge(chunkcache.eh)
eh.merge(perfcommands.eh)
eh.merge(stats.eh)
eh.merge(truncation.eh)

cmdtable = eh.cmdtable
configtable = eh.configtable
uisetup = eh.finaluisetup
extsetup = eh.finalextsetup
reposetup = eh.finalreposetup
