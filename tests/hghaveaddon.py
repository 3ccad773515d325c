# features of the Mercurial under test that revlogperf's .t tests depend on
import os
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


@hghave.check(
    "deny-read",
    "a file can be made unreadable to hg (not root, or root and setpriv)",
)
def has_deny_read():
    if os.name != 'posix':
        return False
    if os.getuid() != 0:
        return True
    # root: whether testlib/readall.sh's "unprivileged" (setpriv without the
    # capabilities that let root read any file) runs here
    helpers = os.path.join(os.path.dirname(__file__), 'testlib', 'readall.sh')
    try:
        return (
            subprocess.call(
                ['sh', '-c', '. "$0" && unprivileged true', helpers]
            )
            == 0
        )
    except OSError:
        return False


def _root_runs(command):
    if os.name != 'posix' or os.getuid() != 0:
        return False
    try:
        return subprocess.call(command, stderr=subprocess.DEVNULL) == 0
    except OSError:
        return False


@hghave.check("small-fs", "root can mount a small tmpfs in its own namespace")
def has_small_fs():
    return _root_runs(
        ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o size=1m none /mnt']
    )


@hghave.check("other-users", "root can run commands as other users (setpriv)")
def has_other_users():
    return _root_runs(
        [
            'setpriv',
            '--reuid=4321',
            '--regid=4321',
            '--groups=4322',
            '--inh-caps=-all,+dac_read_search',
            '--ambient-caps=+dac_read_search',
            'true',
        ]
    )
