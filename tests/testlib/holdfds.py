"""holdfds.py REPO [--config section.name=value]...: read every filelog of
REPO with revlogperf loaded and the cycle collector off, keep them all,
then drop them; say how many data files stay mapped and whether the open
file descriptors stay within the budget"""

import gc
import os
import sys

from mercurial import extensions, hg, ui as uimod


def open_fds():
    return len(os.listdir('/proc/self/fd'))


def main(path, overrides):
    gc.disable()
    ui = uimod.ui.load()
    ui.setconfig(b'devel', b'all-warnings', b'no')
    for item in overrides:
        name, value = item.split('=', 1)
        section, key = name.split('.', 1)
        ui.setconfig(section.encode(), key.encode(), value.encode())
    extensions.loadall(ui)
    mmapdata = sys.modules[
        extensions.find(b'revlogperf').__name__ + '.mmapdata'
    ]
    repo = hg.repository(ui, path.encode())
    budget = ui.configint(b'revlogperf', b'mmap-data-budget')
    files = sorted(repo[b'tip'].manifest())
    # the changelog's and the manifest's maps are there from here on
    before = open_fds()
    kept = []
    for f in files:
        fl = repo.file(f)
        fl.revision(0)
        kept.append(fl)
    within = open_fds() <= before + budget
    print(
        '%d filelogs read and kept: %d data maps, descriptors %s the budget'
        % (len(kept), mmapdata.live_maps(), 'within' if within else 'over')
    )
    del kept, fl
    after = open_fds()
    print(
        'dropped: %d data maps, descriptors %s'
        % (
            mmapdata.live_maps(),
            'as before' if after <= before else '%d more' % (after - before),
        )
    )


if __name__ == '__main__':
    args = sys.argv[1:]
    main(args[0], [a for a in args[1:] if a != '--config'])
