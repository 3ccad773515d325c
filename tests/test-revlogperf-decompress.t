Chunk decompression through revlogperf's per-revlog dispatcher
===============================================================

  $ . "$TESTDIR/testlib/revlogperf.sh"
  $ LIB="$TESTDIR/testlib"
  $ OFF="--config extensions.revlogperf=!"

Same output with the extension on and off
------------------------------------------

One repository per compression engine, each with every kind of chunk:
compressed, stored as is (``\0``) and uncompressed (``u``)

  $ for engine in zlib zstd; do
  >   hg init $engine --config format.revlog-compression=$engine
  >   cd $engine
  >   for i in 1 2 3; do
  >     MKCHUNKS_SEED=$i "$PYTHON" "$LIB/mkchunks.py" .
  >     hg commit -qAm "revision $i"
  >   done
  >   cd ..
  > done
  $ cat zstd/.hg/requires zstd/.hg/store/requires 2> /dev/null | grep compression
  revlog-compression-zstd
  $ cd zlib
  $ for f in text.txt random.bin zero.bin tiny.txt big.txt; do
  >   echo "$f `"$PYTHON" "$LIB/chunkheaders.py" $f`"; done
  text.txt b'x':3
  random.bin b'u':3
  zero.bin b'\x00':3
  tiny.txt b'u':3
  big.txt b'x':3
  $ ls .hg/store/data/
  big.txt.d
  big.txt.i
  random.bin.i
  text.txt.i
  tiny.txt.i
  zero.bin.i
  $ cd ../zstd
  $ for f in text.txt random.bin zero.bin tiny.txt big.txt; do
  >   echo "$f `"$PYTHON" "$LIB/chunkheaders.py" $f`"; done
  text.txt b'(':3
  random.bin b'u':3
  zero.bin b'\x00':3
  tiny.txt b'u':3
  big.txt b'(':3
  $ "$PYTHON" "$LIB/chunkheaders.py" -c
  b'(':3
  $ cd ..

  $ for repo in zlib zstd; do
  >   for mode in on off; do
  >     if [ $mode = on ]; then opt=; else opt=$OFF; fi
  >     hg -R $repo log -p --git $opt > $repo-log-$mode
  >     hg --cwd $repo cat -r 1 text.txt random.bin zero.bin tiny.txt big.txt $opt > $repo-cat-$mode
  >     hg -R $repo verify $opt > $repo-verify-$mode 2>&1
  >   done
  >   cmp $repo-log-on $repo-log-off && cmp $repo-cat-on $repo-cat-off \
  >     && cmp $repo-verify-on $repo-verify-off && echo "$repo: identical"
  > done
  zlib: identical
  zstd: identical
  $ cat zstd-verify-on
  checking changesets
  checking manifests
  crosschecking files in changesets and manifests
  checking files
  checking dirstate (?)
  checked 3 changesets with 15 changes to 5 files

With fast-decompress off, Mercurial's own code reads the same

  $ hg -R zstd log -p --git --config revlogperf.fast-decompress=no | cmp - zstd-log-on

zstd without a zstd module in Mercurial
----------------------------------------

A build without ``mercurial.zstd`` (pure builds) cannot open the zstd
repository by itself

  $ NOZSTD="--config extensions.nozstd=$LIB/nozstd.py"
  $ hg -R zstd log -l 1 -T '{desc}\n' $NOZSTD $OFF
  abort: repository requires features unknown to this Mercurial: revlog-compression-zstd
  (see https://mercurial-scm.org/wiki/MissingRequirement for more information)
  [255]

With revlogperf, the zstandard package reads it, identically

  $ hg -R zstd log -p --git $NOZSTD | cmp - zstd-log-on
  $ hg -R zstd verify -q $NOZSTD

From 7.2, ``HGZSTDPOLICY`` names the zstd modules Mercurial may use; one the
user set is obeyed, with revlogperf as without it

#if hg72
  $ HGZSTDPOLICY=none hg -R zstd log -l 1 -T '{desc}\n'
  abort: repository requires features unknown to this Mercurial: revlog-compression-zstd
  (see https://mercurial-scm.org/wiki/MissingRequirement for more information)
  [255]
  $ HGZSTDPOLICY=none hg -R zstd log -l 1 -T '{desc}\n' $OFF
  abort: repository requires features unknown to this Mercurial: revlog-compression-zstd
  (see https://mercurial-scm.org/wiki/MissingRequirement for more information)
  [255]
#endif

Damaged chunks are clear errors
-------------------------------

Flip bytes in the middle of a zlib chunk

  $ cp -R zlib damaged
  $ cat > flip.py << EOF
  > import sys
  > path, offset, data = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
  > with open(path, 'r+b') as fp:
  >     fp.seek(offset)
  >     fp.write(data)
  > EOF
  $ "$PYTHON" flip.py damaged/.hg/store/data/big.txt.d 5000 XXXXXXXX
  $ hg --cwd damaged cat -r 0 big.txt
  abort: data/big.txt.d, revision 0: cannot decompress chunk with header 0x78: Error -3 while decompressing data: * (glob)
  (run 'hg verify' to see the damage, then restore the file from a backup or a clone)
  [50]
  $ hg -R damaged verify -q
   big.txt@0: unpacking *: data/big.txt.d, revision 0: cannot decompress chunk with header 0x78: Error -3 while decompressing data: * (glob)
   big.txt@1: unpacking *: data/big.txt.d, revision 0: cannot decompress chunk with header 0x78: Error -3 while decompressing data: * (glob)
   big.txt@2: unpacking *: data/big.txt.d, revision 0: cannot decompress chunk with header 0x78: Error -3 while decompressing data: * (glob)
  not checking dirstate because of previous errors (?)
  3 integrity errors encountered!
  (first damaged changeset appears to be 0)
  [1]

An unknown compression header

  $ cp -R zlib unknown
  $ "$PYTHON" flip.py unknown/.hg/store/data/big.txt.d 0 A
  $ hg --cwd unknown cat -r 0 big.txt
  abort: data/big.txt.d, revision 0: cannot decompress chunk with header 0x41: unknown compression type
  (run 'hg verify' to see the damage, then restore the file from a backup or a clone)
  [50]

Damaged zstd data: in the middle of a frame, the hash check finds it; in the
frame header, zstd does

  $ cp -R zstd damaged-zstd
  $ "$PYTHON" flip.py damaged-zstd/.hg/store/data/big.txt.d 5000 XXXXXXXX
  $ hg --cwd damaged-zstd cat -r 0 big.txt
  abort: integrity check failed on *big.txt:0 (glob)
  [50]
  $ "$PYTHON" flip.py damaged-zstd/.hg/store/data/big.txt.d 4 XXXXXXXX
  $ hg --cwd damaged-zstd cat -r 0 big.txt
  abort: data/big.txt.d, revision 0: cannot decompress chunk with header 0x28: * (glob)
  (run 'hg verify' to see the damage, then restore the file from a backup or a clone)
  [50]

Nothing was changed by reading

  $ cmp zlib/.hg/store/data/big.txt.i damaged/.hg/store/data/big.txt.i
