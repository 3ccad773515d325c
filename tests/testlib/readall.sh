# readall REPO [--config ...]: every read command on REPO, in one process
# (see readall.py); shows only the outcomes that are not a Mercurial error
# naming the revlog
readall() {
  hg --config extensions.readall="$TESTDIR/testlib/readall.py" \
    debugreadall "$@"
}
