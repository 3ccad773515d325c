"""revlogs that Rust reads (hg >= 7.0, rust+c): revlogperf leaves their
reading alone and says so. No Rust build can be made here: the decision is
tested with a revlog that says it uses Rust."""

import types

from mercurial import extensions, hg, ui as uimod

from hgext3rd.revlogperf import compat, config


def test_uses_rust_reads_the_revlog_attribute():
    assert compat.uses_rust(types.SimpleNamespace(uses_rust=True))
    assert not compat.uses_rust(types.SimpleNamespace(uses_rust=False))
    assert not compat.uses_rust(object())  # hg <= 6.9: no Rust reading


def test_storage_report_says_rust_reads(tmp_path, monkeypatch):
    ui = uimod.ui.load()
    ui.setconfig(b'ui', b'quiet', b'no')
    ui.setconfig(b'devel', b'all-warnings', b'no')
    ui.setconfig(
        b'extensions', b'revlogperf', config.__file__.rsplit('/', 1)[0].encode()
    )
    extensions.loadall(ui)
    repo = hg.repository(ui, str(tmp_path).encode(), create=True)
    cl = repo.unfiltered().changelog
    monkeypatch.setattr(cl, 'uses_rust', True, raising=False)
    commands = extensions.find(b'revlogperf').commands
    ui.pushbuffer()
    commands.debug_revlog_storage(ui, repo)
    out = ui.popbuffer()
    assert b'Rust reads these revlogs' in out


def test_storage_report_is_silent_about_rust_otherwise(tmp_path):
    ui = uimod.ui.load()
    ui.setconfig(b'devel', b'all-warnings', b'no')
    ui.setconfig(
        b'extensions', b'revlogperf', config.__file__.rsplit('/', 1)[0].encode()
    )
    extensions.loadall(ui)
    repo = hg.repository(ui, str(tmp_path).encode(), create=True)
    ui.pushbuffer()
    extensions.find(b'revlogperf').commands.debug_revlog_storage(ui, repo)
    assert b'Rust' not in ui.popbuffer()
