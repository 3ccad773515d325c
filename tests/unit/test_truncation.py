"""revlogperf's truncation: a shortened file is a new file, so that maps of
the old one stay readable"""

import mmap
import os

import pytest

from mercurial import extensions, vfs as vfsmod

from hgext3rd.revlogperf import truncation


def store(tmp_path, content=b'0123456789' * 1000):
    (tmp_path / 'x.i').write_bytes(content)
    return vfsmod.vfs(str(tmp_path).encode()), tmp_path / 'x.i'


def test_shortened_file_replaces_the_old_one(tmp_path):
    opener, path = store(tmp_path)
    os.chmod(path, 0o640)
    with path.open('rb') as fp:
        old_map = mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ)
    inode = path.stat().st_ino
    with truncation.ReplacingTruncate(opener(b'x.i', b'ab'), b'ab') as fp:
        fp.truncate(15)
    assert path.read_bytes() == b'012345678901234'
    assert path.stat().st_ino != inode
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)
    assert old_map[9990:] == b'0123456789'  # no SIGBUS: the old inode
    assert not [p for p in os.listdir(tmp_path) if p.endswith('~')]


def test_writes_after_truncate_go_to_the_new_file(tmp_path):
    opener, path = store(tmp_path)
    fp = truncation.ReplacingTruncate(opener(b'x.i', b'ab'), b'ab')
    fp.truncate(3)
    fp.write(b'abc')
    fp.close()
    assert path.read_bytes() == b'012abc'


@pytest.fixture
def wrapped_vfs():
    """the vfs as revlogperf's extsetup leaves it"""
    extensions.wrapfunction(vfsmod.vfs, '__call__', truncation._open)
    yield
    extensions.unwrapfunction(vfsmod.vfs, '__call__', truncation._open)


def test_hardlinked_copy_is_never_written_through(tmp_path, wrapped_vfs):
    opener, path = store(tmp_path)
    os.link(path, tmp_path / 'clone.i')
    with opener(b'x.i', b'ab') as fp:  # the vfs, as strip opens it
        assert isinstance(fp, truncation.ReplacingTruncate)
        fp.truncate(5)
    assert path.read_bytes() == b'01234'
    assert len((tmp_path / 'clone.i').read_bytes()) == 10000


def test_truncate_keeping_every_page_is_core_truncate(tmp_path, wrapped_vfs):
    opener, path = store(tmp_path, b'abcdef')
    inode = path.stat().st_ino
    with opener(b'x.i', b'ab') as fp:
        fp.truncate(6)  # same size
        fp.truncate(3)  # within the one page
    assert path.stat().st_ino == inode
    assert path.read_bytes() == b'abc'


@pytest.mark.parametrize(
    'old, new, unmaps',
    [
        (10, 10, False),
        (10, 12, False),
        (4096, 1, False),
        (4097, 4096, True),
        (3, 0, True),
        (8192, 4097, False),
        (10000, 15, True),
        (0, 0, False),
    ],
)
def test_unmaps_pages(old, new, unmaps, monkeypatch):
    monkeypatch.setattr(truncation, '_PAGE', 4096)
    assert truncation.unmaps_pages(old, new) is unmaps
