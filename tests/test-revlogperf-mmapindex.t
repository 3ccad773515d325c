mmap revlog indexes at or above a size threshold
=================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > trace-mmap = yes
  > EOF

A repository of 101 changesets: its changelog index is 6464 bytes (more where
the changelog is inline, hg <= 6.6)

  $ hg init a
  $ cd a
  $ touch a
  $ hg add a
  $ hg commit -qm base
  $ for i in `$RUNTESTDIR/seq.py 1 100`; do
  >   echo $i > a
  >   hg commit -qm $i
  > done
  $ f -s .hg/store/00changelog.i
  .hg/store/00changelog.i: size=6464 (no-inline-changelog !)
  .hg/store/00changelog.i: size=12114 (inline-changelog !)

The default threshold (1 MB) leaves it alone

  $ hg log -l 2 -T '{rev}\n'
  100
  99

It is mmapped once it reaches the threshold

  $ hg log -l 5 -T '{rev}\n' --config revlogperf.mmap-index-threshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  100
  99
  98
  97
  96

and not while it is below

  $ hg log -l 5 -T '{rev}\n' --config revlogperf.mmap-index-threshold=32k
  100
  99
  98
  97
  96

The historical option is an alias, on every release

  $ hg log -l 1 -T '{rev}\n' --config experimental.mmapindexthreshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  100
  $ hg log -l 1 -T '{rev}\n' --config experimental.mmapindexthreshold=32k
  100

"off" turns it off

  $ hg log -l 1 -T '{rev}\n' --config revlogperf.mmap-index-threshold=off
  100

Without trace-mmap, nothing names them, not even --debug, whose output
scripts parse (``hg --debug id -i``): it is core's, with every index and
data file mapped

  $ for cmd in "id -i" "log -r tip" "log -p -r 50"; do
  >   hg --debug $cmd --config revlogperf.trace-mmap=no \
  >     --config revlogperf.mmap-index-threshold=0 \
  >     --config revlogperf.mmap-data-threshold=0 > with.out 2>&1
  >   hg --debug $cmd --config extensions.revlogperf=! > without.out 2>&1
  >   cmp with.out without.out && echo "$cmd: same"
  > done
  id -i: same
  log -r tip: same
  log -p -r 50: same

Mercurial's own options win where the user set them

  $ hg log -l 1 -T '{rev}\n' --config revlogperf.mmap-index-threshold=4k \
  >   --config storage.revlog.mmap.index=no
  100
  $ hg log -l 1 -T '{rev}\n' --config revlogperf.mmap-index-threshold=4k \
  >   --config storage.revlog.mmap.index:size-threshold=32k
  100
  $ hg log -l 1 -T '{rev}\n' --config revlogperf.mmap-index-threshold=32k \
  >   --config storage.revlog.mmap.index:size-threshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  100

The manifest follows the same threshold

  $ hg manifest -r 50 --config revlogperf.mmap-index-threshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  mmapping $TESTTMP/a/.hg/store/00manifest.i
  a

Filelogs
--------

A filelog above the threshold is mmapped (core never mmaps filelogs)

  $ f -s .hg/store/data/a.i
  .hg/store/data/a.i: size=* (glob)
  $ hg cat -r 7 a --config revlogperf.mmap-index-threshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  mmapping $TESTTMP/a/.hg/store/00manifest.i
  mmapping $TESTTMP/a/.hg/store/data/a.i
  7

below it, it is not

  $ hg cat -r 7 a --config revlogperf.mmap-index-threshold=16k
  7

and with filelogs left out, it is not

  $ hg cat -r 7 a --config revlogperf.mmap-index-threshold=4k \
  >   --config revlogperf.mmap-filelogs=no
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  mmapping $TESTTMP/a/.hg/store/00manifest.i
  7

Reading through mmapped indexes gives the same bytes
------------------------------------------------------

  $ for threshold in 1 off; do
  >   hg log -p --config revlogperf.mmap-index-threshold=$threshold \
  >     --config revlogperf.trace-mmap=no > log-$threshold
  >   hg cat -r 42 a --config revlogperf.mmap-index-threshold=$threshold \
  >     --config revlogperf.trace-mmap=no > cat-$threshold
  >   hg verify --config revlogperf.mmap-index-threshold=$threshold \
  >     --config revlogperf.trace-mmap=no > verify-$threshold 2>&1
  > done
  $ cmp log-1 log-off && cmp cat-1 cat-off && cmp verify-1 verify-off
  $ wc -l < log-1
  * (glob)
  $ rm log-* cat-* verify-*

Two repositories in one process keep their own settings

  $ cd ..
  $ hg clone -q a b
  $ cat >> b/.hg/hgrc << EOF
  > [revlogperf]
  > mmap-index-threshold = 4k
  > EOF
  $ cat > both.py << EOF
  > from mercurial import hg, ui as uimod
  > u = uimod.ui.load()
  > u.setconfig(b'devel', b'all-warnings', b'no')  # hg.repository moves in 7.2
  > for path in (b'a', b'b', b'a'):
  >     repo = hg.repository(u, path)
  >     print(path.decode(), len(repo.changelog))
  > EOF
  $ "$PYTHON" both.py
  a 101
  mmapping $TESTTMP/b/.hg/store/00changelog.i
  b 101
  a 101

Another extension that wraps util.mmapread with positional arguments, as
Mercurial's own test-revlog-mmapindex.t does, keeps working: the index is
mapped through it (lazily, the pre-population of 6.9+ turned off by a third
positional argument)

  $ cat > wrapmmap.py << EOF
  > from mercurial import extensions, util
  > def extsetup(ui):
  >     def mmapread(orig, fp, *args):
  >         ui.write(b'wrapped mmapread%s\n' % repr(args).encode())
  >         return orig(fp, *args)
  >     extensions.wrapfunction(util, 'mmapread', mmapread)
  > EOF
  $ hg log -l 1 -R a -T '{rev}\n' --config extensions.wrapmmap=wrapmmap.py \
  >   --config revlogperf.mmap-index-threshold=4k
  mmapping $TESTTMP/a/.hg/store/00changelog.i
  wrapped mmapread(None, False) (hg69 !)
  wrapped mmapread() (no-hg69 !)
  100

Bad values are configuration errors
-----------------------------------

  $ hg log -l 1 -R a --config revlogperf.mmap-index-threshold=banana
  config error: revlogperf.mmap-index-threshold is not a byte quantity ('banana')
  (use a size such as '4k' or '1 MB', or 'off')
  [30]
  $ hg log -l 1 -R a --config revlogperf.mmap-index-threshold=-1
  config error: revlogperf.mmap-index-threshold must not be negative ('-1')
  (use a size such as '4k' or '1 MB', or 'off')
  [30]
  $ hg log -l 1 -R a --config revlogperf.mmap-filelogs=banana
  config error: revlogperf.mmap-filelogs is not a boolean ('banana')
  (use 'yes' or 'no')
  [30]
