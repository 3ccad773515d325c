revlogperf loads from the source tree, documents itself and says its version
=============================================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"

The extension's help is its module docstring

  $ hg help -e revlogperf
  revlogperf extension - faster, leaner revlog reads, and commands to measure
  them
  
  revlogperf changes how Mercurial reads revlogs (the files under .hg/store that
  hold every revision), never what it reads, and gives the same options on every
  supported Mercurial release.
  
  Index mmap
  ----------
  
  A revlog index of at least "revlogperf.mmap-index-threshold" bytes is mmapped
  instead of read whole, for the changelog, the manifest and, unless
  "revlogperf.mmap-filelogs" is off, filelogs. Pages are read as they are
  touched, on every release (6.9+ would read the whole index in at once), so
  opening a large revlog costs almost nothing. The historical name
  "experimental.mmapindexthreshold" works as an alias on every release.
  Mercurial's own "storage.revlog.mmap.index" and
  "storage.revlog.mmap.index:size-threshold" win where you set them. Nothing is
  mmapped on NFS:
  
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
  revlog is opened: zlib, zstd, stored and uncompressed chunks inline, any other
  compression engine looked up once. zstd chunks are decompressed in one call
  instead of streamed. Where Mercurial has no zstd module of its own (pure
  builds), the "zstandard" package opens zstd repositories. A damaged chunk is
  reported with its file, revision and header:
  
    [revlogperf]
    # set to "no" to run Mercurial's own decompression (default: yes)
    fast-decompress = yes
  
  Mercurial 6.6+ also caches decompressed chunks per revlog, in a ring that
  gains a slot per chunk up to 10,000 even after evictions have emptied slots,
  and every eviction walks past the empty ones first. revlogperf's cache takes
  an empty slot before adding one: the same chunks kept and evicted, without the
  walk (reading a 100k changelog in reverse: 14.9 million slots walked, 48,000
  with revlogperf).
  
  Data file mmap
  --------------
  
  A data file (".d") of at least "revlogperf.mmap-data-threshold" bytes is
  mapped once per revlog, and each chunk read is a slice of the map instead of a
  file read:
  
    [revlogperf]
    # a byte quantity, or "off" (default: 1 MB; off on Windows)
    mmap-data-threshold = 1 MB
  
  Reading a revision checks its hash with its parents taken from the index,
  which spares pure builds a map of every node.
  
  Strip, rollback and aborted transactions
  ----------------------------------------
  
  Mercurial shortens revlog files in place when it strips, rolls back or aborts
  a transaction, and a process that has such a file mmapped then dies of SIGBUS.
  With revlogperf the shortened file is written anew and renamed over the old
  one, so other processes keep reading the old one. Load revlogperf in every
  process that writes the repository.
  
  Measuring
  ---------
  
  The "perf::revlog-*" commands time the four revlog read tasks of the
  historical benchmarks (open, index, tip, sample), chunk decompression and
  index memory, on the changelog (-c), the manifest (-m) or a file, and print
  what "contrib/perf.py" prints, honouring its "[perf]" settings ("run-limits",
  "presleep", "all-timing", "stub"). Both extensions load together. "hg
  perf::revlog-suite --compare SETTINGS" compares settings side by side in one
  process.
  
  list of commands:
  
   perf::revlog-decompress
                 time reading and decompressing every chunk of a revlog
   perf::revlog-index
                 time opening a revlog and reading every index entry
                 ("readindex")
   perf::revlog-open
                 time opening a revlog (benchmark task "openclose")
   perf::revlog-sample
                 time opening a revlog and reading random revisions ("readdata")
   perf::revlog-suite
                 run the four revlog read tasks, under one or more settings, as
                 a table
   perf::revlog-tip
                 time opening a revlog and reading its tip's text ("readtip")
  
  (use 'hg help -v revlogperf' to show built-in aliases and global options)

The extension is listed, as an external one, with its version

  $ hg version -v | grep revlogperf
    revlogperf  external  0.1.0
  $ hg version -v -T '{extensions % "{name} {ver} {if(bundled, "bundled", "external")}\n"}' | grep revlogperf
  revlogperf 0.1.0 external

Loading it changes nothing for a plain repository

  $ hg init repo
  $ cd repo
  $ echo a > a
  $ hg commit -qAm a
  $ hg log -T '{rev}:{node|short} {desc}\n'
  0:cb9a9f314b8b a
  $ hg verify -q

Debug commands are documented too (the body's indentation differs by release)

  $ hg help debug-revlog-storage | head -5
  hg debug-revlog-storage
  
  aliases: debugrevlogstorage
  
  show how this repository's revlogs are stored
