# readloop.py - a long-lived reader, as a server is: hg debugreadloop SYNCDIR
# FILE ROUNDS waits for SYNCDIR/roundN, refreshes the repository as a server
# does between requests, prints the tip and FILE's text there, and creates
# SYNCDIR/doneN

import os
import time

from mercurial import registrar

cmdtable = {}
command = registrar.command(cmdtable)


def wait_for(path, timeout=60):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > deadline:
            raise SystemExit('readloop: timed out waiting for %s' % path)
        time.sleep(0.01)


@command(b'debugreadloop', [], b'SYNCDIR FILE ROUNDS')
def debugreadloop(ui, repo, syncdir, path, rounds):
    syncdir = syncdir.decode()
    for round in range(int(rounds)):
        wait_for(os.path.join(syncdir, 'round%d' % round))
        repo.invalidate()
        tip = repo[b'tip']
        text = tip[path].data().splitlines()[-1]
        ui.writenoi18n(
            b'round %d: tip %d, %s ends with %s\n'
            % (round, tip.rev(), path, text)
        )
        ui.flush()
        with open(os.path.join(syncdir, 'done%d' % round), 'w'):
            pass  # the writer waits for this file
