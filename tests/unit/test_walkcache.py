"""the walk cache keeps filelogs whose index is mapped within the budget:
each such map holds a descriptor as long as its filelog lives"""

import os
import subprocess
import sys

import pytest

from mercurial import extensions, hg, ui as uimod

from hgext3rd.revlogperf import config, mmapdata, walkcache

HG = os.path.join(os.path.dirname(sys.executable), 'hg')
FILES = ['f%d' % i for i in range(6)]


def _sample(tmp_path, changesets, files):
    """a repository made by contrib/mkrepo.py"""
    path = tmp_path / 'repo'
    mkrepo = os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')
    subprocess.run(
        [sys.executable, os.path.join(mkrepo, 'mkrepo.py'), str(path)]
        + ['--changesets', str(changesets), '--files', str(files), '-q'],
        check=True,
    )
    return str(path).encode()


def _with_revlogperf(**settings):
    """a ui with revlogperf loaded and ``settings`` in its section"""
    ui = uimod.ui.load()
    extension = os.path.dirname(config.__file__).encode()
    ui.setconfig(b'extensions', b'revlogperf', extension)
    for name, value in settings.items():
        ui.setconfig(b'revlogperf', name.replace('_', '-').encode(), value)
    extensions.loadall(ui)
    return ui


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_filelogs_with_mapped_indexes_stay_within_the_budget(tmp_path, command):
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
    ui = _with_revlogperf(mmap_index_threshold=b'1k', mmap_data_budget=b'2')
    repo = command(hg.repository(ui, str(path).encode()))
    texts = [repo.file(name.encode()).read(repo.file(name.encode()).node(0))]
    for name in FILES:
        fl = repo.file(name.encode())
        texts.append(fl.read(fl.node(19)))
        assert fl._revlog.revlogperf_mapped_index
    walk = walkcache.walk_of(repo)
    assert len(walk.mapped) == 2  # the two used last
    filelogs = [key for key in walk.kept if isinstance(key, bytes)]
    assert sorted(filelogs) == sorted(walk.mapped)
    assert repo.file(FILES[-1].encode()) is repo.file(FILES[-1].encode())
    assert texts[-1] == b'f5 19\n'


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_a_replaced_repository_lets_go_of_its_maps(tmp_path):
    # hgweb's cachedlocalrepo makes a new repository when the store
    # changed; the old one would hold its maps until the cycle collector
    # runs, and those of files a writer replaced are the process's pages
    from hgext3rd.revlogperf import compat

    path = _sample(tmp_path, 1200, 20)
    ui = _with_revlogperf(mmap_data_threshold=b'1k')
    cached = hg.cachedlocalrepo(hg.repository(ui, path))
    old, created = cached.fetch()
    for rev in (0, 1, 2):
        old.changelog.revision(rev)
    segment = compat.chunk_owner(old.changelog)._segmentfile
    assert segment._view is not None  # mapped
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    for args in (['update', '-q', '-r', 'tip'], ['tag', '-q', 'v1']):
        subprocess.run([HG, '-R', path] + args, check=True, env=env)
    new, created = cached.fetch()
    assert created and new is not old
    assert segment._view is None  # let go at once
    old.changelog.clearcaches()
    assert old.changelog.revision(2)  # still readable: mapped again
    assert segment._view is not None


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_filelogs_and_texts_stay_within_the_bound(tmp_path, command):
    # a filelog costs what it holds: its index, its chunk cache and its
    # cached text, costed again while it is read
    from hgext3rd.revlogperf import compat

    path = _sample(tmp_path, 300, 40)
    repo = command(hg.repository(_with_revlogperf(walk_cache=b'256k'), path))
    walk = None
    for rev in range(len(repo) - 1, len(repo) - 101, -1):
        ctx = repo[rev]
        for name in ctx.files():
            if name in ctx:
                ctx[name].data()
        walk = walkcache.walk_of(repo)
        assert walk.kept.totalcost <= 256 * 1024
    kept = [walk.kept.peek(key) for key in walk.kept if isinstance(key, bytes)]
    assert kept
    for fl in kept:
        cache = compat.chunk_cache(compat.chunk_owner(fl._revlog))
        held = len(fl) * walkcache.INDEX_ENTRY_SIZE + walkcache.FILELOG_SIZE
        if cache is not None:
            held += cache.totalcost
        assert walkcache._held(fl) >= held
    # read further, then ask for as many others as are costed again: the
    # first is costed again
    first = kept[0]
    path0 = [key for key in walk.kept if walk.kept.peek(key) is first][0]
    repo.file(path0)
    for node in [first.node(r) for r in range(len(first))]:
        first.revision(node)
    others = [
        name
        for name in repo[b'tip'].manifest()
        if name != path0 and name not in walk.recent
    ]
    for name in others[: walkcache.RECOSTED]:
        repo.file(name)
    assert walk.kept._cache[path0].cost == walkcache._held(first)


@pytest.mark.skipif(
    not mmapdata._CAN_LET_PAGES_GO, reason='Linux and Python 3.8+ only'
)
def test_an_hgweb_worker_holds_no_page_of_its_maps_between_requests(
    tmp_path,
):
    import io
    import wsgiref.util

    from mercurial.hgweb import hgweb_mod

    from test_mmapdata import resident_bytes

    path = _sample(tmp_path, 1200, 20)
    ui = _with_revlogperf(mmap_data_threshold=b'1k')
    app = hgweb_mod.hgweb(hg.repository(ui, path))
    environ = {'PATH_INFO': '/log', 'REQUEST_METHOD': 'GET'}
    environ['wsgi.input'] = io.BytesIO()
    wsgiref.util.setup_testing_defaults(environ)
    body = b''.join(app(environ, lambda status, headers: None))
    assert b'changeset' in body
    loaded = sys.modules[extensions.find(b'revlogperf').__name__ + '.mmapdata']
    assert loaded.live_maps() > 0
    changelog = os.path.join(path.decode(), '.hg', 'store', '00changelog.d')
    assert resident_bytes(changelog) == 0


