hg perf::revlog-* commands
==========================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ cat >> $HGRCPATH << EOF
  > [perf]
  > stub = yes
  > presleep = 0
  > EOF

  $ hg init repo
  $ cd repo
  $ for i in `$RUNTESTDIR/seq.py 1 20`; do
  >   echo "line $i" >> file
  >   hg commit -qAm "change $i"
  > done

Every command runs once under perf.stub, on the changelog, the manifest and a
filelog

  $ for cmd in open index tip sample decompress; do
  >   for target in -c -m file; do
  >     hg perf::revlog-$cmd $target || echo "$cmd $target failed"
  >   done
  > done
  $ hg perf::revlog-index -c --memory
  ! memory
  ! peak \d+ bytes, retained \d+ bytes, 20 entries, [0-9.]+ bytes per entry (re)
  ! (the index keeps none of the entries it built) (?)
  $ hg perf::revlog-sample -c --count 5 --seed 3

Timings, as contrib/perf.py prints them (on stderr)

  $ hg perf::revlog-tip -c --config perf.stub=no --config perf.run-limits=0.01-2 \
  >   --config perf.all-timing=no 2>/dev/null
  $ hg perf::revlog-tip -c --config perf.stub=no --config perf.run-limits=0.01-2 \
  >   --config perf.all-timing=no
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(best of \d+\) (re)
  $ hg perf::revlog-decompress -m --config perf.stub=no \
  >   --config perf.run-limits=0.01-2
  ! chunk
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(best of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(max of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(avg of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(median of \d+\) (re)
  ! chunk batch
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(best of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(max of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(avg of \d+\) (re)
  ! wall [0-9.]+ comb [0-9.]+ user [0-9.]+ sys [0-9.]+ \(median of \d+\) (re)

-T json

  $ hg perf::revlog-open -c --config perf.stub=no --config perf.run-limits=0.01-2 \
  >   --config perf.all-timing=no -T json 2>&1 | sed -E 's/[0-9]+\.[0-9e-]+/N/'
  [
   {
    "comb": N,
    "count": \d+, (re)
    "sys": *, (glob)
    "user": *, (glob)
    "wall": * (glob)
   }
  ]
  $ hg perf::revlog-index -c --memory -T json
  [
   {
    "entries": 20,
    "peak": \d+, (re)
    "perentry": [0-9.]+, (re)
    "retained": \d+, (re)
    "title": "memory"
   }
  ]

The suite, and a comparison of settings

  $ hg perf::revlog-suite -c
  median of 1 round; ms per run, each the best of 1 x 1 runs
  task      current
  open      \s*[0-9.]+ (re)
  index     \s*[0-9.]+ (re)
  tip       \s*[0-9.]+ (re)
  sample    \s*[0-9.]+ (re)
  $ hg perf::revlog-suite -m --compare 'revlogperf.mmap-index-threshold=0' \
  >   --compare 'revlogperf.fast-decompress=no revlogperf.mmap-filelogs=no'
  median of 1 round; ms per run, each the best of 1 x 1 runs
  task      current  current again (A/A)  revlogperf.mmap-index-threshold=0  revlogperf.fast-decompress=no revlogperf.mmap-filelogs=no
  open      \s*[0-9.]+ \s*[0-9.]+ \([0-9.]+ \) \s*[0-9.]+ \([0-9.]+[ ~]\) \s*[0-9.]+ \([0-9.]+[ ~]\) (re)
  index     \s*[0-9.]+ \s*[0-9.]+ \([0-9.]+ \) \s*[0-9.]+ \([0-9.]+[ ~]\) \s*[0-9.]+ \([0-9.]+[ ~]\) (re)
  tip       \s*[0-9.]+ \s*[0-9.]+ \([0-9.]+ \) \s*[0-9.]+ \([0-9.]+[ ~]\) \s*[0-9.]+ \([0-9.]+[ ~]\) (re)
  sample    \s*[0-9.]+ \s*[0-9.]+ \([0-9.]+ \) \s*[0-9.]+ \([0-9.]+[ ~]\) \s*[0-9.]+ \([0-9.]+[ ~]\) (re)
  ~: within the noise (its rounds fall on both sides of 1.00, or no further from it than A/A's furthest round) (?)

The settings reach the reopened repository: tracing shows the mmap

  $ hg perf::revlog-suite -c --compare 'revlogperf.mmap-index-threshold=0 revlogperf.trace-mmap=yes' 2>&1 | grep mmapping | sort -u
  mmapping $TESTTMP/repo/.hg/store/00changelog.i

  $ hg perf::revlog-suite -c -T json | "$PYTHON" -c '
  > import json, sys
  > rows = json.load(sys.stdin)
  > print([r["task"] for r in rows], [r["settings"] for r in rows][0], [r["ratio"] for r in rows][0])'
  ['open', 'index', 'tip', 'sample'] ['current'] [1.0]
  $ hg perf::revlog-suite -c --compare revlogperf.fast-decompress=no -T json | "$PYTHON" -c '
  > import json, sys
  > row = json.load(sys.stdin)[0]
  > print(row["settings"], row["unit"], len(row["median"]), row["within_noise"][:2])'
  ['current', 'current again (A/A)', 'revlogperf.fast-decompress=no'] seconds per run 3 [False, False]

Both perf extensions load together: no name collides

  $ hg perf::revlog-tip -c --config extensions.perf="$RUNTESTDIR/../contrib/perf.py"
  $ hg perfrevlogindex -c --config extensions.perf="$RUNTESTDIR/../contrib/perf.py" > /dev/null 2>&1

Bad arguments
-------------

  $ hg perf::revlog-tip -c -m
  abort: cannot specify --changelog and --manifest at the same time
  [10]
  $ hg perf::revlog-tip no-such-file
  abort: revlog 'no-such-file' not found
  [10]
  $ hg perf::revlog-tip > usage 2>&1
  [10]
  $ head -2 usage
  hg perf::revlog-tip: invalid arguments
  hg perf::revlog-tip [-c|-m|FILE]
  $ hg perf::revlog-sample -c --count 0
  abort: --count must be at least 1
  [10]
  $ hg perf::revlog-suite -c --compare nonsense
  abort: --compare: expected section.name=value, got 'nonsense'
  [10]

A misspelt revlogperf option is an error, not the default configuration
under another name

  $ hg perf::revlog-suite -c --compare revlogperf.mmap-index-treshold=off
  abort: --compare: unknown option 'revlogperf.mmap-index-treshold'
  (did you mean 'revlogperf.mmap-index-threshold'?)
  [10]
  $ hg perf::revlog-suite -c --compare revlogperf.speed=max
  abort: --compare: unknown option 'revlogperf.speed'
  (revlogperf options: fast-decompress, mmap-data-budget, mmap-data-threshold, mmap-filelogs, mmap-index-threshold, trace-mmap, walk-cache)
  [10]

and so is any key that neither Mercurial nor a loaded extension registers,
while a registered one of core's is taken

  $ hg perf::revlog-suite -c --compare experimental.mmapindextreshold=0
  abort: --compare: unknown option 'experimental.mmapindextreshold'
  (did you mean 'experimental.mmapindexthreshold'?)
  [10]
  $ hg perf::revlog-suite -c --compare experimentl.mmapindexthreshold=0
  abort: --compare: unknown option 'experimentl.mmapindexthreshold'
  (did you mean 'experimental.mmapindexthreshold'?)
  [10]
  $ hg perf::revlog-suite -c --compare nosuchsection.nosuchname=0
  abort: --compare: unknown option 'nosuchsection.nosuchname'
  (neither Mercurial nor a loaded extension registers it: check its spelling)
  [10]
  $ hg perf::revlog-suite -c --compare experimental.mmapindexthreshold=0 | head -1
  median of 1 round; ms per run, each the best of 1 x 1 runs
  $ hg perf::revlog-suite -c --rounds 0
  abort: --rounds must be at least 1
  [10]
  $ hg perf::revlog-open -c --config perf.presleep=soon --config perf.stub=no
  config error: perf.presleep is not an integer ('soon')
  [30]
  $ cd ..
  $ hg init empty
  $ hg -R empty perf::revlog-open -c
  abort: perf::revlog-open: the repository is empty, there is nothing to measure
  [255]
