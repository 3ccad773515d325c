"""revlogperf's truncation: a shortened file is a new file, so that maps of
the old one stay readable"""

import errno
import mmap
import os
import types

import pytest

from mercurial import extensions, hg, ui as uimod, util

from hgext3rd.revlogperf import config, truncation


class RecordingUI(uimod.ui):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.warnings = []

    def warn(self, msg, *args, **kwargs):
        self.warnings.append(msg)


def store(tmp_path, content=b'0123456789' * 1000):
    """a store vfs (revlogperf's settings in its options) and a file in it"""
    (tmp_path / 'x.i').write_bytes(content)
    opener = truncation.replacingvfs(str(tmp_path).encode())
    opener.options = {
        config.OPTIONS_KEY: types.SimpleNamespace(ui=RecordingUI())
    }
    return opener, tmp_path / 'x.i'


def replacing(opener, path=b'x.i'):
    """the file as revlogperf's vfs gives it to strip and rollback"""
    # not through the vfs, which revlogperf may have wrapped already
    fp = util.posixfile(opener.join(path), b'ab')
    ui = config.settings(opener).ui
    return truncation.ReplacingTruncate(fp, b'ab', opener, ui)


def test_shortened_file_replaces_the_old_one(tmp_path):
    opener, path = store(tmp_path)
    os.chmod(path, 0o640)
    with path.open('rb') as fp:
        old_map = mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ)
    inode = path.stat().st_ino
    with replacing(opener) as fp:
        fp.truncate(15)
    assert path.read_bytes() == b'012345678901234'
    assert path.stat().st_ino != inode
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)
    assert old_map[9990:] == b'0123456789'  # no SIGBUS: the old inode
    assert not [p for p in os.listdir(tmp_path) if p.endswith('~')]


def test_writes_after_truncate_go_to_the_new_file(tmp_path):
    opener, path = store(tmp_path)
    fp = replacing(opener)
    fp.truncate(3)
    fp.write(b'abc')
    fp.close()
    assert path.read_bytes() == b'012abc'


def test_hardlinked_copy_is_never_written_through(tmp_path):
    opener, path = store(tmp_path)
    os.link(path, tmp_path / 'clone.i')
    with opener(b'x.i', b'ab') as fp:  # the vfs, as strip opens it
        assert isinstance(fp, truncation.ReplacingTruncate)
        fp.truncate(5)
    assert path.read_bytes() == b'01234'
    assert len((tmp_path / 'clone.i').read_bytes()) == 10000


def test_truncate_to_the_same_size_is_core_truncate(tmp_path):
    opener, path = store(tmp_path, b'abcdef')
    inode = path.stat().st_ino
    with opener(b'x.i', b'ab') as fp:
        fp.truncate(6)  # nothing cut off
        fp.truncate(9)  # longer
    assert path.stat().st_ino == inode


def test_a_map_keeps_what_a_shortening_within_a_page_cut_off(tmp_path):
    # the next append would write other bytes where the map still reads
    opener, path = store(tmp_path, b'abcdef')
    with path.open('rb') as fp:
        old_map = mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ)
    with opener(b'x.i', b'ab') as fp:
        fp.truncate(3)
        fp.write(b'XYZ')
    assert path.read_bytes() == b'abcXYZ'
    assert old_map[:] == b'abcdef'


def test_only_the_store_vfs_replaces(tmp_path):
    ui = uimod.ui.load()
    ui.setconfig(
        b'extensions', b'revlogperf', config.__file__.rsplit('/', 1)[0].encode()
    )
    extensions.loadall(ui)
    repo = hg.repository(ui, str(tmp_path / 'repo').encode(), create=True)
    # the class of the extension as loaded, not of this test's import
    loaded = extensions.find(b'revlogperf').truncation
    # read-only, the store opens files as core's does
    assert type(repo.store.rawvfs) is not loaded.replacingvfs
    with repo.lock():
        repo.transaction(b'test').close()
    assert isinstance(repo.store.rawvfs, loaded.replacingvfs)
    for vfs in (repo.vfs, repo.wvfs, repo.cachevfs):
        assert not isinstance(vfs, loaded.replacingvfs)
    (tmp_path / 'repo' / '.hg' / 'bookmarks').write_bytes(b'x' * 10000)
    with repo.vfs(b'bookmarks', b'ab') as fp:
        assert not isinstance(fp, loaded.ReplacingTruncate)


def test_full_disk_truncates_in_place_and_says_so(tmp_path, monkeypatch):
    opener, path = store(tmp_path)
    inode = path.stat().st_ino

    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(truncation.os, 'write', no_space)
    with replacing(opener) as fp:
        fp.truncate(15)
    assert path.read_bytes() == b'012345678901234'
    assert path.stat().st_ino == inode  # core's truncation
    [warning] = config.settings(opener).ui.warnings
    assert warning == (
        b'revlogperf: cannot replace x.i (No space left on device): '
        b'truncated in place, processes reading it may fail\n'
    )
    assert not [p for p in os.listdir(tmp_path) if p.endswith('~')]


def test_the_copy_needs_room_for_the_kept_bytes_only(tmp_path, monkeypatch):
    opener, path = store(tmp_path)
    written = []
    real_write = os.write

    def counting_write(fd, data):
        written.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr(truncation.os, 'write', counting_write)
    with replacing(opener) as fp:
        fp.truncate(4200)
    assert sum(written) <= 4200 + len(b'.x.i-shorten~\n')


