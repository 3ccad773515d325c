# holdfds.py - hg debugholdfds: read every filelog of the repository and
# keep them all, with the cycle collector off, then drop them; say how many
# data files stay mapped and whether the open file descriptors stay within
# revlogperf.mmap-data-budget

import gc
import importlib
import os

from mercurial import extensions, registrar

cmdtable = {}
command = registrar.command(cmdtable)


def open_fds():
    return len(os.listdir('/proc/self/fd'))


@command(b'debugholdfds', [], norepo=False)
def holdfds(ui, repo):
    gc.disable()
    revlogperf = extensions.find(b'revlogperf')
    mmapdata = importlib.import_module(revlogperf.__name__ + '.mmapdata')
    budget = ui.configint(b'revlogperf', b'mmap-data-budget')
    files = sorted(repo[b'tip'].manifest())
    # the changelog's and the manifest's maps are there from here on
    before = open_fds()
    kept = []
    for f in files:
        fl = repo.file(f)
        for rev in fl:  # a revlog is mapped from its second chunk
            fl.revision(rev)
        kept.append(fl)
    within = open_fds() <= before + budget
    ui.writenoi18n(
        b'%d filelogs read and kept: %d data maps, descriptors %s the budget\n'
        % (len(kept), mmapdata.live_maps(), b'within' if within else b'over')
    )
    del kept, fl
    after = open_fds()
    ui.writenoi18n(
        b'dropped: %d data maps, descriptors %s\n'
        % (
            mmapdata.live_maps(),
            b'as before' if after <= before else b'%d more' % (after - before),
        )
    )
