Damaged revlogs end in Mercurial errors, never in a traceback
==============================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ . "$TESTDIR/testlib/readall.sh"
  $ cat >> $HGRCPATH << EOF
  > [perf]
  > stub = yes
  > EOF

A repository whose changelog, manifest and a filelog each have an index and a
data file

  $ hg init base
  $ cd base
  $ for i in `$RUNTESTDIR/seq.py 1 40`; do
  >   "$PYTHON" -c "import random; r = random.Random($i); print('\n'.join(str(r.random()) for _ in range(2000)))" > big
  >   "$PYTHON" -c "import base64, random; print(base64.b64encode(random.Random($i).randbytes(4500)).decode())" > description
  >   hg commit -qAl description
  > done
  $ rm description
  $ ls .hg/store/00changelog.* .hg/store/00manifest.* .hg/store/data/big.*
  .hg/store/00changelog.d
  .hg/store/00changelog.i
  .hg/store/00manifest.i
  .hg/store/data/big.d
  .hg/store/data/big.i
  $ cd ..
  $ checksums() { (cd "$1/.hg/store" && find . -type f -readable | sort | xargs md5sum); }

Each damage, on each file: every read command succeeds or ends in a Mercurial
error naming the revlog (only other outcomes are shown), gives the same result
with the index and data files mmapped (threshold 0) and read, and changes
nothing on disk

  $ damage_each() {
  >   reader=$1; shift
  >   for file in 00changelog.i 00changelog.d 00manifest.i data/big.i data/big.d; do
  >     for damage in "$@"; do
  >       case $file:$damage in
  >         *.d:bad-version|*.d:truncate-entry) continue;;
  >       esac
  >       echo "$file $damage"
  >       for mmap in 0 off; do
  >         rm -rf d
  >         cp -R base d
  >         "$PYTHON" "$TESTDIR/testlib/corrupt.py" $damage d/.hg/store/$file
  >         checksums d > before
  >         $reader d --config revlogperf.mmap-index-threshold=$mmap \
  >           --config revlogperf.mmap-data-threshold=$mmap > result-$mmap
  >         checksums d | cmp - before || echo "A READ CHANGED THE STORE"
  >       done
  >       cat result-0
  >       cmp result-0 result-off || echo "MMAP CHANGED THE RESULT"
  >     done
  >   done
  > }
  $ damage_each readall truncate-entry empty cut-data bad-version directory
  00changelog.i truncate-entry
  00changelog.i empty
    verify -q: (first damaged changeset appears to be 0)
    perf::revlog-tip -c: abort: perf::revlog-tip: the repository is empty, there is nothing to measure
    perf::revlog-sample -m: abort: perf::revlog-sample: the repository is empty, there is nothing to measure
    perf::revlog-decompress big: abort: perf::revlog-decompress: the repository is empty, there is nothing to measure
  00changelog.i cut-data
  00changelog.i bad-version
  00changelog.i directory
  00changelog.d empty
  00changelog.d cut-data
  00changelog.d directory
  00manifest.i truncate-entry
  00manifest.i empty
    verify -q: (first damaged changeset appears to be 0)
    perf::revlog-sample -m: abort: perf::revlog-sample: the manifest is empty, there is nothing to measure
  00manifest.i cut-data
  00manifest.i bad-version
  00manifest.i directory
  data/big.i truncate-entry
  data/big.i empty
  data/big.i cut-data
  data/big.i bad-version
  data/big.i directory
  data/big.d empty
  data/big.d cut-data
  data/big.d directory

An unreadable file (permission denied) on each revlog: the same. Root reads
any file, so as root the commands run without that power (not through chg,
whose server keeps the power of whoever started it)

#if deny-read no-chg
  $ damage_each readall_unprivileged unreadable
  00changelog.i unreadable
  00changelog.d unreadable
  00manifest.i unreadable
  data/big.i unreadable
  data/big.d unreadable

