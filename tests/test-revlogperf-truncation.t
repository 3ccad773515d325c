strip, rollback and aborted transactions under a reader holding maps
=====================================================================

A reader that has a revlog index (or, with revlogperf, data file) mmapped dies of SIGBUS when another process
truncates the file in place and the reader then touches a page past the new
end (core mmaps an index only in C builds since 6.9; the reader without
revlogperf dies where it does). With revlogperf, a truncation replaces the file with its shortened copy
instead: the reader keeps the old file and finishes.

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > mmap-index-threshold = 4k
  > mmap-data-threshold = 4k
  > [storage]
  > revlog.mmap.index = yes
  > revlog.mmap.index:size-threshold = 4k
  > [experimental]
  > mmapindexthreshold = 4k
  > EOF
  $ undermaps() {
  >   "$PYTHON" "$TESTDIR/testlib/undermaps.py" "$@"
  > }
  $ without() {
  >   HGRCPATH="$TESTTMP/core.hgrc" "$@"
  > }
  $ grep -v '^revlogperf = ' "$HGRCPATH" > "$TESTTMP/core.hgrc"

300 changesets, each editing one file: every index is over the threshold.
The clones are pulled, not hardlinked: core copies a hardlinked file before
writing to it, which spares readers of the original (see the end)

  $ hg init src
  $ hg -R src debugbuilddag -m '+300'
  $ hg clone -q --pull src a
  $ hg clone -q --pull src b

strip
-----

  $ without undermaps a mf -- hg -R a debugstrip -q -r 100
  writer: exit 0
  read 300 changelog revisions (no-core-mmap !)
  read 300 manifest revisions (no-core-mmap !)
  read 300 filelog revisions (no-core-mmap !)
  reader: exit 0 (no-core-mmap !)
  reader: killed by SIGBUS (core-mmap no-chg !)
  reader: exit 255 (core-mmap chg !)
  $ undermaps b mf -- hg -R b debugstrip -q -r 100
  writer: exit 0
  read 300 changelog revisions
  read 300 manifest revisions
  read 300 filelog revisions
  reader: exit 0
  $ hg -R b verify -q
  $ hg -R b log -r tip -T '{rev}\n'
  99

rollback of a pull
------------------

  $ hg -R b pull -q src
  $ undermaps b mf -- hg -R b rollback -q
  writer: exit 0
  read 300 changelog revisions
  read 300 manifest revisions
  read 300 filelog revisions
  reader: exit 0
  $ hg -R b verify -q
  $ hg -R b log -r tip -T '{rev}\n'
  99
  $ hg -R a pull -q src
  $ without undermaps a mf -- hg -R a rollback -q
  writer: exit 0
  read 300 changelog revisions (no-core-mmap !)
  read 300 manifest revisions (no-core-mmap !)
  read 300 filelog revisions (no-core-mmap !)
  reader: exit 0 (no-core-mmap !)
  reader: killed by SIGBUS (core-mmap no-chg !)
  reader: exit 255 (core-mmap chg !)

a pull aborted by a failing hook, the reader mapping during the transaction
-------------------------------------------------------------------------

  $ cat > failing-hook.rc << EOF
  > [hooks]
  > pretxnchangegroup.undermaps = "$PYTHON" "$TESTDIR/testlib/undermaps.py" --signal && false
  > EOF
  $ HGRCPATH="$HGRCPATH:$TESTTMP/failing-hook.rc" undermaps b mf --during -- hg -R b pull -q src
  transaction abort!
  rollback completed
  abort: pretxnchangegroup.undermaps hook exited with status 1
  writer: failed
  read 100 changelog revisions
  read 300 manifest revisions
  read 300 filelog revisions
  reader: exit 0
  $ hg -R b verify -q
  $ hg -R b log -r tip -T '{rev}\n'
  99
  $ HGRCPATH="$TESTTMP/core.hgrc:$TESTTMP/failing-hook.rc" undermaps a mf --during -- hg -R a pull -q src
  transaction abort!
  rollback completed
  abort: pretxnchangegroup.undermaps hook exited with status 1
  writer: failed
  read 100 changelog revisions
  read 300 manifest revisions (no-core-mmap !)
  read 300 filelog revisions (no-core-mmap !)
  reader: exit 0 (no-core-mmap !)
  reader: killed by SIGBUS (core-mmap no-chg !)
  reader: exit 255 (core-mmap chg !)
  $ hg -R a verify -q

upgrade and censor write new files and rename them over the old ones, in core
already: readers keep the old files (6.3.3 cannot upgrade a censored
repository; 6.9's verify takes a censored revision for a bad rename, with
or without revlogperf)

  $ hg -R b pull -q src
  $ undermaps b mf -- sh -c 'hg -R b debugupgraderepo --optimize re-delta-all --run --no-backup > /dev/null'
  writer: exit 0
  read 300 changelog revisions
  read 300 manifest revisions
  read 300 filelog revisions
  reader: exit 0
  $ hg -R b verify -q
  $ hg clone -q --pull src c
  $ printf '[censor]\npolicy = ignore\n' >> c/.hg/hgrc
  $ undermaps c mf -- hg --cwd c censor -q -r 50 mf --config extensions.censor=
  writer: exit 0
  read 300 changelog revisions
  read 300 manifest revisions
  read 300 filelog revisions
  reader: exit 0
#if hg69 no-hg70
  $ hg -R c verify -q
   mf@50: checking rename of 812ca0efab31: mf:812ca0efab31
  not checking dirstate because of previous errors
  1 integrity errors encountered!
  (first damaged changeset appears to be 50)
  [1]
#else
  $ hg -R c verify -q
#endif

modes, hardlinks, and a kill in the middle
------------------------------------------

The shortened file keeps its permission bits

  $ hg -R b pull -q src
  $ chmod 640 b/.hg/store/00changelog.i
  $ hg -R b debugstrip -q -r 250
  $ f -m b/.hg/store/00changelog.i
  b/.hg/store/00changelog.i: mode=640

Killed while it shortens the files of a strip (the changelog done, the
manifest not), the repository is recovered as core recovers it

#if no-chg
  $ KILLAT=00manifest.i hg -R b debugstrip -q -r 200 --config extensions.killat="$TESTDIR/testlib/killat.py"
  Killed
  [137]
#else
(chg's server process is killed, and its client says so by its status)
  $ KILLAT=00manifest.i hg -R b debugstrip -q -r 200 --config extensions.killat="$TESTDIR/testlib/killat.py"
  [255]
#endif
  $ test -f b/.hg/store/journal && echo journal left
  journal left
  $ hg -R b recover -q
  (verify step skipped, run `hg verify` to check your repository content)
  $ hg -R b verify -q
  $ hg -R b log -r tip -T '{rev}\n'
  199

A strip in a repository leaves its hardlinked local clone alone

  $ hg clone -q src h
  $ f -l src/.hg/store/00changelog.i
  src/.hg/store/00changelog.i: links=2
  $ hg -R src debugstrip -q -r 150
  $ f -l src/.hg/store/00changelog.i h/.hg/store/00changelog.i
  h/.hg/store/00changelog.i: links=1
  src/.hg/store/00changelog.i: links=1
  $ hg -R h verify -q
  $ hg -R h log -r tip -T '{rev}\n'
  299
