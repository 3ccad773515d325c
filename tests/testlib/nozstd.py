"""test helper: act as a Mercurial build without a zstd module

Load it before revlogperf. It leaves core's zstd engine without a module,
as in pure builds without ``mercurial.zstd``.
"""

from mercurial import util


def uisetup(ui):
    util.compengines[b'zstd']._module = None
