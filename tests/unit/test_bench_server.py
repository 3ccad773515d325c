"""contrib/bench_server.py, short: hgweb under gunicorn with revlogperf,
four workers and a writer that pushes, strips, rolls back and upgrades,
every answer checked against a fresh ``hg serve`` without revlogperf

The thresholds are lowered so that this small repository's indexes and
data files are mapped, as a large one's are: the writer shortens files the
workers have mapped.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRIB = os.path.join(HERE, '..', '..', 'contrib')
HG = os.path.join(os.path.dirname(sys.executable), 'hg')


def load(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(CONTRIB, name + '.py')
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not os.path.exists(HG), reason='no hg beside python')
@pytest.mark.skipif(
    importlib.util.find_spec('gunicorn') is None, reason='no gunicorn'
)
def test_readers_and_a_writer(tmp_path, capsys):
    repo = tmp_path / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(CONTRIB, 'mkrepo.py'), str(repo)]
        + ['--changesets', '400', '--files', '60', '--compression', 'zstd']
        + ['-q'],
        check=True,
    )
    out = tmp_path / 'server.json'
    status = load('bench_server').main(
        [str(repo), '--requests', '150', '--clients', '6', '--workers', '4']
        + ['--only', '+revlogperf', '--rounds', '1', '--json', str(out)]
        + ['--config', 'revlogperf.mmap-index-threshold=1k']
        + ['--config', 'revlogperf.mmap-data-threshold=1k']
    )
    report = capsys.readouterr().out
    assert status == 0, report
    (run,) = json.loads(out.read_text())
    assert run['failed'] == run['wrong'] == 0
    assert run['killed'] == [] and run['verify'] == 'ok'
    assert run['states'] == [
        'initial',
        'push',
        'strip',
        'push',
        'rollback',
        'upgrade',
    ]
    assert sum(r['count'] for r in run['latency'].values()) == 150
    # the workers mapped store files, and let go of them within the budget
    maps = [peak['maps'] for peak in run['peaks'].values()]
    assert max(maps) > 0
    assert max(peak['fds'] for peak in run['peaks'].values()) < 64 + 30
