readers, a committer and a puller at the same time, indexes mmapped
===================================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [revlogperf]
  > mmap-index-threshold = 4k
  > EOF

  $ hg init source
  $ hg -R source debugbuilddag -m '+300'
  $ hg init repo
  $ "$PYTHON" "$TESTDIR/testlib/busyrepo.py" repo source 500 6 3
  writer: exit 0
  puller: exit 0
  readers: ran
  $ hg -R repo verify -q
  $ hg -R repo log -r 'file("path:c")' -T '.' | wc -c
  \s*501 (re)
  $ hg -R repo log -r 'file("path:mf")' -T '.' | wc -c
  \s*300 (re)
