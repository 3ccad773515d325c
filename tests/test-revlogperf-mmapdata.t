revision data read through a map of the data file
==================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ OFF="--config revlogperf.mmap-data-threshold=off"
  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > mmap-data-threshold = 4k
  > EOF

A repository whose changelog and a filelog have data files (.d) over 4k (a
revlog moves its data out of the index past 128k), and other revlogs inline

  $ hg init repo
  $ cd repo
  $ hg debugbuilddag -m '+150'
  $ hg update -q tip
  $ for i in `$RUNTESTDIR/seq.py 1 12`; do
  >   $RUNTESTDIR/seq.py $i 200 > big
  >   echo "line $i" >> small
  >   hg commit -qAm "edit $i"
  > done
  $ "$PYTHON" -c "
  > import os, random
  > rng = random.Random(0)
  > open('random.bin', 'wb').write(bytes(rng.randrange(256) for _ in range(300000)))
  > "
  $ hg commit -qAm "a random file"
  $ echo "and a line" >> random.bin
  $ hg commit -qm "the random file grows"
  $ ls .hg/store/ .hg/store/data/ | grep '\.d$'
  00changelog.d (no-inline-changelog !)
  random.bin.d

The data files over the threshold are mapped, from the second chunk a
revlog reads: most revlogs a command opens are read once, and one read
costs less than a map

  $ hg verify -q --config revlogperf.trace-mmap=yes 2>&1 | grep mmapping | grep '\.d$'
  mmapping $TESTTMP/repo/.hg/store/00changelog.d (no-inline-changelog !)
  mmapping $TESTTMP/repo/.hg/store/data/random.bin.d
  $ hg cat -r tip random.bin --config revlogperf.trace-mmap=yes 2>&1 > /dev/null | grep mmapping | grep '\.d$'
  [1]

Every read gives the same bytes with the data map on and off

  $ read_all() {
  >   hg log -p --git "$@"
  >   for rev in 0 20 50 100 149 155; do hg cat -r $rev mf "$@"; done
  >   hg cat -r tip big small mf random.bin "$@"
  >   hg annotate -r tip big small mf "$@"
  >   hg verify "$@" 2>&1
  >   hg debug-revlog-storage "$@"
  > }
  $ read_all > ../on.out
  $ read_all $OFF > ../off.out
  $ cmp ../on.out ../off.out && echo identical
  identical
  $ hg bundle -q --all ../on.hg
  $ hg bundle -q --all ../off.hg $OFF
  $ cmp ../on.hg ../off.hg && echo identical
  identical
  $ hg init ../unbundled
  $ hg -R ../unbundled unbundle -q ../on.hg
  $ hg -R ../unbundled log -p --git -T '{node} {p1node} {p2node}\n' > ../unbundled.out
  $ hg log -p --git -T '{node} {p1node} {p2node}\n' > ../repo.out
  $ cmp ../unbundled.out ../repo.out && echo identical
  identical

A long-lived reader sees a commit made while it has the data files mapped

  $ mkdir ../sync
  $ waitfor() {
  >   for i in `$RUNTESTDIR/seq.py 1 600`; do test -f "$1" && return; sleep 0.1; done
  >   echo "timed out waiting for $1"
  > }
  $ hg --config extensions.readloop="$TESTDIR/testlib/readloop.py" \
  >   debugreadloop ../sync mf 2 > ../reader.out 2>&1 &
  $ touch ../sync/round0; waitfor ../sync/done0
  $ echo "while mapped" >> mf
  $ hg commit -qm "while mapped"
  $ touch ../sync/round1; waitfor ../sync/done1
  $ wait
  $ cat ../reader.out
  round 0: tip 163, mf ends with 299
  round 1: tip 164, mf ends with while mapped

A censored revision is still reported as censored

  $ hg censor -q -r 100 mf --config extensions.censor=
  $ hg cat -r 100 mf
  abort: censored node: * (glob)
  (set censor.policy to ignore errors)
  [255]
  $ hg cat -r 100 mf $OFF
  abort: censored node: * (glob)
  (set censor.policy to ignore errors)
  [255]

A data file shorter than its index says gives an error naming it

  $ cd ..
  $ hg clone -q --pull repo short
  $ "$PYTHON" -c "import os; os.truncate('short/.hg/store/data/random.bin.d', 2000)"
  $ hg --cwd short cat -r tip random.bin
  abort: partial read of revlog data/random.bin.d; expected * bytes from offset 0, got 2000 (glob)
  [50]
  $ hg --cwd short cat -r tip random.bin $OFF
  abort: partial read of revlog data/random.bin.d; expected * bytes from offset 0, got 2000 (glob)
  [50]
