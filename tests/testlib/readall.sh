# readall REPO [OPTIONS]: run every read command on REPO; say nothing of a
# command that succeeds or fails with a Mercurial error naming the revlog,
# and show any other outcome: a traceback, or a message naming no revlog
readall() {
  repo=$1
  shift
  for cmd in "log -T {rev}" "log -p" "cat -r tip big" "verify -q" \
             "debug-revlog-storage" "perf::revlog-tip -c" \
             "perf::revlog-sample -m" "perf::revlog-decompress big"; do
    hg -R "$repo" $cmd "$@" > out 2>&1
    rc=$?
    if grep -q Traceback out; then
      echo "  $cmd: TRACEBACK"
    elif [ $rc != 0 ] && ! grep -Eq '00changelog|00manifest|big' out; then
      echo "  $cmd: `grep -v '^ ' out | tail -1`"
    fi
  done
}
