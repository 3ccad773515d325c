"""contrib/timeshare.py: where a command's time went, by clocks around calls"""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TIMESHARE = os.path.join(HERE, '..', '..', 'contrib', 'timeshare.py')
HG = os.path.join(os.path.dirname(sys.executable), 'hg')

pytestmark = pytest.mark.skipif(
    not os.path.exists(HG), reason='no hg beside python'
)


@pytest.fixture(scope='module')
def repo(tmp_path_factory):
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    path = tmp_path_factory.mktemp('timeshare') / 'repo'
    subprocess.run([HG, 'init', str(path)], check=True, env=env)
    for n in range(20):
        lines = ['line %d\n' % i for i in range(200)]
        lines[n * 7] = 'changed in %d\n' % n
        (path / 'f').write_text(''.join(lines))
        subprocess.run(
            [HG, '--cwd', str(path), 'commit', '-qAm', str(n)],
            check=True,
            env=env,
        )
    return path


def timeshare(repo, tmp_path, *args):
    out = tmp_path / 'spent.json'
    env = {**os.environ, 'HGRCPATH': '', 'REVLOGPERF_TIMESHARE': str(out)}
    subprocess.run(
        [
            HG,
            '--cwd',
            str(repo),
            '--config',
            'extensions.timeshare=' + TIMESHARE,
        ]
        + list(args),
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return json.loads(out.read_text())


def test_annotate_is_reads_and_line_diffs(repo, tmp_path):
    spent = timeshare(repo, tmp_path, 'annotate', 'f')
    assert spent['read filelog'] > 0
    assert spent['line diff (bdiff)'] > 0
    # parts of a read are within it; the outermost kinds within the command
    assert spent['hash check'] + spent['patch'] <= spent['read filelog']
    outermost = ('read changelog', 'read manifest', 'read filelog')
    assert sum(spent[k] for k in outermost) < spent['wall']


def test_update_writes_the_working_copy(repo, tmp_path):
    timeshare(repo, tmp_path, 'update', '-q', '0')
    spent = timeshare(repo, tmp_path, 'update', '-q', 'tip')
    assert spent['write working copy'] > 0
    assert spent['line diff (bdiff)'] == 0


def test_printed_to_stderr_without_a_file(repo):
    env = {**os.environ, 'HGRCPATH': ''}
    env.pop('REVLOGPERF_TIMESHARE', None)
    run = subprocess.run(
        [
            HG,
            '--cwd',
            str(repo),
            '--config',
            'extensions.timeshare=' + TIMESHARE,
        ]
        + ['log', '-p', '-l', '3'],
        check=True,
        env=env,
        capture_output=True,
    )
    lines = run.stderr.decode().splitlines()
    assert lines[0].startswith('command (wall)')
    assert any(line.startswith('read manifest') for line in lines)
    assert run.stdout.count(b'diff -r') == 3