@pytest.mark.skipif(os.geteuid() != 0, reason='needs root to chown')
def test_the_copy_keeps_owner_group_and_mode(tmp_path):
    opener, path = store(tmp_path)
    os.chown(path, 4321, 5432)
    os.chmod(path, 0o664)
    inode = path.stat().st_ino
    with replacing(opener) as fp:
        fp.truncate(15)
    st = path.stat()
    assert st.st_ino != inode
    assert (st.st_uid, st.st_gid, oct(st.st_mode & 0o7777)) == (
        4321,
        5432,
        oct(0o664),
    )


def test_owner_it_cannot_give_means_in_place(tmp_path, monkeypatch):
    opener, path = store(tmp_path)
    real_fstat = os.fstat
    inode = path.stat().st_ino

    def owned_by_another(fd):
        st = real_fstat(fd)
        if st.st_ino == inode:
            fields = list(st)
            fields[4] += 1  # another user's file
            return os.stat_result(fields)
        return st

    def not_permitted(fd, uid, gid):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(truncation.os, 'fstat', owned_by_another)
    monkeypatch.setattr(truncation.os, 'fchown', not_permitted)
    with replacing(opener) as fp:
        fp.truncate(15)
    assert path.stat().st_ino == inode
    assert path.read_bytes() == b'012345678901234'
    [warning] = config.settings(opener).ui.warnings
    assert b'(Operation not permitted)' in warning


def leftover(tmp_path):
    """a store with a listed copy, as a writer killed before its rename
    leaves it"""
    store_path = str(tmp_path).encode()
    copy = truncation.copy_name(store_path + b'/x.i')
    truncation._list_copy(store_path, copy)
    with open(copy, 'wb') as fp:
        fp.write(b'left')
    repo = types.SimpleNamespace(
        store=types.SimpleNamespace(path=store_path), ui=RecordingUI()
    )
    return repo, os.path.basename(copy)


def test_a_copy_is_listed_only_while_it_may_be_left(tmp_path):
    opener, path = store(tmp_path)
    listed = []
    real_replace = truncation.os.replace

    def replace(src, dst):
        listed.append(truncation.leftover_copies(str(tmp_path).encode()))
        return real_replace(src, dst)

    truncation.os.replace = replace
    try:
        with replacing(opener) as fp:
            fp.truncate(15)
    finally:
        truncation.os.replace = real_replace
    assert listed == [[b'.x.i-shorten~']]
    assert sorted(os.listdir(tmp_path)) == ['x.i']


def test_a_copy_left_by_a_killed_writer_is_found_and_removed(tmp_path):
    opener, path = store(tmp_path)

    def killed(src, dst):
        raise KeyboardInterrupt  # as a kill between copy and rename

    store_path = str(tmp_path).encode()
    real_replace = truncation.os.replace
    truncation.os.replace = killed
    try:
        with pytest.raises(KeyboardInterrupt):
            truncation.replace_with_prefix(store_path, bytes(path), 15)
    finally:
        truncation.os.replace = real_replace
    # the copy and its listing were removed on the way out
    assert sorted(os.listdir(tmp_path)) == ['x.i']
    # a SIGKILL leaves both
    repo, name = leftover(tmp_path)
    assert truncation.leftover_copies(store_path) == [name]
    truncation.remove_leftover_copies(repo)
    assert truncation.leftover_copies(store_path) == []
    assert sorted(os.listdir(tmp_path)) == ['x.i']
    assert repo.ui.warnings == []


def test_a_copy_that_cannot_be_removed_stays_listed(tmp_path, monkeypatch):
    store(tmp_path)
    repo, name = leftover(tmp_path)

    def denied(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(truncation.os, 'unlink', denied)
    truncation.remove_leftover_copies(repo)
    truncation.remove_leftover_copies(repo)
    assert truncation.leftover_copies(repo.store.path) == [name]
    # once, naming the file and what to do
    assert repo.ui.warnings == [
        b'revlogperf: cannot remove .x.i-shorten~, left by a killed writer '
        b'(Permission denied): its owner or an administrator can remove it\n'
    ]


def test_a_name_the_system_refuses_means_in_place(tmp_path, monkeypatch):
    opener, path = store(tmp_path)
    inode = path.stat().st_ino
    real_open, real_unlink = os.open, os.unlink

    def too_long(name, *args, **kwargs):
        if name.endswith(truncation.COPY_SUFFIX):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
        return real_open(name, *args, **kwargs)

    def unlink(name):
        if name.endswith(truncation.COPY_SUFFIX):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
        return real_unlink(name)

    monkeypatch.setattr(truncation.os, 'open', too_long)
    monkeypatch.setattr(truncation.os, 'unlink', unlink)
    with replacing(opener) as fp:
        fp.truncate(15)
    assert path.stat().st_ino == inode
    assert path.read_bytes() == b'012345678901234'
    [warning] = config.settings(opener).ui.warnings
    assert b'(File name too long)' in warning
    assert sorted(os.listdir(tmp_path)) == ['x.i']


def test_copy_names_are_no_longer_than_core_temporary_names():
    # util.mktempcopy's: '.' + name + '-' + 8 random characters + '~'
    name = b'n' * 200 + b'.i'
    copy = truncation.copy_name(b'/store/data/' + name)
    assert copy.startswith(b'/store/data/.')
    assert len(os.path.basename(copy)) < len(name) + 11


def test_one_operation_warns_once(tmp_path):
    opener, path = store(tmp_path)
    (tmp_path / 'y.i').write_bytes(b'0123456789' * 1000)
    ui = config.settings(opener).ui

    def operation():
        for name in (b'x.i', b'y.i'):
            truncation._report_in_place(ui, name, b'Operation not permitted')

    truncation._one_warning_per_operation(operation)
    assert ui.warnings == [
        b'revlogperf: cannot replace x.i and 1 other store files '
        b'(Operation not permitted): truncated in place, processes reading '
        b'them may fail\n'
    ]
