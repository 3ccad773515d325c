"""changelog revisions stored whole are read straight from the map, and
give what core's path gives: the text, the revision cache, the errors"""

import os
import shutil
import subprocess
import sys

import pytest

from mercurial import error, extensions, hg, revlog, ui as uimod

from hgext3rd.revlogperf import compat, config

CONTRIB = os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')


def _sample(tmp_path_factory, name, *options):
    # two transactions: 6.3-6.5 then split the changelog out of its index
    path = tmp_path_factory.mktemp(name) / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(CONTRIB, 'mkrepo.py'), str(path)]
        + ['--changesets', '1100', '--files', '6', '-q']
        + list(options),
        check=True,
    )
    return str(path).encode()


@pytest.fixture(scope='module')
def sample(tmp_path_factory):
    return _sample(tmp_path_factory, 'readpath', '--compression', 'zstd')


@pytest.fixture(scope='module')
def legacy(tmp_path_factory):
    # a changelog with delta chains: those revisions are core's to read
    return _sample(tmp_path_factory, 'legacy', '--legacy-changelog')


def _repository(path):
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b'extensions', b'revlogperf', extension)
    ui.setconfig(b'revlogperf', b'mmap-data-threshold', b'1k')
    extensions.loadall(ui)
    return hg.repository(ui, path)


@pytest.fixture
def straight_reads(monkeypatch, sample):
    """the revisions read straight from the map"""
    _repository(sample)
    readpath = sys.modules[
        extensions.find(b'revlogperf').__name__ + '.readpath'
    ]
    read = readpath.read_full_text
    seen = []

    def spy(rl, rev):
        text = read(rl, rev)
        if text is not None:
            seen.append(rev)
        return text

    monkeypatch.setattr(readpath, 'read_full_text', spy)
    return seen


def _core_revisiondata(rl, rev):
    """the text core's own path reads (hotwrap keeps it as _origfunc)"""
    core = revlog.revlog._revisiondata
    while hasattr(core, '_origfunc'):
        core = core._origfunc
    return core(rl, rev)


def test_texts_and_cache_are_core_s(sample, straight_reads):
    cl = _repository(sample).unfiltered().changelog
    revs = list(range(len(cl)))
    # set up (mapped, dispatcher) after a few reads through core's path
    for rev in revs[:20]:
        cl.revision(rev)
    del straight_reads[:]
    for rev in reversed(revs):
        text = cl.changelogrevision(rev)._text
        assert compat.revision_cache(cl) == (rev, text)
        assert text == _core_revisiondata(cl, rev)
    assert straight_reads == list(reversed(revs))
    # the revision in core's cache is core's to give
    cl.revision(5)
    cl.revision(5)
    assert straight_reads[-2:] == [0, 5]


def test_deltas_are_core_s(legacy, straight_reads):
    cl = _repository(legacy).unfiltered().changelog
    texts = [cl.revision(rev) for rev in range(len(cl))]
    assert texts == [_core_revisiondata(cl, rev) for rev in range(len(cl))]
    index = cl.index
    whole = {rev for rev in range(len(cl)) if index[rev][3] == rev}
    assert whole and set(straight_reads) <= whole


def test_a_filtered_revision_raises_as_in_core(sample, tmp_path):
    repo = tmp_path / 'secret'
    shutil.copytree(sample.decode(), repo)
    hgbin = os.path.join(os.path.dirname(sys.executable), 'hg')
    subprocess.run(
        [hgbin, '-R', str(repo), 'phase', '--secret', '--force', '-r', 'tip']
        + ['-q'],
        check=True,
        env={**os.environ, 'HGRCPATH': os.devnull},
    )
    served = _repository(str(repo).encode()).filtered(b'served')
    cl = served.changelog
    for rev in range(len(cl) - 1):
        cl.revision(rev)
    with pytest.raises(error.FilteredIndexError):
        cl.revision(len(served.unfiltered()) - 1)


def test_damage_is_reported_as_core_reports_it(sample, tmp_path):
    repo = tmp_path / 'damaged'
    shutil.copytree(sample.decode(), repo)
    cl = _repository(str(repo).encode()).unfiltered().changelog
    for rev in range(len(cl)):
        cl.revision(rev)
    # a byte of the last revision's stored chunk, changed under the map
    start, length = cl.start(len(cl) - 1), cl.length(len(cl) - 1)
    data = repo / '.hg' / 'store' / '00changelog.d'
    with open(data, 'r+b') as fp:
        fp.seek(start + length // 2)
        byte = fp.read(1)
        fp.seek(start + length // 2)
        fp.write(bytes([byte[0] ^ 0xFF]))
    cl.clearcaches()
    with pytest.raises(error.RevlogError) as straight:
        cl.revision(len(cl) - 1)
    with pytest.raises(error.RevlogError) as core:
        _core_revisiondata(cl, len(cl) - 1)
    assert bytes(straight.value.args[0]) == bytes(core.value.args[0])


def test_the_changelog_reads_through_wrappers_installed_later(legacy):
    # only the changelog's class reads straight: it takes the revlog's
    # method at each read, so another extension's wrapper, installed after
    # revlogperf's, still sees what the changelog reads through core
    cl = _repository(legacy).unfiltered().changelog
    seen = []

    def spying(orig, rl, nodeorrev, *args, **kwargs):
        seen.append((type(rl), nodeorrev))
        return orig(rl, nodeorrev, *args, **kwargs)

    with extensions.wrappedfunction(revlog.revlog, '_revisiondata', spying):
        deltas = [r for r in range(len(cl)) if cl.index[r][3] != r]
        cl.revision(deltas[0])
    assert seen == [(type(cl), deltas[0])]