def test_a_filelog_whose_texts_are_not_read_again_stops_keeping_them(
    tmp_path, command
):
    """annotate reads each revision once, through one filelog: the walk
    would fill its bound with texts no one reads again"""
    path = _sample(tmp_path, 300, 10)
    repo = command(hg.repository(_with_revlogperf(), path))
    name = max(repo[b'tip'].manifest(), key=lambda f: len(repo.file(f)))
    fl = repo.file(name)
    walk = walkcache.walk_of(repo)
    assert len(fl) > walkcache.ON_TRIAL + 10
    texts = lambda: [k for k in walk.kept if isinstance(k, tuple)]
    for node in [fl.node(rev) for rev in range(len(fl))]:
        fl.revision(node)
    assert len(texts()) == walkcache.ON_TRIAL

    def read_in(repo, nodes):
        command(repo)
        repo.changelog
        fl = repo.file(name)
        for node in nodes(fl):
            fl.revision(node)
        return walkcache.walk_of(repo)

    # one text read again early (6.3.3's annotate) does not keep the rest
    walk = read_in(
        hg.repository(_with_revlogperf(), path),
        lambda fl: [fl.node(0)] + [fl.node(rev) for rev in range(len(fl))],
    )
    assert len(texts()) == walkcache.ON_TRIAL
    # a filelog whose texts are read again as often as new ones are (the
    # parent side of log -p, diff) keeps them all
    walk = read_in(
        hg.repository(_with_revlogperf(), path),
        lambda fl: [fl.node(rev // 2) for rev in range(2 * len(fl))],
    )
    assert len(texts()) == len(fl)


def test_a_walk_whose_texts_are_not_read_again_stops_keeping_them(
    tmp_path, monkeypatch, command
):
    """verify reads the first text of each file, and none again: past the
    walk's trial, a filelog on trial keeps no more; one whose own texts
    are read again keeps them, and so does a walk whose texts are"""
    path = _sample(tmp_path, 40, 12)
    repo = command(hg.repository(_with_revlogperf(), path))
    # the extension as loaded reads its filelogs
    loaded = sys.modules[extensions.find(b'revlogperf').__name__ + '.walkcache']
    monkeypatch.setattr(loaded, 'TEXTS_ON_TRIAL', 4)
    names = sorted(repo[b'tip'].manifest())
    assert len(names) > 8
    walk = walkcache.walk_of(repo)
    texts = lambda: {k for k in walk.kept if isinstance(k, tuple)}
    first = lambda name: (name, repo.file(name).node(0))
    for name in names[:8]:
        repo.file(name).revision(first(name)[1])
    assert texts() == {first(name) for name in names[:4]}
    # a file read again as often as new: its own texts are kept
    fl = repo.file(names[0])
    # by node: the walk keeps texts by node
    nodes = [fl.node(0), fl.node(1)]
    for node in nodes:
        fl.revision(node)
    assert (names[0], nodes[1]) in texts()
    # the walk's texts read again half as often as new ones: kept again
    for name in names[1:4]:
        for _ in range(2):
            repo.file(name).revision(first(name)[1])
    assert walk.texts_read == [7, 9]
    repo.file(names[8]).revision(first(names[8])[1])
    assert first(names[8]) in texts()


def test_filelogs_no_one_asks_for_again_are_not_kept(
    tmp_path, monkeypatch, command
):
    """update asks for each file once, verify for few of them again: a walk
    keeps a trial's worth of filelogs, then new ones while files are asked
    for again often enough; the texts of a filelog not kept are kept (diff
    reads each side twice)"""
    monkeypatch.setattr(walkcache, 'FILELOGS_ON_TRIAL', 4)
    path = _sample(tmp_path, 40, 12)
    repo = command(hg.repository(_with_revlogperf(), path))
    names = sorted(repo[b'tip'].manifest())
    assert len(names) > 8
    walk = walkcache.walk_of(repo)
    kept = lambda: {k for k in walk.kept if isinstance(k, bytes)}
    for name in names[:8]:
        fl = repo.file(name)
        node = fl.node(len(fl) - 1)
        fl.revision(node)
        assert walk.kept.peek((name, node), None) is not None
    assert kept() == set(names[:4])
    # 8 files asked for, 1 again, 2 again: not enough
    repo.file(names[0])
    repo.file(names[6])
    assert kept() == set(names[:4])
    # 3 again and 4 again: half of them, from then on worth keeping
    repo.file(names[1])
    again = repo.file(names[7])
    assert kept() == set(names[:4]) | {names[7]}
    assert repo.file(names[7]) is again
    repo.file(names[8])
    assert names[8] in kept()
    assert (len(walk.asked), walk.asked_again) == (9, 5)


def test_the_heap_is_looked_at_each_eighth_of_the_bound_kept(monkeypatch):
    looked = []
    monkeypatch.setattr(mmapdata, 'give_back_heap_gaps', looked.append)
    walk = walkcache._Walk(None, 16 << 20, 64)
    bound = walk.kept.maxcost
    for _ in range(walkcache.LOOK_AT_GAPS * 2):
        walk.count_kept(bound // walkcache.LOOK_AT_GAPS // 2 + 1)
    # every second count went past an eighth
    assert looked == [bound // walkcache.HEAP_GAPS] * walkcache.LOOK_AT_GAPS
    assert bound == walkcache.kept_within(16 << 20) < 16 << 20
