"""loading revlogperf runs nothing a command without a repository would not
run, and its wrappers are in place before any repository is made"""

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from hgext3rd.revlogperf import lazyload

HG = os.path.join(os.path.dirname(sys.executable), 'hg')

# an extension that writes, at exit, the modules the process executed
PROBE = '''
import atexit, os, sys

def _executed():
    names = sorted(
        name
        for name, module in list(sys.modules.items())
        if module is not None and type(module).__name__ != '_LazyModule'
    )
    with open(os.environ['PROBE_OUT'], 'w') as fp:
        fp.write('\\n'.join(names))

atexit.register(_executed)
'''


def executed_modules(tmp_path, args, extension):
    probe = tmp_path / 'probe.py'
    probe.write_text(PROBE)
    out = tmp_path / 'executed.txt'
    env = {**os.environ, 'HGRCPATH': '', 'PROBE_OUT': str(out)}
    env.pop('HGDEMANDIMPORT', None)
    cmd = [HG, '--config', 'extensions.probe=%s' % probe]
    if extension:
        cmd += ['--config', 'extensions.revlogperf=']
    subprocess.run(
        cmd + args,
        check=True,
        env=env,
        cwd=str(tmp_path),
        stdout=subprocess.DEVNULL,
    )
    return set(out.read_text().split('\n'))


def init_repository(tmp_path):
    """an empty repository ``r`` in ``tmp_path``"""
    subprocess.run(
        [HG, 'init', str(tmp_path / 'r')],
        check=True,
        env={**os.environ, 'HGRCPATH': ''},
    )


def core_modules_more(tmp_path, args):
    """the Mercurial modules ``hg ARGS`` runs with revlogperf and not
    without, and all it runs with revlogperf"""
    core = executed_modules(tmp_path, args, extension=False)
    with_extension = executed_modules(tmp_path, args, extension=True)
    # what Mercurial imports for any extension: to find it by name
    # (``hgext.NAME``, then the ``hgext3rd`` namespace package), and to
    # check its ``minimumhgversion``
    lookup = {'hgext', 'pkgutil', 'mercurial.__version__'}
    more = {
        name
        for name in with_extension - core - lookup
        if not name.startswith('hgext3rd')
    }
    return more, with_extension


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
@pytest.mark.parametrize('args', [['version', '-q'], ['help', 'log']])
def test_no_core_module_more_without_a_repository(tmp_path, args):
    more, with_extension = core_modules_more(tmp_path, args)
    assert more == set()
    assert 'hgext3rd.revlogperf' in with_extension
    assert 'hgext3rd.revlogperf.activation' not in with_extension


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_wrappers_in_place_once_a_repository_opens(tmp_path):
    init_repository(tmp_path)
    executed = executed_modules(tmp_path, ['-R', 'r', 'log'], extension=True)
    assert 'hgext3rd.revlogperf.activation' in executed
    assert 'hgext3rd.revlogperf.truncation' in executed
    assert 'hgext3rd.revlogperf.decompress' in executed


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_no_read_path_for_a_command_that_reads_no_revlog(tmp_path):
    init_repository(tmp_path)
    executed = executed_modules(tmp_path, ['-R', 'r', 'branch'], extension=True)
    assert 'hgext3rd.revlogperf.truncation' in executed
    # the read path with revlog only (6.6 and 6.9 run it for hg branch)
    reads = 'hgext3rd.revlogperf.decompress' in executed
    assert reads == ('mercurial.revlog' in executed)


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
@pytest.mark.parametrize('args', [['branch'], ['status'], ['log', '-l1']])
def test_no_core_module_more_with_a_repository(tmp_path, args):
    """such as the hgweb package, which hg <= 6.x runs for no command"""
    init_repository(tmp_path)
    more, _with_extension = core_modules_more(tmp_path, ['-R', 'r'] + args)
    # revlogperf's helper for its wrappers
    assert more <= {'mercurial.exthelper'}


# writes, at exit after revlogperf's own exit functions (registered before
# them), the module of the method that grows lrucachedict rings
RING_PROBE = """
import atexit, os
from mercurial import util

def _ring_method():
    with open(os.environ['PROBE_OUT'], 'w') as fp:
        fp.write(util.lrucachedict._addcapacity.__module__)

atexit.register(_ring_method)
"""


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_core_ring_method_back_at_exit(tmp_path):
    """revlogperf's method on util's class would keep all its modules for
    Python's slowest shutdown passes"""
    init_repository(tmp_path)
    probe = tmp_path / 'ringprobe.py'
    probe.write_text(RING_PROBE)
    out = tmp_path / 'ring.txt'
    subprocess.run(
        [HG, '--config', 'extensions.probe=%s' % probe]
        + ['--config', 'extensions.revlogperf=', '-R', 'r', 'log'],
        check=True,
        env={**os.environ, 'HGRCPATH': '', 'PROBE_OUT': str(out)},
        cwd=str(tmp_path),
        stdout=subprocess.DEVNULL,
    )
    assert out.read_text() == 'mercurial.util'


def lazy_module(tmp_path, name, source):
    path = tmp_path / (name + '.py')
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, str(path))
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_callback_after_the_module_runs(tmp_path):
    runs = []
    module = lazy_module(tmp_path, 'lazy_a', 'VALUE = 42\n')
    lazyload.after_load(module, lambda: runs.append(module.VALUE))
    assert runs == []
    assert module.VALUE == 42  # executes it, then calls back
    assert runs == [42]
    assert module.VALUE == 42
    assert runs == [42]
    assert type(module.__spec__.loader).__name__ != '_ThenCall'


def test_callback_at_once_for_an_executed_module():
    runs = []
    lazyload.after_load(os, lambda: runs.append(1))
    assert runs == [1]


def test_two_callbacks_in_order(tmp_path):
    runs = []
    module = lazy_module(tmp_path, 'lazy_b', 'VALUE = 7\n')
    lazyload.after_load(module, lambda: runs.append('first'))
    lazyload.after_load(module, lambda: runs.append('second'))
    assert module.VALUE == 7
    assert runs == ['first', 'second']
    assert type(module.__spec__.loader).__name__ == 'SourceFileLoader'
