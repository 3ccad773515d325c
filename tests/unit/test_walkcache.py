"""the walk cache keeps filelogs whose index is mapped within the budget:
each such map holds a descriptor as long as its filelog lives"""

import os
import subprocess
import sys

import pytest

from mercurial import extensions, hg, ui as uimod

from hgext3rd.revlogperf import config, walkcache

HG = os.path.join(os.path.dirname(sys.executable), 'hg')
FILES = ['f%d' % i for i in range(6)]


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_filelogs_with_mapped_indexes_stay_within_the_budget(tmp_path):
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    path = tmp_path / 'repo'
    subprocess.run([HG, 'init', str(path)], check=True, env=env)
    for n in range(20):  # 20 index entries: 1,280 bytes per filelog
        for name in FILES:
            (path / name).write_text('%s %d\n' % (name, n))
        subprocess.run(
            [HG, '--cwd', str(path), 'commit', '-qAm', str(n)],
            check=True,
            env=env,
        )
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b'extensions', b'revlogperf', extension)
    ui.setconfig(b'revlogperf', b'mmap-index-threshold', b'1k')
    ui.setconfig(b'revlogperf', b'mmap-data-budget', b'2')
    extensions.loadall(ui)
    repo = hg.repository(ui, str(path).encode())
    texts = [repo.file(name.encode()).read(repo.file(name.encode()).node(0))]
    for name in FILES:
        fl = repo.file(name.encode())
        texts.append(fl.read(fl.node(19)))
        assert fl._revlog.revlogperf_mapped_index
    walk = walkcache.walk_of(repo)
    assert len(walk.mapped) == 2  # the two used last
    assert len(walk.filelogs) == 0
    assert repo.file(FILES[-1].encode()) is repo.file(FILES[-1].encode())
    assert texts[-1] == b'f5 19\n'
