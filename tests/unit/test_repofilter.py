"""a filtered repository's changelog is core's, read without a timer on
releases whose property times every read (hg < 7.2.1)"""

import os
import subprocess
import sys

import pytest

from mercurial import hg, obsolete, repoview, ui as uimod

from hgext3rd.revlogperf import repofilter

HG = os.path.join(os.path.dirname(sys.executable), 'hg')


def core_property():
    """core's own property, whether a revlogperf loaded in this process
    replaced it or not"""
    loaded = [
        module.replaced
        for name, module in list(sys.modules.items())
        if name.endswith('revlogperf.repofilter') and module is not None
    ]
    core = next((prop for prop in loaded if prop is not None), None)
    return core or vars(repoview.repoview)['changelog']


def _repository(tmp_path, changesets):
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    path = tmp_path / 'repo'
    subprocess.run([HG, 'init', str(path)], check=True, env=env)
    for n in range(changesets):
        (path / 'f').write_text('%d\n' % n)
        subprocess.run(
            [HG, '--cwd', str(path), 'commit', '-qAm', str(n)],
            check=True,
            env=env,
        )
    # the working directory's parent is never hidden
    subprocess.run([HG, '-R', str(path), 'update', '-qr', '0'], env=env)
    ui = uimod.ui.load()
    ui.setconfig(b'experimental', b'evolution', b'all')
    return hg.repository(ui, str(path).encode())


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_same_changelog_as_core_as_changesets_are_hidden(tmp_path):
    core = core_property()
    repo = _repository(tmp_path, 6)

    # two views: each keeps the changelog it gave last
    ours_view = repo.unfiltered().filtered(b'visible')
    cores_view = repo.unfiltered().filtered(b'visible')

    def both():
        ours = repofilter._changelog(ours_view)
        cores = core.fget(cores_view)
        assert ours.filteredrevs == cores.filteredrevs
        assert len(ours) == len(cores)
        return ours

    first = both()
    assert both() is first  # kept while nothing changes
    with repo.lock(), repo.transaction(b'hide'):
        obsolete.createmarkers(repo, [(repo[b'tip'], ())], operation=b'test')
    hidden = both()
    assert hidden is not first
    assert repo.unfiltered().changelog.tiprev() in hidden.filteredrevs
    # and with revisions shown despite the filter
    exceptions = repo.filtered(b'visible', {5})
    assert repofilter._changelog(exceptions).filteredrevs == (
        core.fget(exceptions).filteredrevs
    )


def test_installed_only_over_a_timed_core_property(monkeypatch):
    core = core_property()
    monkeypatch.setattr(repoview.repoview, 'changelog', core)
    repofilter.install()
    installed = vars(repoview.repoview)['changelog']
    timed = 'timedcm' in core.fget.__code__.co_names
    assert (installed.fget is repofilter._changelog) == timed
    # another extension's property stays
    theirs = property(lambda repo: core.fget(repo))
    monkeypatch.setattr(repoview.repoview, 'changelog', theirs)
    repofilter.install()
    assert vars(repoview.repoview)['changelog'] is theirs


def test_loading_revlogperf_installs_it_where_core_times_reads(tmp_path):
    core = core_property()
    repo_path = _repository(tmp_path, 1).root
    code = (
        'from mercurial import demandimport; demandimport.enable()\n'
        'from mercurial import extensions, hg, repoview, ui as uimod\n'
        'ui = uimod.ui.load()\n'
        'ui.setconfig(b"extensions", b"revlogperf", %r)\n'
        'extensions.loadall(ui)\n'
        'hg.repository(ui, %r).changelog\n'
        'print(repoview.repoview.changelog.fget.__module__)\n'
    ) % (os.path.dirname(repofilter.__file__).encode(), repo_path)
    out = subprocess.run(
        [sys.executable, '-c', code],
        check=True,
        stdout=subprocess.PIPE,
        env={**os.environ, 'HGRCPATH': ''},
        text=True,
    ).stdout.strip()
    timed = 'timedcm' in core.fget.__code__.co_names
    assert out.endswith('repofilter') == timed
