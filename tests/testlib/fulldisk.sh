# fulldisk.sh DIR COMMAND...: in a private mount namespace, a 40 MB tmpfs on
# DIR holding a copy of the repository "full" (an 8 MB file, then 50 KB
# added by the last commit), filled up to 600 KB free; then COMMAND in it,
# then verify and recover. The mount goes with the namespace.
set -u
dir=$1
shift
exec unshare -m sh -c '
  dir=$1; shift
  mount -t tmpfs -o size=40m none "$dir" || exit 1
  cp -a full "$dir/repo"
  cd "$dir/repo"
  free=$(df --output=avail -B1 . | tail -1)
  fallocate -l $((free - 600 * 1024)) "$dir/filler" 2>/dev/null ||
    dd if=/dev/zero of="$dir/filler" bs=1024 count=$((free / 1024 - 600)) 2> /dev/null
  "$@" && echo ok || echo failed
  hg verify -q; echo "verify: [$?]"
  hg recover -q 2>&1; echo "recover: [$?]"
' fulldisk "$dir" "$@"
