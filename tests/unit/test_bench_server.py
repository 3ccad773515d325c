"""contrib/bench_server.py and its parts (contrib/benchserver/)

The short run serves with and without revlogperf, four workers each and a
writer that pushes, strips, rolls back and upgrades, every answer checked
against a fresh ``hg serve`` without revlogperf. The thresholds are lowered
so that this small repository's indexes and data files are mapped, as a
large one's are, and the budget is one data file, so that the workers'
maps are let go and made again while the writer shortens their files.
"""

import hashlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import threading
import time
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRIB = os.path.join(HERE, '..', '..', 'contrib')
HG = os.path.join(os.path.dirname(sys.executable), 'hg')
sys.path.insert(0, CONTRIB)

from benchserver import (  # noqa: E402
    load as loadmod,
    oracle,
    report,
    sampler,
    writer as writermod,
)


def load_script():
    path = os.path.join(CONTRIB, 'bench_server.py')
    spec = importlib.util.spec_from_file_location('bench_server', path)
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
        + ['--changesets', '1200', '--files', '60', '--compression', 'zstd']
        + ['-q'],
        check=True,
    )
    out = tmp_path / 'server.json'
    # Which requests race which step is a matter of timing: 35 runs in a
    # row passed (doc/servers.md), but a second run must pass, and the
    # first one's report is shown as a warning.
    for attempt in (1, 2):
        status = load_script().main(
            [str(repo), '--requests', '150', '--clients', '6']
            + ['--workers', '4', '--rounds', '1', '--json', str(out)]
            + ['--config', 'revlogperf.mmap-index-threshold=1k']
            + ['--config', 'revlogperf.mmap-data-threshold=1k']
            + ['--config', 'revlogperf.mmap-data-budget=1']
        )
        printed = capsys.readouterr().out
        if status == 0:
            break
        warnings.warn('short server run %d failed:\n%s' % (attempt, printed))
    assert status == 0, printed
    runs = {run['config']: run for run in json.loads(out.read_text())}
    assert set(runs) == {'Mercurial', '+revlogperf'}
    for run in runs.values():
        assert run['failed'] == run['wrong'] == 0
        assert run['troubles'] == [] and run['verify'] == 'ok'
        assert run['states'] == [
            'initial',
            'push',
            'strip',
            'push',
            'rollback',
            'upgrade',
        ]
        # the upgraded store is served too
        assert run['requests'] >= 150 and run['after_writer'] > 0
        # the workers' CPU, by page
        assert run['cpu'] and set(run['cpu']) <= set(loadmod.PAGES)
    # the workers mapped data files, one at a time at most
    peaks = runs['+revlogperf']['peaks'].values()
    assert max(p['index maps'] for p in peaks) > 0
    assert max(p['data maps'] for p in peaks) == 1
    assert 'side by side' in printed
    # a passing run counts its workers' refusals: no traceback shown
    assert 'Traceback' not in printed
    # the rounds of earlier runs, side by side again
    assert load_script().main(['--report', str(out), str(out)]) == 0
    printed = capsys.readouterr().out
    assert 'Mercurial: 2 rounds' in printed and 'side by side, 2' in printed


def test_store_maps_are_counted_by_file():
    lines = [
        '7f0-7f1 r--s 00000000 08:01 101 /r/.hg/store/00changelog.d\n',
        '7f1-7f2 r--s 00001000 08:01 101 /r/.hg/store/00changelog.d\n',
        '7f2-7f3 r--s 00000000 08:01 102 /r/.hg/store/00changelog.i\n',
        '7f3-7f4 r--s 00000000 08:01 99 /r/.hg/store/00manifest.d (deleted)\n',
        '7f4-7f5 r-xp 00000000 08:01 5 /usr/lib/libc.so.6\n',
    ]
    assert sampler.store_maps(lines) == {
        'data map paths': [
            '101 /r/.hg/store/00changelog.d',
            '99 /r/.hg/store/00manifest.d (deleted)',
        ],
        'data maps': 2,
        'index maps': 1,
        'deleted maps': 1,
    }


def test_peaks_only_rise():
    peaks = {}
    assert sampler.raise_peaks(peaks, {'fds': 3, 'data maps': 1})
    assert not sampler.raise_peaks(peaks, {'fds': 2, 'data maps': 1})
    assert not sampler.raise_peaks(peaks, None)  # a worker gone
    assert peaks['fds'] == 3 and peaks['data maps'] == 1


def test_descriptor_bounds():
    # core's peaks: no data file read seen, six others (one a template)
    peaks = {'data fds': [0, 0], 'other fds': [6, 0]}

    def failed(data, other, budget=1):
        p = {'data fds': data, 'other fds': other, 'other fd paths': ['x']}
        return report.descriptor_bounds(4242, p, peaks, budget)

    # a map and a read at once; two cache files read while rendering
    assert failed(2, 7) == []
    [line] = failed(3, 7)
    assert 'held 3 data file descriptors' in line and 'budget 1 + 1' in line
    [line] = failed(2, 8)
    assert "8 descriptors besides the store's" in line and ': x' in line
    # core's own run, and no budget set: the data files' are not bounded
    assert failed(9, 6, budget=None) == []


