filelogs and file texts kept for the rest of a command
=======================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ OFF="--config revlogperf.walk-cache=off"
  $ COUNT="--config extensions.countreads=$TESTDIR/testlib/countreads.py"

Three files edited over 30 changesets, one renamed, one large

  $ hg init repo
  $ cd repo
  $ for i in `$RUNTESTDIR/seq.py 1 30`; do
  >   $RUNTESTDIR/seq.py $i `expr $i + 40` > a
  >   echo "line $i" >> b
  >   if [ $i = 15 ]; then hg mv -q b c; fi
  >   if [ $i = 15 ]; then echo "line $i" >> c; fi
  >   $RUNTESTDIR/seq.py 1 `expr $i \* 200` > large
  >   hg commit -qAm "edit $i"
  > done

Every command a walk helps gives the same output and writes the same
bundle with the cache on, off, and too small to hold the large file

  $ read_all() {
  >   hg log -p --git "$@"
  >   hg log -p -r 'reverse(all())' "$@"
  >   hg diff -r 3 -r tip "$@"
  >   hg diff --stat -r 10 -r 20 "$@"
  >   hg annotate -r tip a c large "$@"
  >   hg log -f c -T '{rev} {files}\n' "$@"
  >   hg grep --all-files -r 'all()' 'line 1' "$@"
  >   hg verify "$@" 2>&1
  >   hg bundle -q --all ../walk.hg "$@"; cat ../walk.hg; rm ../walk.hg
  >   hg update -q -r 2 "$@"; hg update -q -r tip "$@"; hg status --all "$@"
  > }
  $ read_all > ../on.out
  $ read_all --config revlogperf.walk-cache=1k > ../small.out
  $ read_all $OFF > ../off.out
  $ cmp ../on.out ../off.out && cmp ../small.out ../off.out && echo identical
  identical

A command opens each filelog once and reads each file text once; with the
cache off, as core, it opens and reads again for every changeset

  $ hg log -p $COUNT > /dev/null
  filelogs opened: 4, texts read: 90
  $ hg log -p $COUNT $OFF > /dev/null
  filelogs opened: 91, texts read: 352
  $ hg diff -r 0 -r tip $COUNT > /dev/null
  filelogs opened: 4, texts read: 7
  $ hg diff -r 0 -r tip $COUNT $OFF > /dev/null
  filelogs opened: 4, texts read: 14

A text larger than a quarter of the cache is read again, as core does

  $ hg log -p -r 28:29 $COUNT --config revlogperf.walk-cache=1k > /dev/null
  filelogs opened: 6, texts read: 16
  $ hg log -p -r 28:29 $COUNT $OFF > /dev/null
  filelogs opened: 6, texts read: 24

Reading newest first, a read patches from the text kept nearest in its
delta chain (every 32nd place), not from the chain's base again; the
chains differ between releases, the share patched less does not

  $ HGRCPATH= "$PYTHON" "$TESTDIR/../contrib/mkrepo.py" ../chains -q \
  >   --changesets 300 --files 10 --large-filelog
  $ cd ../chains
  $ hg debugdeltachain ChangeLog -T '{chainlen}\n' | sort -n | tail -1 \
  >   | "$PYTHON" -c 'print(int(input()) > 64)'
  True
  $ PATCHES="--config extensions.countpatches=$TESTDIR/testlib/countpatches.py"
  $ compare() {
  >   hg "$@" $PATCHES > ../on.out 2> ../on.count
  >   hg "$@" $PATCHES $OFF > ../off.out 2> ../off.count
  >   cmp ../on.out ../off.out && echo identical
  >   cat ../on.count ../off.count | "$PYTHON" -c '
  > import sys
  > on, off = (int(line.split()[-1]) for line in sys.stdin)
  > print("deltas patched: " + ("less than half" if 2 * on < off else
  >                              "no more" if on <= off else "%d, %d" % (on, off)))'
  > }
  $ compare log -p ChangeLog
  identical
  deltas patched: less than half
  $ compare log -p -l 100
  identical
  deltas patched: less than half

Annotate reads oldest first: core's own text is in the chain of the next

  $ compare annotate -r tip ChangeLog
  identical
  deltas patched: no more
  $ cd ../repo

A command server sees what another process commits and strips at its next
command, as core does

  $ cat > ../session << EOF
  > ! echo one > s; hg commit -qAm 'add s'
  > hg log -p -l 2 -T '{rev} {desc}\n' s
  > ! echo two >> s; hg commit -qm 'edit s'
  > hg log -p -l 2 -T '{rev} {desc}\n' s
  > ! hg debugstrip -q --no-backup -r tip; hg update -qC tip
  > ! echo three >> s; hg commit -qm 'edit s again'
  > hg log -p -l 2 -T '{rev} {desc}\n' s
  > hg annotate -r tip s
  > EOF
  $ "$PYTHON" "$TESTDIR/testlib/cmdsession.py" . < ../session | tee ../session.out
  30 add s
  diff -r 1a5b70b1cf14 -r e2c5f46fb272 s
  --- /dev/null	Thu Jan 01 00:00:00 1970 +0000
  +++ b/s	Thu Jan 01 00:00:00 1970 +0000
  @@ -0,0 +1,1 @@
  +one
  
  31 edit s
  diff -r e2c5f46fb272 -r 3a66e462d16e s
  --- a/s	Thu Jan 01 00:00:00 1970 +0000
  +++ b/s	Thu Jan 01 00:00:00 1970 +0000
  @@ -1,1 +1,2 @@
   one
  +two
  
  30 add s
  diff -r 1a5b70b1cf14 -r e2c5f46fb272 s
  --- /dev/null	Thu Jan 01 00:00:00 1970 +0000
  +++ b/s	Thu Jan 01 00:00:00 1970 +0000
  @@ -0,0 +1,1 @@
  +one
  
  31 edit s again
  diff -r e2c5f46fb272 -r e48d83f0cd99 s
  --- a/s	Thu Jan 01 00:00:00 1970 +0000
  +++ b/s	Thu Jan 01 00:00:00 1970 +0000
  @@ -1,1 +1,2 @@
   one
  +three
  
  30 add s
  diff -r 1a5b70b1cf14 -r e2c5f46fb272 s
  --- /dev/null	Thu Jan 01 00:00:00 1970 +0000
  +++ b/s	Thu Jan 01 00:00:00 1970 +0000
  @@ -0,0 +1,1 @@
  +one
  
  30: one
  31: three
  $ hg debugstrip -q --no-backup -r 30:
  $ sed -e 's/^hg /hg --config revlogperf.walk-cache=off /' ../session > ../session-off
  $ "$PYTHON" "$TESTDIR/testlib/cmdsession.py" . < ../session-off | cmp - ../session.out && echo identical
  identical

hgweb keeps its repository from one request to the next: after each step of
a writer in another process (commits, a strip, a rollback), it serves the
pages a new hgweb without revlogperf serves

  $ grep -v '^revlogperf = ' "$HGRCPATH" > "$TESTTMP/core.hgrc"
  $ hg init ../web
  $ CORE_HGRCPATH="$TESTTMP/core.hgrc" "$PYTHON" "$TESTDIR/testlib/webwriter.py" ../web
  6 steps: every page is core's
