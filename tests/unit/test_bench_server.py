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


def test_state_labels_are_what_a_step_may_mix(tmp_path):
    # a /graph entry as hgweb served it during a push: the changesets of the
    # state before, with the phases and branch heads of the state after
    bench = load('bench_server')
    before = (
        b'  <span class="phase">draft</span> <span class="branchhead">'
        b'default</span> <span class="tag">tip</span> \n'
        b'  <span class="phase">draft</span> \n'
    )
    during = b'  <span class="tag">tip</span> \n  \n'
    after = b'  <span class="tag">tip</span> \n  <span>other</span>\n'
    for name, body in (('b', before), ('d', during), ('a', after)):
        (tmp_path / name).write_bytes(body)

    def labels_apart(name):
        return bench.without_state_labels(str(tmp_path), name)

    assert labels_apart('b') == labels_apart('d')
    assert labels_apart('a') != labels_apart('d')


def test_a_failed_answer_shows_hgwebs_message(tmp_path):
    page = (
        b'<div class="main">\n<div class="description">\n<p>\n'
        b'An error occurred while processing your request:\n</p>\n<p>\n'
        b'partial read of revlog 00changelog.d; expected 69 bytes\n</p>\n'
        b'</div>\n</div>\n'
    )
    (tmp_path / 'digest').write_bytes(page)
    assert load('bench_server').error_message(str(tmp_path), 'digest') == (
        'An error occurred while processing your request: '
        'partial read of revlog 00changelog.d; expected 69 bytes'
    )
