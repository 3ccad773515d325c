"""reads newest first patch from the texts kept along a chain, and read
what core reads"""

import os
import subprocess
import sys

import pytest

from mercurial import extensions, hg, ui as uimod

from hgext3rd.revlogperf import compat, config, walkcache

CONTRIB = os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')


@pytest.fixture(scope='module')
def sample(tmp_path_factory):
    # ChangeLog is edited in every changeset: chains of up to 45 deltas
    path = tmp_path_factory.mktemp('checkpoints') / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(CONTRIB, 'mkrepo.py'), str(path)]
        + ['--changesets', '300', '--files', '10', '--large-filelog', '-q'],
        check=True,
    )
    return str(path).encode()


def _repository(path, walk_cache=b'4 MB'):
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b'extensions', b'revlogperf', extension)
    ui.setconfig(b'revlogperf', b'walk-cache', walk_cache)
    extensions.loadall(ui)
    return path and hg.repository(ui, path)


def _loaded_checkpoints():
    """checkpoints.py as the extension loaded it (hgext_revlogperf.*)"""
    _repository(None)
    return sys.modules[extensions.find(b'revlogperf').__name__ + '.checkpoints']


@pytest.fixture
def starts(monkeypatch):
    """where each read patched from: (revision, place in its chain)"""
    checkpoints = _loaded_checkpoints()
    # a checkpoint every 4 deltas: many of them in a short chain
    monkeypatch.setattr(checkpoints, 'CHECKPOINT_EVERY', 4)
    seen = []
    patch = checkpoints._patch

    def spy(rl, walk, radix, chain, start, text):
        seen.append((chain[-1], start if text is not None else 0))
        return patch(rl, walk, radix, chain, start, text)

    monkeypatch.setattr(checkpoints, '_patch', spy)
    return seen


def _newest_first(store):
    # revision() checks each text against its node: a wrong one raises
    nodes = [store.node(r) for r in reversed(range(len(store)))]
    return [store.revision(node) for node in nodes]


def test_a_file_read_newest_first(sample, starts, command):
    expected = _newest_first(_repository(sample, b'off').file(b'ChangeLog'))
    repo = command(_repository(sample))  # kept: the walk is the repository's
    assert _newest_first(repo.file(b'ChangeLog')) == expected
    assert len(starts) > len(expected) // 2
    assert any(place > 0 for rev, place in starts)  # from a checkpoint


def test_the_manifest_read_newest_first(sample, starts, command):
    core = _repository(sample, b'off').manifestlog.getstorage(b'')
    expected = _newest_first(core)
    repo = command(_repository(sample))
    repo.file(b'ChangeLog')  # the walk starts at the first filelog
    assert _newest_first(repo.manifestlog.getstorage(b'')) == expected
    assert any(place > 0 for rev, place in starts)


def test_nothing_kept_once_the_walk_is_dropped(sample, starts, command):
    repo = command(_repository(sample))
    fl = repo.file(b'ChangeLog')
    _newest_first(fl)
    walkcache.forget(repo)
    del starts[:]
    _newest_first(fl)
    assert starts == []  # core's reads, nothing kept


def test_a_revlog_read_once_is_read_by_core(sample, starts, command):
    repo = command(_repository(sample))
    fl = repo.file(b'ChangeLog')
    tip, before = fl.node(len(fl) - 1), fl.node(len(fl) - 2)
    fl.revision(tip)
    assert starts == []
    fl.revision(before)
    assert starts  # the second read keeps texts along the chain
    assert compat.revision_cache(fl._revlog) is not None


def test_a_revlog_read_oldest_first_is_read_by_core(sample, starts, command):
    """verify reads each revision after the one before: core's own text is
    often in the chain, and looking at the chain first cost it 8%"""

    def chains_looked_at(repo):
        rl = repo.file(b'ChangeLog')._revlog
        looked = []
        deltachain = rl._deltachain
        rl._deltachain = lambda *a, **kw: looked.append(a) or deltachain(
            *a, **kw
        )
        for rev in range(len(rl)):
            rl.revision(rev)
        return len(looked)

    core = chains_looked_at(_repository(sample, b'off'))
    assert chains_looked_at(command(_repository(sample))) == core
    assert starts == []
