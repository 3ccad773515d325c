# readall REPO [--config ...]: every read command on REPO, in one process
# (see readall.py); shows only the outcomes that are not a Mercurial error
# naming the revlog
readall() {
  hg --config extensions.readall="$TESTDIR/testlib/readall.py" \
    debugreadall "$@"
}

# unprivileged COMMAND...: run it where a file's mode is obeyed: as root,
# without the capabilities that let root read any file (hghave deny-read)
unprivileged() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --bounding-set=-dac_override,-dac_read_search "$@"
  else
    "$@"
  fi
}

# readall_unprivileged REPO [--config ...]: readall, unprivileged
readall_unprivileged() {
  unprivileged hg --config extensions.readall="$TESTDIR/testlib/readall.py" \
    debugreadall "$@"
}
