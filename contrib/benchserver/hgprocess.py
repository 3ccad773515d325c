"""hg commands and servers under one configuration"""

import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENSION = os.path.abspath(
    os.path.join(HERE, '..', '..', 'hgext3rd', 'revlogperf')
)
CONFIGS = ('Mercurial', '+revlogperf')


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            sys.exit('server exited (%d) before listening' % proc.returncode)
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit('nothing listens on port %d after %d s' % (port, timeout))


class Hg:
    """runs hg commands under one configuration"""

    def __init__(self, hg, hgrc):
        self.hg = hg
        self.env = {**os.environ, 'HGRCPATH': hgrc, 'HGPLAIN': '1'}
        self.env.pop('HGDEMANDIMPORT', None)

    def __call__(self, *args, cwd=None):
        return subprocess.run(
            [self.hg, *args],
            check=True,
            env=self.env,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ).stdout


def write_hgrc(path, with_extension, settings=()):
    """the configuration of servers and writer, with ``settings``
    (section.name=value)"""
    lines = ['[ui]', 'username = writer <writer@example.org>', 'rollback = yes']
    lines += ['[web]', 'name = bench']
    if with_extension:
        lines += ['[extensions]', 'revlogperf = %s' % EXTENSION]
    for setting in settings:
        key, _eq, value = setting.partition('=')
        section, _dot, name = key.partition('.')
        lines += ['[%s]' % section, '%s = %s' % (name, value)]
    with open(path, 'w') as fp:
        fp.write('\n'.join(lines) + '\n')
