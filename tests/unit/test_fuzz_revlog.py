"""random and mutated revlog files, read with revlogperf: the only outcomes
allowed are the right revisions or a Mercurial error"""

import functools
import shutil
import struct
import tempfile

import pathlib
from hypothesis import HealthCheck, given, settings, strategies as st

from mercurial import (
    context,
    error,
    extensions,
    localrepo,
    ui as uimod,
    vfs as vfsmod,
)
from mercurial.revlogutils import constants

from hgext3rd.revlogperf import compat, config

REVISIONS = 30


@functools.lru_cache(maxsize=None)
def source():
    """(store options, changelog files, texts) of a repository of
    REVISIONS changesets, made with revlogperf loaded"""
    path = pathlib.Path(tempfile.mkdtemp(prefix='fuzz-revlog-'))
    ui = uimod.ui.load()
    ui.setconfig(b'ui', b'quiet', b'yes')
    ui.setconfig(
        b'extensions', b'revlogperf', config.__file__.rsplit('/', 1)[0].encode()
    )
    extensions.loadall(ui)
    repo = localrepo.instance(ui, str(path).encode(), True)
    for i in range(REVISIONS):
        text = b''.join(b'%d line %d\n' % (i, j) for j in range(i * 7))
        ctx = context.memctx(
            repo,
            (repo[b'tip'].node(), None),
            b'change %d\n\n' % i + text[:300],
            [b'f'],
            lambda repo, mctx, p: context.memfilectx(repo, mctx, p, text),
            user=b'fuzz',
        )
        with repo.lock(), repo.transaction(b'fuzz'):
            ctx.commit()
    cl = repo.unfiltered().changelog
    texts = [bytes(cl.revision(r)) for r in range(len(cl))]
    store = path / '.hg' / 'store'
    files = {p.name: p.read_bytes() for p in store.glob('00changelog.*')}
    options = repo.svfs.options
    repo.close()
    shutil.rmtree(path)
    return options, files, texts


MUTATIONS = st.one_of(
    st.tuples(st.just('truncate'), st.integers(0, 1 << 16)),
    st.tuples(
        st.just('flip'),
        st.lists(
            st.tuples(st.integers(0, 1 << 16), st.integers(1, 255)),
            min_size=1,
            max_size=8,
        ),
    ),
    st.tuples(st.just('garbage'), st.binary(max_size=2048)),
    st.tuples(st.just('header'), st.binary(min_size=4, max_size=4)),
)


def changelog_of(store, options, files, threshold):
    """the changelog of a store holding ``files`` (name -> bytes), read
    with revlogperf's settings and both map thresholds at ``threshold``"""
    for fname, data in files.items():
        (store / fname).write_bytes(data)
    opener = vfsmod.vfs(str(store).encode())
    opener.options = dict(options)
    settings_ = opener.options[config.OPTIONS_KEY]
    settings_.index_threshold = settings_.data_threshold = threshold
    return compat.readonly_revlog(
        opener, (constants.KIND_CHANGELOG, None), b'00changelog', True
    )


def mutate(data, mutation):
    kind, arg = mutation
    if kind == 'truncate':
        return data[: arg % (len(data) + 1)]
    if kind == 'garbage':
        return arg
    if kind == 'header':
        return arg + data[4:]
    data = bytearray(data)
    for offset, xor in arg:
        if data:
            data[offset % len(data)] ^= xor
    return bytes(data)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.sampled_from(['00changelog.i', '00changelog.d']),
    MUTATIONS,
    st.sampled_from([0, None]),
)
def test_mutated_changelog(tmp_path, name, mutation, threshold):
    options, files, texts = source()
    store = tmp_path / 'store'
    shutil.rmtree(store, ignore_errors=True)
    store.mkdir()
    if name not in files:
        name = '00changelog.i'  # an inline changelog (hg <= 6.6)
    files = dict(files, **{name: mutate(files[name], mutation)})
    try:
        rl = changelog_of(store, options, files, threshold)
        for rev in range(len(rl)):
            text = bytes(rl.revision(rev))
            if rev < len(texts):
                assert text == texts[rev]
    except error.StorageError:
        pass  # RevlogError and CensoredNodeError are StorageErrors
    except FileNotFoundError as exc:
        # a damaged header can say "not inline": hg reports the missing
        # data file by name, as core does
        assert exc.filename.endswith(b'00changelog.d')


# the fields of a revlog v1 index entry: (offset in the entry, struct format)
INDEX_FIELDS = {
    'offset': (0, '>Q'),
    'compressed length': (8, '>i'),
    'uncompressed length': (12, '>i'),
    'delta base': (16, '>i'),
    'link revision': (20, '>i'),
    'parent 1': (24, '>i'),
    'parent 2': (28, '>i'),
}
ENTRY_SIZE = 64


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.integers(0, REVISIONS - 1),
    st.sampled_from(sorted(INDEX_FIELDS)),
    st.one_of(
        st.integers(-3, REVISIONS + 3),
        st.integers(-(1 << 31), (1 << 31) - 1),
    ),
    st.sampled_from([0, None]),
)
def test_damaged_index_field(tmp_path, rev, field, value, threshold):
    """an index entry whose field points anywhere: the right revisions, or
    a Mercurial error, from reads and from the graph walks on parents"""
    options, files, texts = source()
    if '00changelog.d' not in files:
        return  # an inline changelog (hg <= 6.6): entries sit among data
    store = tmp_path / 'store'
    shutil.rmtree(store, ignore_errors=True)
    store.mkdir()
    offset, fmt = INDEX_FIELDS[field]
    index = bytearray(files['00changelog.i'])
    if fmt == '>Q':
        # the offset is the high 48 bits; rev 0's holds the version header
        if rev == 0:
            return
        value = (value % (1 << 48)) << 16
    struct.pack_into(fmt, index, rev * ENTRY_SIZE + offset, value)
    files = dict(files, **{'00changelog.i': bytes(index)})
    try:
        rl = changelog_of(store, options, files, threshold)
        rl.headrevs()
        rl.reachableroots(0, [len(rl) - 1], [0])
        rl.ancestor(rl.node(len(rl) - 1), rl.node(0))
        for r in range(len(rl)):
            text = bytes(rl.revision(r))
            if r < len(texts):
                assert text == texts[r]
    except error.StorageError:
        pass