def test_worker_troubles_fail_a_run():
    log = (
        '[INFO] Booting worker with pid: 1\n'
        '[ERROR] Error handling request /rev/1\n'
        'Traceback (most recent call last):\n'
        '[WARNING] Worker (pid:2) exited with code 1\n'
    )
    run = {'log': log, 'booted': 5, 'workers': 4}
    found = report.deaths(run)
    assert any('[ERROR]' in line for line in found)
    assert any('exited with code 1' in line for line in found)
    assert '5 workers booted for 4' in found
    assert report.error_context(log)[0].splitlines()[1].startswith('Traceback')


def node_of(rev):
    return hashlib.sha1(b'%d' % rev).hexdigest().encode()


def test_requests_come_from_the_whole_history_and_the_writer():
    history = b''.join(
        b'%s\0f%d\0\n' % (node_of(rev), rev % 7) for rev in range(500)
    )
    writer = ({'A1': 'a' * 40, 'B2': 'b' * 40}, 'w')
    urls = loadmod.plan_requests(
        lambda *args: history, 'repo', 600, random.Random(1), writer=writer
    )
    changesets = {url.split('/')[2] for page, url in urls if page == 'rev'}
    assert len(changesets) > 60  # not a fixed pool
    assert {'a' * 12, 'b' * 12} & changesets
    files = [url for page, url in urls if page == 'raw-file']
    assert any(url.endswith('/w') for url in files)


def test_the_load_goes_on_until_the_writer_is_done():
    class Served:
        taken = 0

    writer = writermod.Writer([], None, None, 4, tail=3)
    assert writer.more(Served)  # not done
    writer.finished = 10
    Served.taken = 12
    assert writer.more(Served)  # within its tail
    Served.taken = 13
    assert not writer.more(Served)


def test_a_request_may_show_either_state_of_a_step():
    states = [['initial', 's0', 0.0, 5.0], ['push', 's1', 4.0, None]]
    assert oracle.candidate_states(states, {'start': 4.5, 'end': 6}) == [0, 1]
    assert oracle.candidate_states(states, {'start': 6, 'end': 7}) == [1]
    assert oracle.raced_steps(states, {'start': 4.5, 'end': 6}) == ['push']


def test_an_upgrades_store_swap_is_noted(tmp_path):
    hg = tmp_path / '.hg'
    (hg / 'store').mkdir(parents=True)
    (hg / 'requires').write_text('share-safe\nstore\n')
    (hg / 'store' / 'requires').write_text('revlogv1\n')
    files = writermod.requirement_files(str(tmp_path))
    assert len(files) == 2 and not writermod.swapping(files)
    with writermod.LockoutWatch(str(tmp_path), interval=0.001) as watch:
        time.sleep(0.05)
        (hg / 'store' / 'requires').write_text('revlogv1\nupgradeinprogress\n')
        marked = time.monotonic()
        time.sleep(0.05)
        (hg / 'store' / 'requires').unlink()  # the store removed
        time.sleep(0.05)
        readable = time.monotonic()
        (hg / 'store' / 'requires').write_text('revlogv1\nrevlogv2\n')
        time.sleep(0.3)
    [(begin, end)] = watch.lockouts
    # seen readable again long before the watch stopped
    assert begin <= marked and readable <= end < readable + 0.2
    # a repository without the store's requires is not locked out for it
    (hg / 'store' / 'requires').unlink()
    assert not writermod.swapping(writermod.requirement_files(str(tmp_path)))


def refusal_figures(refused, raced, swapped=(0, 0)):
    step = {'refused': refused + swapped[0], 'raced': raced + swapped[1]}
    step.update({'refused locked out': swapped[0], 'locked out': swapped[1]})
    return [{'refused by step': {'upgrade': step}}]


def test_refusals_during_the_store_swap_are_counted_apart(capsys):
    core = refusal_figures(3, 100, swapped=(300, 310))
    # more requests refused in a longer swap: core would refuse them too
    assert (
        report.refusal_bounds(core, refusal_figures(3, 100, (900, 905))) == []
    )
    # the same share as core's, and a few more
    assert report.refusal_bounds(core, refusal_figures(5, 100)) == []
    [line] = report.refusal_bounds(core, refusal_figures(20, 100, (9, 9)))
    assert line.startswith('FAIL: 20% of the requests racing a rewrite')
    printed = capsys.readouterr().out
    assert (
        'refused while the store was swapped   300/310     900/905' in printed
    )


def test_state_labels_are_what_a_step_may_mix(tmp_path):
    # a /graph entry as hgweb served it during a push: the changesets of the
    # state before, with the phases and branch heads of the state after
    before = (
        b'  <span class="phase">draft</span> <span class="branchhead">'
        b'default</span> <span class="tag">tip</span> \n'
        b'  <span class="phase">draft</span> \n'
    )
    during = b'  <span class="tag">tip</span> \n  \n'
    after = b'  <span class="tag">v1</span> \n  <span>other</span>\n'
    for name, body in (('b', before), ('d', during), ('a', after)):
        (tmp_path / name).write_bytes(body)

    def labels_apart(name):
        return oracle.without_state_labels(str(tmp_path), name)

    assert labels_apart('b') == labels_apart('d')
    assert labels_apart('a') != labels_apart('d')
    # an annotation during a rollback (core's, 7.2.4): the file revision
    # a head, or not, by the branch heads of either state
    (tmp_path / 'h0').write_bytes(b'<tr data-ishead="0">\n')
    (tmp_path / 'h1').write_bytes(b'<tr data-ishead="1">\n')
    assert labels_apart('h0') == labels_apart('h1')


