# features of the Mercurial under test that revlogperf's .t tests depend on
import re
import subprocess

import hghave


def _hgversion():
    """(major, minor) of the hg under test (hghave may not import it)"""
    out = subprocess.run(
        ['hg', '--version', '--quiet'], stdout=subprocess.PIPE, check=True
    ).stdout
    return tuple(int(n) for n in re.search(rb'(\d+)\.(\d+)', out).groups())


@hghave.check("inline-changelog", "changelog stored inline (hg <= 6.6)")
def has_inline_changelog():
    return _hgversion() < (6, 7)


@hghave.check(
    "core-mmap", "core mmaps large revlog indexes (not pure on hg >= 6.9)"
)
def has_core_mmap():
    return not hghave.checks["pure"][0]() or _hgversion() < (6, 9)
