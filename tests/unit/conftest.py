import contextlib

import pytest

from mercurial import ui as uimod


@pytest.fixture
def ui():
    """a ui with no user configuration and revlogperf's items known"""
    from hgext3rd.revlogperf import configitems as revlogperf_items

    u = uimod.ui()
    u.setconfig(b'devel', b'all-warnings', b'yes')
    u.setconfig(b'ui', b'quiet', b'yes')
    from mercurial import configitems

    configitems.loadconfigtable(u, b'revlogperf', revlogperf_items.configtable)
    return u


@pytest.fixture
def command():
    """``command(repo)`` gives ``repo`` back, read from then on as inside
    one command (``dispatch.runcommand``): the walk cache keeps what it
    reads only there (walkcache.command_scope). The command ends with the
    test."""
    from hgext3rd.revlogperf import walkcache

    with contextlib.ExitStack() as stack:

        def within(repo):
            stack.enter_context(walkcache.command_scope(repo))
            return repo

        yield within
