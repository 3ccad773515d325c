Faults that core survives, revlogperf survives with the same end state
======================================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > mmap-index-threshold = 4k
  > mmap-data-threshold = 4k
  > EOF
  $ without() {
  >   HGRCPATH="$TESTTMP/core.hgrc" "$@"
  > }
  $ grep -v '^revlogperf = ' "$HGRCPATH" > "$TESTTMP/core.hgrc"

A full disk
-----------

To shorten a file without pulling pages from under a reader's map,
revlogperf copies the part kept and renames the copy over the file. Where
there is no room for the copy, it truncates in place, as core does, and
says so: strip, rollback and an aborted pull end as they end without it.
(Not through chg: the small file system is seen by the command only, not by
chg's server.)

  $ hg init full
  $ "$PYTHON" -c "import os; open('full/big', 'wb').write(os.urandom(8 << 20))"
  $ hg -R full commit -qAm big
  $ "$PYTHON" -c "import os; open('full/big', 'ab').write(os.urandom(50 << 10))"
  $ hg -R full commit -qm more
  $ hg clone -q full source
  $ "$PYTHON" -c "import os; open('source/big', 'ab').write(os.urandom(50 << 10))"
  $ hg -R source commit -qm pulled

#if small-fs no-chg
  $ mkdir disk
  $ fulldisk() {
  >   sh "$TESTDIR/testlib/fulldisk.sh" "$TESTTMP/disk" "$@"
  > }

  $ without fulldisk hg rollback -q
  ok
  verify: [0]
  no interrupted transaction available
  recover: [1]
  $ fulldisk hg rollback -q
  revlogperf: cannot replace data/big.d (No space left on device): truncated in place, processes reading it may fail
  ok
  verify: [0]
  no interrupted transaction available
  recover: [1]

  $ without fulldisk hg debugstrip -q -r 1 --no-backup
  ok
  verify: [0]
  no interrupted transaction available
  recover: [1]
  $ fulldisk hg debugstrip -q -r 1 --no-backup
  revlogperf: cannot replace data/big.d (No space left on device): truncated in place, processes reading it may fail
  ok
  verify: [0]
  no interrupted transaction available
  recover: [1]

  $ without fulldisk hg pull -q "$TESTTMP/source" --config hooks.pretxnchangegroup=false
  transaction abort!
  rollback completed
  abort: pretxnchangegroup hook exited with status 1
  failed
  verify: [0]
  no interrupted transaction available
  recover: [1]
  $ fulldisk hg pull -q "$TESTTMP/source" --config hooks.pretxnchangegroup=false
  transaction abort!
  revlogperf: cannot replace data/big.d (No space left on device): truncated in place, processes reading it may fail
  rollback completed
  abort: pretxnchangegroup hook exited with status 1
  failed
  verify: [0]
  no interrupted transaction available
  recover: [1]
#endif

A group-shared store
--------------------

A copy gets the owner and group of the file it replaces. Where the writer
cannot give it them (another user's file), the file is truncated in place,
as core does: its owner and group stay. Here alice (uid 1000) owns the
repository, with group devs (2000), and bob (1001) is in devs. (Not
through chg, whose server keeps the user who started it.)

#if other-users no-chg

They keep only the right to read and search any directory, so that they
can reach the test's files; what they may write is theirs or devs'.

  $ as_user() {
  >   uid=$1; shift
  >   setpriv --reuid=$uid --regid=$uid --groups=2000 \
  >     --inh-caps=-all,+dac_read_search --ambient-caps=+dac_read_search \
  >     env HOME="$TESTTMP" "$@"
  > }
  $ as_alice() {
  >   as_user 1000 "$@"
  > }
  $ as_bob() {
  >   as_user 1001 "$@"
  > }
  $ owners() {
  >   stat -c '%n %u:%g %a' shared/.hg/store/00changelog.i shared/.hg/store/00manifest.i
  > }
  $ shared_repo() {
  >   rm -rf shared
  >   hg clone -q --pull "$TESTTMP/full300" shared
  >   chown -R 1000:2000 shared
  >   chmod -R g+w shared
  >   find shared -type f -exec chmod 664 {} +
  >   if [ "$1" = setgid ]; then find shared -type d -exec chmod g+s {} +; fi
  >   # a change within the second of the last one is ambiguous to core,
  >   # which then copies another user's file to be able to touch it
  >   sleep 1
  > }
  $ printf '[trusted]\nusers = *\n' | tee -a "$HGRCPATH" >> core.hgrc
  $ hg init full300
  $ hg -R full300 debugbuilddag -q -m '+300'

Without setgid directories, bob strips: alice's files cannot be given back
to her, so they are truncated in place; alice can still write.

  $ shared_repo
  $ without as_bob hg -R shared debugstrip -q -r 250 --no-backup
  $ owners
  shared/.hg/store/00changelog.i 1000:2000 664
  shared/.hg/store/00manifest.i 1000:2000 664
  $ shared_repo
  $ as_bob hg -R shared debugstrip -q -r 250 --no-backup
  revlogperf: cannot replace 00changelog.d and 3 other store files (Operation not permitted): truncated in place, processes reading them may fail (no-inline-changelog !)
  revlogperf: cannot replace 00changelog.i and 2 other store files (Operation not permitted): truncated in place, processes reading them may fail (inline-changelog !)
  $ owners
  shared/.hg/store/00changelog.i 1000:2000 664
  shared/.hg/store/00manifest.i 1000:2000 664

With --verbose, each of them

  $ shared_repo
  $ as_bob hg -R shared debugstrip -r 250 --no-backup --verbose 2>&1 | grep 'cannot replace'
  revlogperf: cannot replace 00changelog.d (Operation not permitted): truncated in place (no-inline-changelog !)
  revlogperf: cannot replace 00changelog.i (Operation not permitted): truncated in place
  revlogperf: cannot replace 00manifest.i (Operation not permitted): truncated in place
  revlogperf: cannot replace data/mf.i (Operation not permitted): truncated in place
  revlogperf: cannot replace 00changelog.d and 3 other store files (Operation not permitted): truncated in place, processes reading them may fail (no-inline-changelog !)
  revlogperf: cannot replace 00changelog.i and 2 other store files (Operation not permitted): truncated in place, processes reading them may fail (inline-changelog !)
  $ owners
  shared/.hg/store/00changelog.i 1000:2000 664
  shared/.hg/store/00manifest.i 1000:2000 664
  $ as_alice hg -R shared pull -q "$TESTTMP/full300"
  $ as_alice hg -R shared verify -q

alice strips her own files: the copies are hers, with group devs and mode
664, with and without setgid directories

  $ for mode in plain setgid; do
  >   shared_repo $mode
  >   as_alice hg -R shared debugstrip -q -r 250 --no-backup
  >   owners
  >   as_bob hg -R shared pull -q "$TESTTMP/full300"
  >   as_bob hg -R shared verify -q
  > done
  shared/.hg/store/00changelog.i 1000:2000 664
  shared/.hg/store/00manifest.i 1000:2000 664
  shared/.hg/store/00changelog.i 1000:2000 664
  shared/.hg/store/00manifest.i 1000:2000 664

A copy left by a killed writer that the next writer may not remove (bob's,
in a directory where only a file's owner may remove it) is named once per
command and stays listed, and no command stops for it: alice finishes the
rollback (truncating in place where the copy is in the way), commits,
recovers and verifies as she would without revlogperf. bob, its owner,
removes it with his next transaction.

  $ shared_repo setgid
  $ as_bob sh -c 'umask 002; mkdir shared/sub; echo one > shared/sub/b'
  $ as_bob hg -R shared commit -qAm b
  $ echo two >> shared/sub/b
  $ as_bob hg -R shared commit -qm b
  $ KILLAT=b.i as_bob hg -R shared rollback -q --config extensions.killat="$TESTDIR/testlib/killat.py"
  Killed
  [137]
  $ chmod +t shared/.hg/store/data/sub
  $ ls -A shared/.hg/store/data/sub
  .b.i-shorten~
  b.i
  $ as_alice hg -R shared rollback -q -f 2>&1 | grep revlogperf
  revlogperf: cannot replace data/sub/b.i (File exists): truncated in place, processes reading it may fail
  $ as_alice hg -R shared update -qC tip
  warning: ignoring unknown working parent bb3ad2363a46!
  $ echo three >> shared/sub/b
  $ as_alice hg -R shared commit -qm b
  revlogperf: cannot remove data/sub/.b.i-shorten~, left by a killed writer (Operation not permitted): its owner or an administrator can remove it
  $ as_alice hg -R shared recover
  revlogperf: cannot remove data/sub/.b.i-shorten~, left by a killed writer (Operation not permitted): its owner or an administrator can remove it
  no interrupted transaction available
  [1]
  $ as_alice hg -R shared debug-revlog-storage | grep leftover
  leftover copy of a killed writer: data/sub/.b.i-shorten~ (its owner or an administrator can remove it)
  $ as_alice hg -R shared verify -q
  $ echo four >> shared/sub/b
  $ as_bob hg -R shared commit -qm b
  $ ls -A shared/.hg/store/data/sub
  b.i
  $ ls shared/.hg/store | grep revlogperf
  [1]
#endif

Copies left by a killed writer
------------------------------

A writer killed between copying and renaming leaves its copy. The store
lists every copy before it is made: the storage report names what is left,
and the next transaction or ``hg recover`` removes it. (Through chg, the
server's process is killed, and its client says so by its status.)

  $ hg clone -q --pull "$TESTTMP/full" killed
  $ hg -R killed pull -q "$TESTTMP/source"
#if no-chg
  $ KILLAT=big.d hg -R killed rollback -q --config extensions.killat="$TESTDIR/testlib/killat.py"
  Killed
  [137]
#else
  $ KILLAT=big.d hg -R killed rollback -q --config extensions.killat="$TESTDIR/testlib/killat.py"
  [255]
#endif
  $ ls -A killed/.hg/store/data
  .big.d-shorten~
  big.d
  big.i
  $ hg -R killed debug-revlog-storage | grep leftover
  leftover copy of a killed writer: data/.big.d-shorten~ (run 'hg recover' to remove it)
  $ hg -R killed recover -q
  no interrupted transaction available
  [1]
  $ ls -A killed/.hg/store/data
  big.d
  big.i
  $ hg -R killed rollback -q
  $ hg -R killed verify -q

  $ hg -R killed pull -q "$TESTTMP/source"
#if no-chg
  $ KILLAT=big.d hg -R killed rollback -q --config extensions.killat="$TESTDIR/testlib/killat.py"
  Killed
  [137]
#else
  $ KILLAT=big.d hg -R killed rollback -q --config extensions.killat="$TESTDIR/testlib/killat.py"
  [255]
#endif
  $ echo more >> killed/big
  $ hg -R killed commit -qAm next
  $ ls -A killed/.hg/store/data
  big.d
  big.i
  $ ls killed/.hg/store | grep revlogperf
  [1]

Long file names
---------------

A copy is named after its file, with a dot before and ``-shorten~`` after:
10 bytes more, where core's own temporary copies take 11. A name the file
system refuses all the same (a store name of 246 bytes or more, without
fncache) means the file is truncated in place. Store names of 234 to 244
bytes (whose copies once got names too long) and of 250, through a strip,
a rollback and a recovery, end as they do without revlogperf (not through
chg: a hook kills the process that commits, to leave a transaction to
recover):

#if no-chg
  $ longnames() {
  >   hg init "$1" --config format.usefncache=no
  >   for n in 234 239 244 250; do
  >     "$PYTHON" -c "import random; r = random.Random($n); open('$1/' + 'l' * ($n - 2), 'wb').write(r.randbytes(9000))"
  >   done
  >   more() {
  >     for f in "$1"/l*; do echo more >> "$f"; done
  >   }
  >   hg -R "$1" commit -qAm one
  >   more "$1"; hg -R "$1" commit -qm two --date '0 0'
  >   hg -R "$1" debugstrip -q --no-backup -r tip
  >   more "$1"; hg -R "$1" commit -qm two --date '0 0'
  >   hg -R "$1" rollback -q
  >   hg -R "$1" commit -qm two --date '0 0' --config hooks.pretxncommit='kill -9 $PPID'
  >   hg -R "$1" recover -q
  >   hg -R "$1" verify -q
  >   (cd "$1/.hg/store" && find . -type f | sort | cut -c1-20 | uniq -c)
  > }
  $ without longnames core > core.out 2>&1
  $ cat core.out
  Killed
  (verify step skipped, run `hg verify` to check your repository content)
        1 ./00changelog.d (no-inline-changelog !)
        1 ./00changelog.i
        1 ./00manifest.i
        4 ./data/lllllllllllll
        1 ./journal.phaseroots (?)
        1 ./phaseroots
        1 ./requires
  $ longnames with
  revlogperf: cannot replace data/llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll.i (File name too long): truncated in place, processes reading it may fail
  revlogperf: cannot replace data/llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll.i (File name too long): truncated in place, processes reading it may fail
  Killed
  revlogperf: cannot replace data/llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll.i (File name too long): truncated in place, processes reading it may fail
  (verify step skipped, run `hg verify` to check your repository content)
        1 ./00changelog.d (no-inline-changelog !)
        1 ./00changelog.i
        1 ./00manifest.i
        4 ./data/lllllllllllll
        1 ./journal.phaseroots (?)
        1 ./phaseroots
        1 ./requires
  $ (cd core/.hg/store && find . -type f | sort | xargs cat) > core.files
  $ (cd with/.hg/store && find . -type f | sort | xargs cat) > with.files
  $ cmp core.files with.files && echo identical
  identical
#endif

A store lists the same files with and without revlogperf after a commit, a
rollback, a strip and a transaction a hook aborts

  $ steps() {
  >   hg init "$1"
  >   "$PYTHON" -c "import os; open('$1/f', 'wb').write(os.urandom(200000))"
  >   hg -R "$1" commit -qAm one; echo more >> "$1/f"
  >   hg -R "$1" commit -qm two; (cd "$1/.hg/store"; find . | sort); echo
  >   hg -R "$1" rollback -q; (cd "$1/.hg/store"; find . | sort); echo
  >   hg -R "$1" commit -qm two; hg -R "$1" debugstrip -q --no-backup -r tip
  >   (cd "$1/.hg/store"; find . | sort); echo
  >   hg -R "$1" commit -qm two --config hooks.pretxncommit=false
  >   (cd "$1/.hg/store"; find . | sort)
  > }
  $ without steps core2 > core.list 2>&1
  $ steps with2 > with.list 2>&1
  $ cmp core.list with.list && echo identical
  identical
  $ grep revlogperf with.list
  [1]

File descriptors
----------------

Each map holds a file descriptor. A dropped revlog lets its maps go at
once, and a process keeps at most ``revlogperf.mmap-data-budget`` data files
mapped: ``hg log -p`` and ``hg verify`` over 150 filelogs of two revisions
(over 128 KB, so not inline; a revlog is mapped from its second chunk) run
within 100 descriptors, as they do without revlogperf

  $ hg init many
  $ "$PYTHON" - << EOF
  > import os
  > for i in range(150):
  >     open('many/f%03d' % i, 'wb').write(os.urandom(140 << 10))
  > EOF
  $ hg -R many commit -qAm files
  $ "$PYTHON" - << EOF
  > for i in range(150):
  >     open('many/f%03d' % i, 'ab').write(b'more\n')
  > EOF
  $ hg -R many commit -qm more
  $ ls many/.hg/store/data | grep -c '\.d$'
  150
  $ sh -c 'ulimit -n 100; hg -R many log -p > /dev/null'
  $ without sh -c 'ulimit -n 100; hg -R many log -p > /dev/null'
  $ sh -c 'ulimit -n 100; hg -R many verify -q'
  $ without sh -c 'ulimit -n 100; hg -R many verify -q'

Within one process, with the cycle collector off: every filelog read and
kept, then dropped (the walk cache, which keeps filelogs for the rest of a
command within the same budget, is off: nothing else may hold them)

  $ hg -R many debugholdfds --config extensions.holdfds="$TESTDIR/testlib/holdfds.py" --config revlogperf.mmap-data-budget=10 --config revlogperf.walk-cache=off
  150 filelogs read and kept: 10 data maps, descriptors within the budget
  dropped: 0 data maps, descriptors as before

Long-lived processes: a command server running 500 commands and hgweb
serving 500 pages, over those 150 mapped filelogs, stay within the budget
plus what core holds

  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > mmap-data-budget = 10
  > EOF
  $ "$PYTHON" "$TESTDIR/testlib/longlived.py" cmdserver many 500 10
  cmdserver, 500 requests: peak descriptors within the budget plus core's
  $ "$PYTHON" "$TESTDIR/testlib/longlived.py" hgweb many 500 10
  hgweb, 500 requests: peak descriptors within the budget plus core's