def test_a_failed_answer_shows_hgwebs_message(tmp_path):
    page = (
        b'<div class="main">\n<div class="description">\n<p>\n'
        b'An error occurred while processing your request:\n</p>\n<p>\n'
        b'partial read of revlog 00changelog.d; expected 69 bytes\n</p>\n'
        b'</div>\n</div>\n'
    )
    (tmp_path / 'digest').write_bytes(page)
    assert oracle.error_message(str(tmp_path), 'digest') == (
        'An error occurred while processing your request: '
        'partial read of revlog 00changelog.d; expected 69 bytes'
    )


def test_the_sampler_sees_this_process(tmp_path):
    found = sampler.resources(os.getpid())
    assert found['fds'] > 0
    poller = sampler.Sampler(os.getppid(), every=0.01)
    poller.start()
    threading.Event().wait(0.1)
    poller.stop()
    assert os.getpid() in poller.seen


def test_a_torn_reading_of_maps_does_not_raise_a_peak(monkeypatch):
    # a process that let 00changelog.d go and then mapped 00manifest.d,
    # read across the moment it did: the first reading shows both
    one, torn = {'data maps': 1}, {'data maps': 2}
    for counts in (one, torn):
        counts.update({'index maps': 0, 'deleted maps': 0})
    readings = iter([torn, one, one])
    monkeypatch.setattr(sampler, 'read_store_maps', lambda pid: next(readings))
    assert sampler.settled_store_maps(1, {'data maps': 1}) == one
    # a reading within the peaks is not taken again
    readings = iter([one])
    assert sampler.settled_store_maps(1, {'data maps': 1}) == one
    # two readings that agree are the process's state
    readings = iter([torn, torn, one])
    assert sampler.settled_store_maps(1, {'data maps': 1}) == torn


def test_p95_fails_beyond_the_noise_only():
    rng = random.Random(7)

    def rounds(scale, count=3):
        # a round's load moves all its latencies, its tail moves its p95
        out = []
        for _round in range(count):
            drift = scale * rng.lognormvariate(0, 0.06)
            out.append(
                [drift * rng.lognormvariate(4.4, 0.5) for _ in range(220)]
            )
        return out

    alpha = report.P95_RUN_ALPHA / len(loadmod.PAGES)
    core = rounds(1.0)
    low, high = report.p95_ratio_range(core, rounds(1.0), alpha, trials=300)
    assert low < 1 < high
    low, high = report.p95_ratio_range(core, rounds(1.5), alpha, trials=300)
    assert 1 < low < 1.5 < high
    low, high = report.p95_ratio_range(core, rounds(0.6), alpha, trials=300)
    assert high < 1


def test_a_page_broken_mid_way_is_asked_again(tmp_path):
    (tmp_path / 'half').write_bytes(b'<ul>\n<li><a href="Internal Server Error')
    (tmp_path / 'whole').write_bytes(b'<ul>\n<li><a href="/help">help</a></li>')
    assert oracle.broken(str(tmp_path), 'half')
    assert not oracle.broken(str(tmp_path), 'whole')


def test_an_error_is_shown_down_to_its_exception():
    frames = ''.join(
        '  File "f%d.py", line 1, in f\n    f()\n' % i for i in range(30)
    )
    log = (
        '[ERROR] Error handling request GET /log\n'
        'Traceback (most recent call last):\n'
        + frames
        + 'OSError: [Errno 2] No such file or directory\n'
        '[INFO] Booting worker with pid: 2\n'
    )
    shown = report.error_context(log)[0].splitlines()
    assert shown[0] == '[ERROR] Error handling request GET /log'
    assert shown[-1].startswith('OSError')
    assert len(shown) == 13


def test_a_workers_cpu_is_noted_per_page(tmp_path, capsys):
    for page, seconds in (('log', 0.004), ('log', 0.006), ('rev', 0.02)):
        sampler.note_cpu(str(tmp_path), {'PATH_INFO': '/%s/x' % page}, seconds)
    (tmp_path / '1.json').write_text('{}')
    found = sampler.cpu_by_page(str(tmp_path))
    assert found == {'log': [4.0, 6.0], 'rev': [20.0]}
    core = [{'cpu': {'log': [4.0, 6.0]}}, {'cpu': {'log': [6.0]}}]
    ext = [{'cpu': {'log': [2.0, 4.0]}}, {'cpu': {'log': [4.5]}}]
    rows = report.compare_cpu(core, ext)
    assert rows == [('log', 6.0, 4.0, 4.0 / 6.0, 0.6, 0.75)]
    assert 'without the wait' in capsys.readouterr().out
