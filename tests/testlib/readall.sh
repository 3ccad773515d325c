# readall REPO [--config ...]: every read command on REPO, in one process
# (see readall.py); shows only the outcomes that are not a Mercurial error
# naming the revlog
readall() {
  hg --config extensions.readall="$TESTDIR/testlib/readall.py" \
    debugreadall "$@"
}

# readall_unprivileged REPO [--config ...]: the same, where a file's mode
# is obeyed: as root, without the capabilities that let root read any file
# (hghave deny-read)
readall_unprivileged() {
  unprivileged=
  if [ "$(id -u)" = 0 ]; then
    unprivileged="setpriv --bounding-set=-dac_override,-dac_read_search"
  fi
  $unprivileged hg --config extensions.readall="$TESTDIR/testlib/readall.py" \
    debugreadall "$@"
}
