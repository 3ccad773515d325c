# revlogperf - faster, leaner revlog reads, and the commands to measure them
#
# This software may be used and distributed according to the terms of the
# GNU General Public License version 2 or any later version.
"""faster, leaner revlog reads, and commands to measure them

revlogperf changes how Mercurial reads revlogs (the files under .hg/store
that hold every revision), never what it reads or writes, and gives the
same options on every supported Mercurial release.

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
  mmap-index-threshold = 1 MB
  # also mmap large filelog indexes (default: yes)
  mmap-filelogs = yes
  # print "mmapping <file>" on stderr for every file mmapped, index or
  # data; --debug never does, its output is core's (default: no)
  trace-mmap = no

Decompression
-------------

A zstd revlog decompresses its chunks through its own dispatcher from its
first read, a zlib one once it has been read 16 times (core takes zlib
chunks inline already; most revlogs a command opens are read a few times):
zlib, zstd, stored and uncompressed chunks inline, any other compression
engine looked up once. zstd chunks are
decompressed in one call instead of streamed, with one context per thread
instead of one per revlog. Where Mercurial has no zstd module of its own (pure
builds), the ``zstandard`` package makes existing zstd repositories readable
and writable; new repositories, clones and upgrades are made as without
revlogperf. A damaged chunk is reported with its file, revision and
header::

  [revlogperf]
  # set to "no" to run Mercurial's own decompression (default: yes)
  fast-decompress = yes

Mercurial 6.6+ also caches decompressed chunks per revlog. revlogperf keeps
the same chunks in a cache that does not grow past them, so that evicting
one stays cheap, and gives revlogs of Mercurial 6.3 to 6.5 the same cache.

Data file mmap
--------------

A data file (``.d``) of at least ``revlogperf.mmap-data-threshold`` bytes is
mapped once per revlog, from its second read (one read costs less than a
map), and each chunk read is a slice of the map instead of a file read. Every map holds a file descriptor: a process keeps at most
``revlogperf.mmap-data-budget`` data files mapped, and lets go of the least
recently used first::

  [revlogperf]
  # a byte quantity, or "off" (default: 1 MB; off on Windows)
  mmap-data-threshold = 1 MB
  # data files mapped at once in a process (default: 64)
  mmap-data-budget = 64

Reading a revision checks its hash with its parents taken from the index,
which spares pure builds a map of every node. A changeset stored whole in a
mapped changelog is read straight from its slice of the map, without the
delta-chain steps core takes for a chain of one, as every scan of history
(``log -k``, ``desc()``, ``user()``) reads them.

History walks
-------------

``log -p``, ``diff``, ``annotate`` and ``update`` open a file's filelog
again for every changeset they walk, and read each file revision two to
four times. For one command (or one hgweb request), revlogperf keeps the
filelogs it opened for reading, with their caches, and the file texts read
through them. Reading a manifest or a file newest first (``log -p``), core
patches every text from its delta chain's base, through up to a thousand
deltas; where a revlog is read more than once, the text at every 32nd
place of a long chain is kept as well, and later reads patch from the
nearest one. A command that asks again for few of the files it asks for
(``update``, ``verify``) keeps its first 64 filelogs only, and a filelog
keeps new texts after its first 32 while they are read again at least
half as often as new ones are (``annotate`` reads each once). Filelogs
and texts are kept up to ``revlogperf.walk-cache`` bytes, the least
recently used let go first.
With the walk cache off, a revlog's first read keeps the chunks it
decompresses, as Mercurial 6.6 and later do. All is dropped when a
transaction starts, when the repository is reloaded, and when the command
or request ends: a repository held through Python (a GUI, a script) keeps
nothing between its calls::

  [revlogperf]
  # a byte quantity, or "off" to read as core does (default: 64 MB)
  walk-cache = 64 MB

Strip, rollback and aborted transactions
----------------------------------------

Mercurial shortens revlog files in place when it strips, rolls back or
aborts a transaction, and a process that has such a file mmapped then dies
of SIGBUS. With revlogperf the part kept is copied to a new file, with the
owner, group and mode of the old one, and renamed over it, so other
processes keep reading the old one. Where that cannot be done as core would
leave the file (no room for the copy on a full disk, another user's file
whose owner cannot be kept, a name the file system refuses), the file is
shortened in place, as core does, with one warning line for the whole
operation (``--verbose`` names each file). A copy left by a killed writer is
removed by the next transaction and by ``hg recover``; one this user may not
remove is named once and never stops a command. Load revlogperf in every
process that writes the repository.

Rust
----

Where Mercurial's Rust extensions read a revlog (7.0+, ``rust+c`` module
policy), revlogperf maps its index and shortens its files safely, and leaves
the rest to Rust: ``hg debug-revlog-storage`` says so.

Storage report
--------------

``hg debug-revlog-storage`` shows how the changelog, the manifest and the
filelogs are stored (full texts and deltas, delta chains, compression,
sizes, what is mmapped), and names the command that rewrites a changelog
still stored with delta chains, which reads slower. Its "chunks" column
counts stored chunks by compression: zlib, zstd, stored (kept as is) and
uncompressed. It is a debug command: Mercurial lists those in
``hg help --debug revlogperf`` only.

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

from mercurial import localrepo

from . import (
    commands,
    configitems,
    lazyload,
)

# here, not in a module of their own: every command that loads revlogperf
# would import it (~0.5 M instructions, 7.2.4, 2026-12). setup.py reads
# the version without importing the package.
__version__ = '0.1.0'
# exactly the releases .ci/run tests (make test-matrix)
testedwith = b'6.3.3 6.6.3 6.9.5 7.2.4'
minimumhgversion = b'6.3'
# no buglink: Mercurial's tracker is not ours, and without one a crash
# report asks for the extension's author

# Loading revlogperf imports its options and commands only: its wrappers
# wait until Mercurial runs localrepo, which makes every local repository
# (activation.py). Each command imports what it does when it runs.
configtable = configitems.configtable
cmdtable = commands.cmdtable


def featuresetup(ui, supported):
    # here, not in decompress: Mercurial runs only the functions of the
    # modules it loaded as extensions
    from mercurial import util

    if util.compengines[b'zstd'].available():
        return  # core's own: no module of revlogperf's to run
    from . import decompress

    supported.update(decompress.readable_requirements())


def extsetup(ui):
    # not before: other extensions' uisetup may change what the set-up
    # sees (a zstd engine without a module, in chg's server too)
    lazyload.after_load(localrepo, lambda: _activate(ui))


def _activate(ui):
    from . import activation

    activation.activate(ui)
    localrepo.featuresetupfuncs.add(featuresetup)
