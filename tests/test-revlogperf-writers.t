commands that read what their own transaction wrote, with every map on
=======================================================================

Amend, rebase, histedit, absorb, fix, shelve and import read the changesets
they add inside the transaction that adds them, through openers that a
release, a transaction or another extension replaces (Mercurial up to 6.8
delays a changelog's writes through a plain function). Their repositories
in Mercurial's own tests are far below revlogperf's 1 MB thresholds; here
every mechanism is on at any size: indexes and data files mapped (filelogs
too), two data maps at most, and a walk cache that evicts.

Each command runs on two clones of one repository, once with revlogperf
and once without; what it prints, the history it leaves (hashes included),
the working copy and verify's verdict must be the same. (``in=-x both``
runs it in the clones' neighbours core-x and revlogperf-x.)

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [extensions]
  > longhistory = $TESTDIR/testlib/longhistory.py
  > absorb =
  > censor =
  > fix =
  > histedit =
  > rebase =
  > strip =
  > [revlogperf]
  > mmap-index-threshold = 0
  > mmap-data-threshold = 0
  > mmap-data-budget = 2
  > mmap-filelogs = yes
  > walk-cache = 32k
  > [ui]
  > rollback = yes
  > [phases]
  > publish = no
  > EOF
  $ grep -v '^revlogperf = ' "$HGRCPATH" > "$TESTTMP/core.hgrc"

  $ in=
  $ both() {
  >   for side in core revlogperf; do
  >     if [ $side = core ]; then rc="$TESTTMP/core.hgrc"; else rc="$HGRCPATH"; fi
  >     (cd "$TESTTMP/$side$in" && HGRCPATH="$rc" hg "$@" > "$TESTTMP/$side.out" 2>&1; echo "[$?]" >> "$TESTTMP/$side.out")
  >     sed -e "s#$TESTTMP/$side#\$REPO#g" "$TESTTMP/$side.out" > "$TESTTMP/out"
  >     mv "$TESTTMP/out" "$TESTTMP/$side.out"
  >     (cd "$TESTTMP/$side$in" && HGRCPATH="$rc" hg log -G --hidden -T '{rev}:{node|short} {desc|firstline}\n' && \
  >      HGRCPATH="$rc" hg status && HGRCPATH="$rc" hg verify -q 2>&1) > "$TESTTMP/$side.state"
  >   done
  >   cat "$TESTTMP/revlogperf.out"
  >   cmp -s "$TESTTMP/core.out" "$TESTTMP/revlogperf.out" || diff -u "$TESTTMP/core.out" "$TESTTMP/revlogperf.out"
  >   cmp -s "$TESTTMP/core.state" "$TESTTMP/revlogperf.state" && echo "same history, working copy and verify" || diff -u "$TESTTMP/core.state" "$TESTTMP/revlogperf.state"
  > }
  $ edit() {
  >   for side in core revlogperf; do
  >     echo "$2" >> "$TESTTMP/$side$in/$1"
  >   done
  > }

150 changesets, whose changelog and file ``big`` have data files

  $ hg init base
  $ hg -R base debuglonghistory 150
  $ hg -R base update -q -r 140
  $ echo side >> base/f1
  $ hg -R base commit -qm side
  $ hg -R base update -q 'desc("change 149")'
  $ ls base/.hg/store/00changelog.d base/.hg/store/data/big.d
  base/.hg/store/00changelog.d
  base/.hg/store/data/big.d
  $ for side in core revlogperf; do
  >   hg clone -q -U --pull base $side
  >   hg -R $side update -q 'desc("change 149")'
  > done

Their data files are mapped by what reads them

  $ hg -R revlogperf log -p -l 3 --config revlogperf.trace-mmap=yes 2>&1 >/dev/null \
  >   | grep -o '[^/]*\.d$' | sort -u
  00changelog.d
  big.d

commit --amend, stripping what it replaces

  $ edit f0 amended
  $ both commit --amend -m amended
  saved backup bundle to $REPO/.hg/strip-backup/*-amend.hg (glob)
  [0]
  same history, working copy and verify

rebase, in memory and in the working copy

  $ both rebase -q -s 'desc(side)' -d 'desc(amended)' --config rebase.experimental.inmemory=yes
  [0]
  same history, working copy and verify
  $ both rebase -q -r 'desc(side)' -d 'desc("change 120")'
  [0]
  same history, working copy and verify
  $ both update -q 'desc(amended)'
  [0]
  same history, working copy and verify

histedit: pick, roll, pick, drop

  $ for side in core revlogperf; do
  >   hg -R $side log -r '.~3::.' -T '{node|short}\n' \
  >     | sed -e '1s/^/pick /' -e '2s/^/roll /' -e '3s/^/pick /' -e '4s/^/drop /' \
  >     > $side/.hg/plan
  > done
  $ both histedit -q --commands .hg/plan '.~3'
  [0]
  same history, working copy and verify

absorb and fix, which rewrite changesets in memory

  $ for side in core revlogperf; do
  >   sed -e 's/edit 148$/edit 148 absorbed/' $side/f1 > f1
  >   mv f1 $side/f1
  > done
  $ both absorb -a -q
  absorb: only the recent 50 changesets will be analysed
  [0]
  same history, working copy and verify
  $ both fix -w -r . --config 'fix.sorted:command=sort' --config 'fix.sorted:pattern=f2'
  saved backup bundle to $REPO/.hg/strip-backup/*-fix.hg (glob)
  [0]
  same history, working copy and verify

shelve and unshelve

  $ edit f3 shelved
  $ both shelve -q
  [0]
  same history, working copy and verify
  $ both unshelve -q
  [0]
  same history, working copy and verify
  $ both revert -q --all
  [0]
  same history, working copy and verify

import --exact of an exported changeset, after a strip

  $ edit f0 exported
  $ both commit -m 'to export'
  [0]
  same history, working copy and verify
  $ both export --git -q -r . -o .hg/exported.patch
  [0]
  same history, working copy and verify
  $ both strip -q -r .
  [0]
  same history, working copy and verify
  $ both import -q --exact .hg/exported.patch
  [0]
  same history, working copy and verify

censor: the censored text is refused alike

  $ both censor -q -r 100 big
  [0]
  same history, working copy and verify
  $ both cat -r 100 big
  abort: censored node: * (glob)
  (set censor.policy to ignore errors)
  [255]
  same history, working copy and verify

rollback of a commit

  $ edit f0 rolled
  $ both commit -m 'to roll back'
  [0]
  same history, working copy and verify
  $ both rollback -q
  [0]
  same history, working copy and verify
  $ both revert -q --all
  [0]
  same history, working copy and verify

bundle repositories: a bundle read over the repository, then applied

  $ both bundle -q -r . --base '.~2' .hg/two.hg
  [0]
  same history, working copy and verify
  $ both strip -q -r '.~1'
  [0]
  same history, working copy and verify
  $ both log -R .hg/two.hg -r 'bundle()' -T '{rev}:{node|short} {desc|firstline}\n' --stat
  * (glob)
   big |   4 ++--
   f0  |   4 ++--
   f1  |   4 ++--
   f2  |  64 ++++++++++++++++++++++++++++++++--------------------------------
   f3  |   4 ++--
   5 files changed, 40 insertions(+), 40 deletions(-)
  
  * (glob)
   f0 |  1 +
   1 files changed, 1 insertions(+), 0 deletions(-)
  
  [0]
  same history, working copy and verify
  $ both unbundle -q -u .hg/two.hg
  [0]
  same history, working copy and verify

a union repository of a clone and the repository it was cloned from

  $ both log -R "union:$TESTTMP/base+." -r 'tip' --stat -T '{rev}:{node|short}\n'
  * (glob)
   f0 |  1 +
   1 files changed, 1 insertions(+), 0 deletions(-)
  
  [0]
  same history, working copy and verify

a clone of a union repository: of the base and a clone of it with one more
changeset. Its changegroup takes deltas from the revlogs' chunks, which
Mercurial 6.3's union revlogs read their own way

  $ for side in core revlogperf; do
  >   hg clone -q base $side-union
  >   echo more >> $side-union/f0
  >   hg -R $side-union commit -q -m more -u test -d '0 0'
  > done
  $ in=-union
  $ both clone -q -U "union:$TESTTMP/base+." .hg/union-clone
  [0]
  same history, working copy and verify
  $ both log -R .hg/union-clone -r 'tip' -T '{rev}:{node|short} {desc}\n'
  151:* more (glob)
  [0]
  same history, working copy and verify
  $ both verify -q -R .hg/union-clone
  [0]
  same history, working copy and verify
  $ in=

commit --amend again, with obsolescence markers

  $ for rc in "$HGRCPATH" "$TESTTMP/core.hgrc"; do
  >   printf '[experimental]\nevolution = createmarkers\n' >> "$rc"
  > done
  $ edit f0 again
  $ both commit --amend -m 'amended again'
  [0]
  same history, working copy and verify

a share, committed to

  $ for side in core revlogperf; do
  >   hg --config extensions.share= share -q $side $side-share
  > done
  $ in=-share
  $ edit f1 shared
  $ both commit -m 'in a share'
  [0]
  same history, working copy and verify
  $ both log -r . --stat -T '{desc}\n'
  in a share
   f1 |  1 +
   1 files changed, 1 insertions(+), 0 deletions(-)
  
  [0]
  same history, working copy and verify

unshare, which leaves the repository object unusable to anyone after it

  $ both --config extensions.share= unshare
  [0]
  same history, working copy and verify

a narrow clone, committed to

  $ for side in core revlogperf; do
  >   hg --config extensions.narrow= clone -q --narrow --include f1 $side $side-narrow
  >   printf '[extensions]\nnarrow =\n' >> $side-narrow/.hg/hgrc
  > done
  $ in=-narrow
  $ edit f1 narrowed
  $ both commit -m 'in a narrow clone'
  [0]
  same history, working copy and verify
  $ both log -l 2 --stat -T '{desc|firstline}\n'
  in a narrow clone
   f1 |  1 +
   1 files changed, 1 insertions(+), 0 deletions(-)
  
  in a share
   f1 |  1 +
   1 files changed, 1 insertions(+), 0 deletions(-)
  
  [0]
  same history, working copy and verify

largefiles and lfs, whose files are stored elsewhere

  $ for side in core revlogperf; do
  >   hg clone -q $side $side-largefiles
  >   printf '[extensions]\nlargefiles =\n' >> $side-largefiles/.hg/hgrc
  >   hg clone -q $side $side-lfs
  >   printf '[extensions]\nlfs =\n[lfs]\ntrack = size(">10KB")\n' >> $side-lfs/.hg/hgrc
  >   dd if=$side/big of=$side-largefiles/large bs=30000 count=1 2> /dev/null
  >   dd if=$side/big of=$side-lfs/large bs=30000 count=1 2> /dev/null
  > done
  $ in=-largefiles
  $ both add -q --large large
  [0]
  same history, working copy and verify
  $ both commit -m 'a large file'
  [0]
  same history, working copy and verify
  $ both cat -r . large | md5sum
  * (glob)
  $ in=-lfs
  $ both commit -qAm 'an lfs file'
  [0]
  same history, working copy and verify
  $ both log -r . --stat -T '{desc}\n'
  an lfs file
   large |  715 ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
   1 files changed, 715 insertions(+), 0 deletions(-)
  
  [0]
  same history, working copy and verify
  $ in=
