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
