"""what the benchmarks print: ratios that agree with the times beside
them, whole column headers, and a line at least every interval in a log"""

import io
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'contrib'))

import benchprogress  # noqa: E402
import benchstats  # noqa: E402


def test_the_ratio_is_that_of_the_medians_shown():
    # the median of the rounds' ratios would be 0.93 here, beside medians
    # whose ratio is 1.05 (the case a user met: 58.600 61.367 0.93~)
    core = [10.0, 20.0, 30.0]
    ext = [9.0, 21.0, 33.0]
    figures = benchstats.paired(core, ext)
    assert figures['ratio'] == 21.0 / 20.0
    assert figures['spread'] == [0.9, 1.1]
    assert benchstats.noise(figures['spread']) == '~'


def test_a_spread_below_one_is_marked_faster():
    figures = benchstats.paired([2.0, 2.2], [1.0, 1.2])
    assert benchstats.verdict(figures['spread']) == 'faster'
    assert benchstats.noise(figures['spread']) == ' '


def test_no_ratio_against_nothing():
    assert benchstats.paired([0.0, 0.0], [1.0, 1.0]) is None


def test_each_step_is_a_line_with_the_time_left():
    out = io.StringIO()
    with benchprogress.Progress(4, stream=out, every=3600) as progress:
        progress.step('first')
        progress.step('second')
    lines = out.getvalue().splitlines()
    assert lines[0].startswith('[1/4] first (0 s')
    assert lines[1].startswith('[2/4] second (0 s, about ')
    assert lines[1].endswith(' s left)')
    assert '\r' not in out.getvalue()


def test_a_long_step_still_prints_a_line():
    out = io.StringIO()
    with benchprogress.Progress(1, stream=out, every=0.2) as progress:
        progress.step('a long one')
        time.sleep(5.5)  # the heartbeat looks every 5 s at most
    lines = out.getvalue().splitlines()
    assert lines[0].startswith('[1/1] a long one')
    assert any(line.startswith('[1/1] still a long one') for line in lines)


def _row(command, wall, spread, cpu):
    """a row of bench_commands.py's table, with no memory measured"""
    row = {'command': command, 'wall': wall, 'spread': spread}
    row.update({'ratio': wall[1] / wall[0], 'cpu ratio': cpu})
    row.update({k: [None, None] for k in ('anon', 'uss', 'pss', 'rss')})
    return row


def test_the_commands_table_header_is_whole(capsys):
    import bench_commands

    row = _row('log -l 5', [0.94, 0.66], [0.6, 0.8], 0.7)
    bench_commands.print_table([row], 'title')
    header, line = capsys.readouterr().out.splitlines()[1:3]
    assert 'Mercurial s' in header and '+revlogperf s' in header
    # the figures stand under their column
    assert line.index('0.940') < header.index('+revlogperf s')
    assert '0.70 ' in line


def test_a_silent_command_gets_a_line_every_interval():
    import subprocess

    script = os.path.join(HERE, '..', '..', 'contrib', 'heartbeat.py')
    out = subprocess.run(
        [sys.executable, script, '--every', '0.5'],
        input=None,
        stdin=subprocess.Popen(
            [
                sys.executable,
                '-c',
                'import sys, time; sys.stdout.write("..");'
                'sys.stdout.flush(); time.sleep(1.8); print("# Ran 2 tests")',
            ],
            stdout=subprocess.PIPE,
        ).stdout,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout.decode()
    lines = out.splitlines()
    assert lines[0] == '..'
    assert lines[1].startswith('(still running, ')
    assert lines[-1] == '# Ran 2 tests'


def test_the_commands_table_explains_its_columns(capsys):
    import bench_commands

    row = _row('startup: version -q', [0.1, 0.1], [0.9, 1.1], 1.0)
    bench_commands.print_table([row], 'title')
    out = capsys.readouterr().out
    legend = out.split('\n', 3)[3]
    for word in ('ratio:', 'spread:', '~:', 'CPU:', 'heap', 'USS', 'PSS'):
        assert word in legend, word
    assert '-: not measured' in legend  # the startup row's memory columns


def test_the_bench_says_what_engages_on_its_repository(tmp_path):
    """the sample's changelog index may be under the threshold: the bench
    says which maps engage where it measures"""
    import subprocess

    import bench

    repo = tmp_path / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(HERE, '..', '..', 'contrib', 'mkrepo.py')]
        + [str(repo), '--changesets', '300', '--files', '5', '-q'],
        check=True,
    )
    hg = os.path.join(os.path.dirname(sys.executable), 'hg')
    env = {**os.environ, 'HGRCPATH': ''}
    lines = bench.engaged(hg, str(repo), env)
    assert lines[1].split()[:5] == ['changelog', '0', 'of', '1', 'indexes,']
    assert lines[3].endswith(', 0 data files')
    # a filelog's data file over the threshold (hg keeps small revlogs
    # inline, and reads no data file it does not know)
    (repo / '.hg' / 'store' / 'data' / 'large.d').write_bytes(b'x' * 10)
    lines = bench.engaged(hg, str(repo), env, threshold=8)
    assert lines[3].split()[0] == 'filelogs'
    assert lines[3].endswith(', 1 data files')
