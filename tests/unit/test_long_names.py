"""Store files with long names through a strip: whatever the name's length,
the repository ends as core leaves it

The copy revlogperf makes to shorten a file has a longer name than the
file; where the file system refuses that name, the file is truncated in
place, as core does. Walks every store name length from 200 to 255 bytes,
with and without fncache (which hashes long names)."""

import hashlib
import os
import shutil
import subprocess
import sys

import pytest

HG = os.path.join(os.path.dirname(sys.executable), 'hg')
EXTENSION = os.path.join(
    os.path.dirname(__file__), '..', '..', 'hgext3rd', 'revlogperf'
)
LENGTHS = range(200, 256)

pytestmark = pytest.mark.skipif(
    not os.path.exists(HG), reason='no hg beside python'
)


def hg(repo, *args, hgrc=''):
    env = {**os.environ, 'HGRCPATH': hgrc, 'HGUSER': 'test', 'HGPLAIN': '1'}
    return subprocess.run(
        [HG, '-R', str(repo)] + list(args),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def store_state(repo):
    """every file of the store, with its size and digest"""
    store = repo / '.hg' / 'store'
    state = {}
    for path in sorted(store.rglob('*')):
        if path.is_file():
            data = path.read_bytes()
            digest = hashlib.sha1(data).hexdigest()
            state[str(path.relative_to(store))] = (len(data), digest)
    return state


def outcome(repo, hgrc):
    """what a strip of the tip does to ``repo``, as a user sees it after"""
    strip = hg(repo, 'debugstrip', '--no-backup', '-r', 'tip', hgrc=hgrc)
    verify = hg(repo, 'verify', '-q', hgrc=hgrc)
    recover = hg(repo, 'recover', hgrc=hgrc)
    for path in repo.iterdir():
        if path.is_file():
            with open(path, 'ab') as fp:
                fp.write(b'after\n')
    commit = hg(repo, 'commit', '-qm', 'after', '--date', '0 0', hgrc=hgrc)
    return {
        'strip': strip.returncode,
        'verify': (verify.returncode, verify.stdout, verify.stderr),
        'recover': (recover.returncode, recover.stdout, recover.stderr),
        'commit': (commit.returncode, commit.stderr),
        'store': store_state(repo),
    }, strip.stderr


@pytest.fixture(scope='module')
def extension_hgrc(tmp_path_factory):
    hgrc = tmp_path_factory.mktemp('hgrc') / 'hgrc'
    hgrc.write_text('[extensions]\nrevlogperf = %s\n' % EXTENSION)
    return str(hgrc)


@pytest.mark.parametrize('fncache', ['yes', 'no'])
def test_every_name_length_ends_as_core(tmp_path, fncache, extension_hgrc):
    base = tmp_path / 'base'
    hg(
        base.parent,
        'init',
        str(base),
        '--config',
        'format.usefncache=' + fncache,
    )
    names = []
    for length in LENGTHS:
        # the store name is the file's name and ".i"
        name = ('%d' % length).ljust(length - 2, 'n')
        names.append(name)
        (base / name).write_bytes(b'%d\n' % length * 100)
    assert hg(base, 'commit', '-qAm', 'one', '--date', '0 0').returncode == 0
    for name in names:
        with open(base / name, 'ab') as fp:
            fp.write(b'more\n' * 50)
    assert hg(base, 'commit', '-qm', 'two', '--date', '0 0').returncode == 0

    shutil.copytree(base, tmp_path / 'core', symlinks=True)
    shutil.copytree(base, tmp_path / 'with', symlinks=True)
    core, core_stderr = outcome(tmp_path / 'core', '')
    with_, with_stderr = outcome(tmp_path / 'with', extension_hgrc)

    assert core['strip'] == 0
    assert core['verify'][0] == 0
    assert with_ == core
    assert core_stderr == b''
    # no name is too long for a copy below 246 bytes; past it, one line
    # for the whole strip says which files were truncated in place
    lines = with_stderr.splitlines()
    assert len(lines) <= 1
    if fncache == 'no':
        [line] = lines
        assert line.startswith(b'revlogperf: cannot replace data/246')
        assert b'and 9 other store files (File name too long)' in line
