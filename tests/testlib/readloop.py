# readloop.py - a long-lived reader, as a server is: hg debugreadloop SYNCDIR
# FILE ROUNDS waits for SYNCDIR/roundN, refreshes the repository as a server
# does between requests, prints the tip and FILE's text there, and creates
# SYNCDIR/doneN

import os

from mercurial import registrar
from mercurial.testing import wait_file, write_file

cmdtable = {}
command = registrar.command(cmdtable)


@command(b'debugreadloop', [], b'SYNCDIR FILE ROUNDS')
def debugreadloop(ui, repo, syncdir, path, rounds):
    for round in range(int(rounds)):
        wait_file(os.path.join(syncdir, b'round%d' % round), 60)
        repo.invalidate()
        tip = repo[b'tip']
        text = tip[path].data().splitlines()[-1]
        ui.writenoi18n(
            b'round %d: tip %d, %s ends with %s\n'
            % (round, tip.rev(), path, text)
        )
        ui.flush()
        write_file(os.path.join(syncdir, b'done%d' % round))
