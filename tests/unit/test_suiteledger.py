"""contrib/suiteledger.py: a run's rows replace a test's older ones, the
next shard is the first not run, and the summary counts what is kept"""

import os
import sys

sys.path.insert(
    0, os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')
)

import suiteledger  # noqa: E402


def rows(*items):
    return [
        {'test': test, 'plain': plain, 'revlogperf': other, 'status': status}
        for test, plain, other, status in items
    ]


def test_a_later_run_replaces_a_test_s_row(tmp_path):
    ledger = str(tmp_path / 'r' / '7.2.4-c-forced.jsonl')
    shards = [['test-a.t', 'test-b.t#x'], ['test-b.t#y'], ['test-c.py']]
    assert suiteledger.next_shard(ledger, shards) == ('1/3', shards[0])
    first = rows(
        ('test-a.t', 'success', 'failure 0a1b2c', 'differs'),
        ('test-b.t#x', 'skip', 'skip', 'same'),
    )
    first[0]['lines'] = ['+ line %d' % i for i in range(50)]
    suiteledger.record(
        ledger, '1/3', first, 100.4, 'abc1234', 3, 4, '2026-12-07'
    )
    assert suiteledger.next_shard(ledger, shards) == ('2/3', ['test-b.t#y'])
    # a shard is done when its tests and cases are, whichever run did them
    finer = [['test-a.t'], ['test-b.t#x', 'test-c.py'], ['test-b.t#y']]
    assert suiteledger.next_shard(ledger, finer) == ('2/3', ['test-c.py'])
    meta, kept = suiteledger.load(ledger)
    assert meta['shards']['1/3'] == {
        'commit': 'abc1234',
        'date': '2026-12-07',
        'seconds': 100,
        'tests': 2,
    }
    assert len(kept['test-a.t']['lines']) == 20
    summary = suiteledger.summarize(ledger)
    assert '2 of 3 tests, 2 of 4 results: 0 same, 1 differ' in summary
    assert '1 skipped in both' in summary
    assert 'differs: test-a.t (success, failure 0a1b2c)' in summary

    # the fix's rerun of that one test replaces its row, not the shard's
    again = rows(('test-a.t', 'success', 'success', 'same'))
    suiteledger.record(ledger, 'rerun.txt', again, 5, 'def5678', 3, 4)
    meta, kept = suiteledger.load(ledger)
    assert kept['test-a.t']['shard'] == 'rerun.txt'
    assert 'lines' not in kept['test-a.t']
    summary = suiteledger.summarize(ledger)
    assert '1 same, 0 differ' in summary and 'differs:' not in summary
    assert 'abc1234, def5678' in summary


def test_every_kept_row_is_a_known_comparison():
    """the committed ledgers parse, and name only statuses compare gives"""
    folder = os.path.join(os.path.dirname(__file__), '..', 'hg-suite-results')
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        meta, kept = suiteledger.load(os.path.join(folder, name))
        assert meta['shards'], name
        for row in kept.values():
            assert row['status'] in suiteledger.STATUSES, (name, row)
            assert row['shard'] in meta['shards'], (name, row)
