# holdmaps.py - a reader that holds revlog indexes mapped while others write
#
# hg debugholdmaps SYNCDIR FILE waits for SYNCDIR/map, reads every index
# entry and the first revision of the changelog, the manifest and FILE's
# filelog (mapped where the configured thresholds say so), creates
# SYNCDIR/mapped, waits for SYNCDIR/go, and reads every entry and every
# revision: if a writer truncated a mapped file in place meanwhile, that
# second read dies of SIGBUS.

import os
import time

from mercurial import registrar

cmdtable = {}
command = registrar.command(cmdtable)

TIMEOUT = 60


def wait_for(path):
    deadline = time.time() + TIMEOUT
    while not os.path.exists(path):
        if time.time() > deadline:
            raise SystemExit('holdmaps: timed out waiting for %s' % path)
        time.sleep(0.01)


def read_entries(rl, count, revisions):
    for rev in range(count):
        rl.node(rev)
        rl.parentrevs(rev)
    for rev in revisions:
        rl.revision(rev)


@command(b'debugholdmaps', [], b'SYNCDIR FILE', norepo=False)
def debugholdmaps(ui, repo, syncdir, path):
    syncdir = syncdir.decode()
    wait_for(os.path.join(syncdir, 'map'))
    repo = repo.unfiltered()
    revlogs = [
        (b'changelog', repo.changelog),
        (b'manifest', repo.manifestlog.getstorage(b'')),
        (b'filelog', repo.file(path)),
    ]
    counts = [(name, rl, len(rl)) for name, rl in revlogs]
    for name, rl, count in counts:
        read_entries(rl, count, [0])
    with open(os.path.join(syncdir, 'mapped'), 'w'):
        pass  # the writer waits for this file
    wait_for(os.path.join(syncdir, 'go'))
    for name, rl, count in counts:
        read_entries(rl, count, range(count))
        ui.writenoi18n(b'read %d %s revisions\n' % (count, name))
