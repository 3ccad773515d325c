Changelogs without delta chains: the report, the guarantee, the repair
=======================================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ LEGACY="--config extensions.legacy=$TESTDIR/testlib/legacychangelog.py"
  $ OFF="--config extensions.revlogperf=!"
  $ report() {
  >   hg debug-revlog-storage -T '{kind} {revisions} full={full} delta={delta} max-chain={chain_max}\n' "$@"
  > }

A changelog written as Mercurial did before 4.2, with delta chains

  $ hg init legacy $OFF
  $ cd legacy
  $ for i in `$RUNTESTDIR/seq.py 1 40`; do
  >   echo "line $i" >> file
  >   hg commit -qAm "change $i: a message that looks much like the others" $LEGACY $OFF
  > done
  $ report -R . | head -1
  changelog 40 full=* delta=* max-chain=* (glob)

The report shows the deltas and names the repair

  $ hg debug-revlog-storage | grep -v '^filelogs\|^manifest'
  revlog    revisions        index         data  full% delta%  chain   max  chunks
  changelog +40 +\d+ +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +\d+  (zlib|zstd):40 (re)
  changelog: 0 of 1 indexes mmapped (1 below 1.00 MB)
  the changelog stores * revisions (*%) as deltas: it reads faster without, rewrite it with (glob)
    hg debugupgraderepo --optimize re-delta-all --changelog --run
  $ hg log --debug > ../log-before
  $ hg log -T '{node}\n' > ../nodes-before

The repair is Mercurial's own upgrade; it keeps a backup

  $ hg debugupgraderepo --optimize re-delta-all --changelog --run -q > /dev/null
  $ ls -d .hg/upgradebackup.*
  .hg/upgradebackup.* (glob)
  $ report | head -1
  changelog 40 full=40 delta=0 max-chain=1
  $ hg debug-revlog-storage | grep 'rewrite'
  [1]

Nothing else changed: node ids, the debug log, verify

  $ hg log --debug | cmp - ../log-before
  $ hg log -T '{node}\n' | cmp - ../nodes-before
  $ hg verify -q
  $ cd ..

The guarantee: every changelog revision written with the extension is a full
text, whatever the source holds
-----------------------------------------------------------------------------

  $ hg init legacy2 $OFF
  $ cd legacy2
  $ for i in `$RUNTESTDIR/seq.py 1 20`; do
  >   echo "line $i" >> file
  >   hg commit -qAm "change $i: a message that looks much like the others" $LEGACY $OFF
  > done
  $ report | head -1
  changelog 20 full=* delta=* max-chain=* (glob)
  $ cd ..

commit

  $ hg clone -q --pull legacy2 target
  $ cd target
  $ for i in `$RUNTESTDIR/seq.py 1 5`; do echo $i > new; hg commit -qAm "new $i"; done
  $ report | head -1
  changelog 25 full=25 delta=0 max-chain=1
  $ cd ..

pull, even when asked to reuse the source's deltas

  $ hg init pulled
  $ hg -R pulled pull -q legacy2 --config paths.default:pulled-delta-reuse-policy=forced
  $ report -R pulled | head -1
  changelog 20 full=20 delta=0 max-chain=1

unbundle

  $ hg -R legacy2 bundle -q --all all.hg $OFF
  $ hg init unbundled
  $ hg -R unbundled unbundle -q all.hg
  $ report -R unbundled | head -1
  changelog 20 full=20 delta=0 max-chain=1

clone --pull (above), while a clone by copy keeps the source's storage as it is

  $ hg clone -q legacy2 copied
  $ report -R copied | head -1
  changelog 20 full=\d+ delta=[1-9]\d* max-chain=\d+ (re)

The report's JSON
-----------------

  $ hg init empty
  $ hg -R empty debug-revlog-storage -T json
  [
   {
    "chain_average": 0.0,
    "chain_max": 0,
    "chunks": {},
    "data_size": 0,
    "delta": 0,
    "delta_percent": 0.0,
    "full": 0,
    "full_percent": 0.0,
    "index_size": 0,
    "kind": "changelog",
    "mmapped": 0,
    "revisions": 0,
    "revlogs": 1
   },
   {
    "chain_average": 0.0,
    "chain_max": 0,
    "chunks": {},
    "data_size": 0,
    "delta": 0,
    "delta_percent": 0.0,
    "full": 0,
    "full_percent": 0.0,
    "index_size": 0,
    "kind": "manifest",
    "mmapped": 0,
    "revisions": 0,
    "revlogs": 1
   },
   {
    "chain_average": 0.0,
    "chain_max": 0,
    "chunks": {},
    "data_size": 0,
    "delta": 0,
    "delta_percent": 0.0,
    "full": 0,
    "full_percent": 0.0,
    "index_size": 0,
    "kind": "filelogs",
    "mmapped": 0,
    "revisions": 0,
    "revlogs": 0
   }
  ]
  $ hg -R target debug-revlog-storage -T json --config revlogperf.mmap-index-threshold=0 \
  >   | "$PYTHON" -c '
  > import json, sys
  > for r in json.load(sys.stdin):
  >     print(r["kind"], r["revisions"], r["revlogs"], r["mmapped"], sum(r["chunks"].values()))'
  changelog 25 1 1 25
  manifest 25 1 1 25
  filelogs 25 2 2 25
