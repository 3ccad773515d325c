"""contrib/bench_commands.py runs and reports, on a small repository"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HG = os.path.join(os.path.dirname(sys.executable), 'hg')


def load(name):
    path = os.path.join(HERE, '..', '..', 'contrib', name + '.py')
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_one_round_of_two_commands(tmp_path, capsys):
    repo = tmp_path / 'repo'
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    subprocess.run([HG, 'init', str(repo)], check=True, env=env)
    for i in range(3):
        (repo / 'a').write_text('line %d\n' % i)
        subprocess.run(
            [HG, '--cwd', str(repo), 'commit', '-qAm', 'fix %d' % i],
            check=True,
            env=env,
        )
    out = tmp_path / 'out.json'
    load('bench_commands').main(
        [str(repo), '--rounds', '1', '--json', str(out), '--only']
        + ['log -l 5', 'annotate']
    )
    table = capsys.readouterr().out
    assert 'log -l 5' in table and 'annotate' in table
    figures = json.loads(out.read_text())
    assert figures['file'] == 'a'
    assert [row['command'] for row in figures['summary']] == [
        'log -l 5',
        'annotate',
    ]
    for row in figures['summary']:
        assert row['ratio'] > 0 and row['uss'][0] and row['anon'][1]


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
def test_the_timed_update_starts_with_no_file_to_read_for_status(tmp_path):
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'test'}
    repo = tmp_path / 'repo'
    subprocess.run([HG, 'init', str(repo)], check=True, env=env)
    for i in range(3):
        with open(repo / 'a', 'a') as fp:
            fp.write('line %d\n' % i)
        subprocess.run(
            [HG, '--cwd', str(repo), 'commit', '-qAm', str(i)],
            check=True,
            env=env,
        )
    share = {'path': str(repo), 'from': '0'}
    load('bench_commands').settled_update(HG, share, env)
    state = subprocess.run(
        [HG, '--cwd', str(repo), 'debugstate'],
        check=True,
        env=env,
        capture_output=True,
    ).stdout
    # without the wait, 'a' (written in the dirstate's second) is unset
    assert state.startswith(b'n ') and b'unset' not in state
