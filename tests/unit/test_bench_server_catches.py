"""contrib/bench_server.py fails where it claims to: each run serves with
revlogperf and a deliberately broken companion (tests/testlib/
breakserver.py), and the harness must fail it for a wrong answer, a
stale one, a data map over the budget, and a page made slower.

Four short runs: with the C modules of the newest release only, as the
short run of test_bench_server.py covers the rest.
"""

import importlib.util
import json
import os
import sys

import pytest

from mercurial import policy, util

HERE = os.path.dirname(os.path.abspath(__file__))
BREAK = os.path.join(HERE, '..', 'testlib', 'breakserver.py')
HG = os.path.join(os.path.dirname(sys.executable), 'hg')

pytestmark = [
    pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python'),
    pytest.mark.skipif(
        importlib.util.find_spec('gunicorn') is None, reason='no gunicorn'
    ),
    pytest.mark.skipif(
        policy.policy == b'py', reason='the C modules of one release do'
    ),
    pytest.mark.skipif(
        util.versiontuple(n=2) < (7, 2), reason='the newest release does'
    ),
]


@pytest.fixture(scope='module')
def sample(tmp_path_factory):
    import subprocess

    path = tmp_path_factory.mktemp('catches') / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(HERE, '..', '..', 'contrib', 'mkrepo.py')]
        + [str(path), '--changesets', '600', '--files', '30', '-q'],
        check=True,
    )
    return str(path)


def _run(sample, tmp_path, mode, *extra):
    from test_bench_server import load_script

    out = tmp_path / ('%s.json' % mode)
    status = load_script().main(
        [sample, '--requests', '120', '--clients', '4', '--workers', '2']
        + ['--rounds', '1', '--no-upgrade', '--json', str(out)]
        + ['--config', 'revlogperf.mmap-data-threshold=1k']
        + ['--config', 'revlogperf.mmap-data-budget=1']
        + ['--config', 'extensions.breakserver=' + BREAK]
        + ['--config', 'breakserver.mode=' + mode]
        + list(extra)
    )
    runs = {run['config']: run for run in json.loads(out.read_text())}
    return status, runs['+revlogperf']


@pytest.mark.parametrize('mode', ['wrong', 'stale'])
def test_a_wrong_or_stale_answer_fails_the_run(sample, tmp_path, mode):
    status, run = _run(sample, tmp_path, mode, '--only', '+revlogperf')
    assert status == 1
    assert run['wrong'] > 0


def test_a_data_map_over_the_budget_fails_the_run(sample, tmp_path, capsys):
    status, run = _run(sample, tmp_path, 'maps', '--only', '+revlogperf')
    assert status == 1
    assert 'more data file maps than the budget' in capsys.readouterr().out


def test_a_slower_page_fails_the_run(sample, tmp_path, capsys):
    status, run = _run(sample, tmp_path, 'slow', '--targets')
    assert status == 1
    printed = capsys.readouterr().out
    assert any(
        line.startswith('FAIL') and '/rev' in line
        for line in printed.splitlines()
    ), printed
