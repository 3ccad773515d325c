revlogperf never changes what Mercurial writes
==============================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ OFF="--config extensions.revlogperf=!"
  $ NOZSTD="--config extensions.nozstd=$TESTDIR/testlib/nozstd.py"
  $ formats() {
  >   cat "$1/.hg/requires" "$1/.hg/store/requires" 2> /dev/null | sort
  >   (cd "$1" && "$PYTHON" "$TESTDIR/testlib/chunkheaders.py" -m)
  > }
  $ same() {
  >   formats "$1" > with.txt; formats "$2" > without.txt
  >   cmp with.txt without.txt && echo "$1, $2: same requirements and compression"
  > }

With and without revlogperf, a new repository, a clone and an upgrade have
the same requirements and compressed chunks, here and in a build without a
zstd module (pure builds; the zstandard package revlogperf reads zstd with
must not make them zstd)

  $ for build in here nozstd; do
  >   if [ $build = nozstd ]; then X="$NOZSTD"; else X=; fi
  >   hg init $build-with $X
  >   hg init $build-without $X $OFF
  >   for repo in $build-with $build-without; do
  >     echo content > $repo/f
  >     hg -R $repo commit -qAm 0 $X
  >   done
  >   same $build-with $build-without
  >   hg clone -q --pull $build-with $build-clone-with $X
  >   hg clone -q --pull $build-with $build-clone-without $X $OFF
  >   same $build-clone-with $build-clone-without
  >   for repo in $build-clone-with $build-clone-without; do
  >     extra=
  >     [ $repo = $build-clone-without ] && extra="$OFF"
  >     hg -R $repo debugupgraderepo --run --optimize re-delta-all -q $X $extra > /dev/null
  >   done
  >   same $build-clone-with $build-clone-without
  > done
  here-with, here-without: same requirements and compression
  here-clone-with, here-clone-without: same requirements and compression
  here-clone-with, here-clone-without: same requirements and compression
  nozstd-with, nozstd-without: same requirements and compression
  nozstd-clone-with, nozstd-clone-without: same requirements and compression
  nozstd-clone-with, nozstd-clone-without: same requirements and compression
  $ grep compression nozstd-with/.hg/requires nozstd-with/.hg/store/requires
  [1]

An existing zstd repository stays zstd: revlogperf reads it, and writes to
it as the same Mercurial with a zstd module would

#if zstd
  $ hg init zstd --config format.revlog-compression=zstd
  $ "$PYTHON" "$RUNTESTDIR/seq.py" 500 > zstd/f
  $ hg -R zstd commit -qAm one
  $ "$PYTHON" "$RUNTESTDIR/seq.py" 1000 > zstd/f
  $ hg -R zstd commit -qm two $NOZSTD
  $ hg -R zstd verify -q $NOZSTD
  $ hg -R zstd verify -q
  $ hg --cwd zstd cat -r tip f $NOZSTD | tail -1
  1000
  $ cd zstd && "$PYTHON" "$TESTDIR/testlib/chunkheaders.py" f && cd ..
  b'(':2
#endif