Each of these is core's own error, naming the file (d is left with
data/big.d unreadable)

  $ unprivileged hg --cwd d cat -r tip big --config revlogperf.mmap-data-threshold=0
  abort: Permission denied: '$TESTTMP/d/.hg/store/data/big.d'
  [255]
  $ "$PYTHON" "$TESTDIR/testlib/corrupt.py" unreadable d/.hg/store/00changelog.d
  $ unprivileged hg -R d log -l 1 -T '{desc}\n'
  abort: Permission denied: '$TESTTMP/d/.hg/store/00changelog.d'
  [255]
#endif

Only damage is called damage: an extension whose code fails while a revision
is read shows its own error, not "the revlog may be damaged"

  $ hg --cwd base cat -r 0 big --config extensions.extensionbug="$TESTDIR/testlib/extensionbug.py" 2>&1 | grep '^TypeError'
  TypeError: a bug in extensionbug

An index entry whose parent is out of range is a damaged index, named (core
reports it with a traceback), with maps and without

  $ cp -R base parents
  $ "$PYTHON" - << EOF
  > import struct
  > path = 'parents/.hg/store/00changelog.i'
  > index = bytearray(open(path, 'rb').read())
  > struct.pack_into('>i', index, 30 * 64 + 24, 9999)  # parent 1 of rev 30
  > open(path, 'wb').write(bytes(index))
  > EOF
  $ for threshold in 0 off; do
  >   hg -R parents log -l 1 -T '{rev}\n' --config revlogperf.mmap-index-threshold=$threshold 2>&1 | grep -v '^(run'
  > done
  abort: index 00changelog is corrupted: parent out of range (no-pure !)
  abort: index 00changelog is corrupted: parent out of range (no-pure !)
  39 (pure !)
  39 (pure !)
  $ hg -R parents verify -q 2>&1 | grep -c Traceback
  0
  [1]

Bad values for every revlogperf option are configuration errors naming it,
or the historical name where that was set, with a hint of what to write

  $ for item in mmap-index-threshold mmap-data-threshold mmap-filelogs trace-mmap fast-decompress; do
  >   hg -R base log -l 1 -T '{rev}\n' --config revlogperf.$item=banana
  > done
  config error: revlogperf.mmap-index-threshold is not a byte quantity ('banana')
  (use a size such as '4k' or '1 MB', or 'off')
  config error: revlogperf.mmap-data-threshold is not a byte quantity ('banana')
  (use a size such as '4k' or '1 MB', or 'off')
  config error: revlogperf.mmap-filelogs is not a boolean ('banana')
  (use 'yes' or 'no')
  config error: revlogperf.trace-mmap is not a boolean ('banana')
  (use 'yes' or 'no')
  config error: revlogperf.fast-decompress is not a boolean ('banana')
  (use 'yes' or 'no')
  [30]
  $ hg -R base log -l 1 -T '{rev}\n' --config experimental.mmapindexthreshold=banana
  config error: experimental.mmapindexthreshold is not a byte quantity ('banana')
  (use a size such as '4k' or '1 MB', or 'off')
  [30]
  $ hg -R base log -l 1 -T '{rev}\n' --config revlogperf.mmap-data-budget=many
  config error: revlogperf.mmap-data-budget is not a valid integer ('many')
  (use a number of files such as '64')
  [30]
  $ hg -R base log -l 1 -T '{rev}\n' --config storage.revlog.mmap.index=maybe
  config error: storage.revlog.mmap.index is not a boolean ('maybe')
  (use 'yes' or 'no')
  [30]
  $ hg -R base log -l 1 -T '{rev}\n' --config experimental.mmapindexthreshold=-1
  config error: experimental.mmapindexthreshold must not be negative ('-1')
  (use a size such as '4k' or '1 MB', or 'off')
  [30]
  $ hg -R base perf::revlog-tip -c --config perf.stub=banana
  config error: perf.stub is not a boolean ('banana')
  [30]
