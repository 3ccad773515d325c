# holdmaps.py - a reader that holds revlog indexes mapped while others write
#
# hg debugholdmaps SYNCDIR FILE waits for SYNCDIR/map, reads every index
# entry and the first revision of the changelog, the manifest and FILE's
# filelog (mapped where the configured thresholds say so), creates
# SYNCDIR/mapped, waits for SYNCDIR/go, and reads every entry and every
# revision: if a writer truncated a mapped file in place meanwhile, that
# second read dies of SIGBUS.

import os

from mercurial import registrar
from mercurial.testing import wait_file, write_file

cmdtable = {}
command = registrar.command(cmdtable)

TIMEOUT = 60


def read_entries(rl, count, revisions):
    for rev in range(count):
        rl.node(rev)
        rl.parentrevs(rev)
    for rev in revisions:
        rl.revision(rev)


@command(b'debugholdmaps', [], b'SYNCDIR FILE', norepo=False)
def debugholdmaps(ui, repo, syncdir, path):
    wait_file(os.path.join(syncdir, b'map'), TIMEOUT)
    repo = repo.unfiltered()
    revlogs = [
        (b'changelog', repo.changelog),
        (b'manifest', repo.manifestlog.getstorage(b'')),
        (b'filelog', repo.file(path)),
    ]
    counts = [(name, rl, len(rl)) for name, rl in revlogs]
    for name, rl, count in counts:
        read_entries(rl, count, [0])
    write_file(os.path.join(syncdir, b'mapped'))
    wait_file(os.path.join(syncdir, b'go'), TIMEOUT)
    for name, rl, count in counts:
        read_entries(rl, count, range(count))
        ui.writenoi18n(b'read %d %s revisions\n' % (count, name))
