"""contrib/hgsuite.py: shards cover the suite once, and a difference is
expected only where every differing line has a reviewed reason"""

import argparse
import os
import subprocess
import sys

import pytest

sys.path.insert(
    0, os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')
)

import hgsuite  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def test_the_shards_cover_every_test_once():
    tests = ['test-%03d.t' % i for i in range(100)]
    shards = [hgsuite.shard(tests, '%d/7' % k) for k in range(1, 8)]
    assert sorted(sum(shards, [])) == tests
    with pytest.raises(SystemExit):
        hgsuite.shard(tests, '8/7')


def test_every_expected_difference_has_a_reason(tmp_path):
    expected = hgsuite.read_expected(
        os.path.join(ROOT, 'tests', 'hg-suite-expected.txt')
    )
    assert expected
    for entries in expected.values():
        assert all(len(reason) > 20 for _pattern, reason in entries)
    shared = tmp_path / 'shared.txt'
    shared.write_text(
        '# why: one race, in two tests\ntest-x.t,test-y.t\t^-a$\n'
    )
    both = hgsuite.read_expected(str(shared))
    assert sorted(both) == ['test-x.t', 'test-y.t']
    bare = tmp_path / 'bare.txt'
    bare.write_text('test-x.t\t^\\+foo\n')
    with pytest.raises(SystemExit):
        hgsuite.read_expected(str(bare))


def test_a_difference_is_expected_only_if_every_line_is(tmp_path):
    (tmp_path / 'test-a.t').write_text('  $ hg help\n  one\n')
    listed = tmp_path / 'expected.txt'
    listed.write_text(
        '# why: the extension adds a line\ntest-a.t\t^\\+  two$\n'
    )
    args = argparse.Namespace(tests_dir=str(tmp_path))
    expected = hgsuite.read_expected(str(listed))
    plain = {'test-a.t': ('success', None)}
    added = {'test-a.t': ('failure', '  $ hg help\n  one\n  two\n')}
    changed = {'test-a.t': ('failure', '  $ hg help\n  three\n  two\n')}
    rows, counts = hgsuite.compare(args, ['test-a.t'], plain, added, expected)
    assert counts['expected'] == 1 and counts['differ'] == 0
    rows, counts = hgsuite.compare(args, ['test-a.t'], plain, changed, expected)
    assert counts['differ'] == 1
    assert rows[0]['lines'] == ['-  one', '+  three', '+  two']
    same = {'test-a.t': ('skip', None)}
    rows, counts = hgsuite.compare(args, ['test-a.t'], same, same, expected)
    assert counts['skipped'] == 1


def test_an_expected_line_that_moves_does_not_hide_others(tmp_path):
    # a race's line, expected to come and go, printed after another
    # command in each run: the diff takes that command's lines with it
    listed = tmp_path / 'expected.txt'
    listed.write_text(
        '# why: a race prints it, in core too\ntest-a.t\t^[-+]  boom$\n'
    )
    expected = hgsuite.read_expected(str(listed))
    args = argparse.Namespace(tests_dir=str(tmp_path))
    plain = {'test-a.t': ('failure', '  $ a\n  boom\n  $ b\n  out\n')}
    moved = {'test-a.t': ('failure', '  $ a\n  $ b\n  out\n  boom\n')}
    rows, counts = hgsuite.compare(args, ['test-a.t'], plain, moved, expected)
    assert counts['expected'] == 1, rows
    assert rows[0]['reasons'] == ['a race prints it, in core too']
    # without the race's lines the outputs must still be the same
    other = {'test-a.t': ('failure', '  $ a\n  $ b\n  other\n  boom\n')}
    rows, counts = hgsuite.compare(args, ['test-a.t'], plain, other, expected)
    assert counts['differ'] == 1


def test_only_what_did_not_pass_is_run_plainly():
    other = {
        'test-pass.t': ('success', None),
        'test-cases.t#a': ('success', None),
        'test-cases.t#b': ('failure', 'output'),
        'test-skip.t': ('skip', None),
        'test-kept.t': ('failure', 'output'),
    }
    tests = ['test-pass.t', 'test-cases.t', 'test-skip.t', 'test-kept.t']
    todo, implied = hgsuite.plain_needed(tests, other, {'test-kept.t'})
    # a skip may be revlogperf's doing: run it plainly too
    assert todo == ['test-cases.t', 'test-skip.t']
    assert implied == {'test-pass.t': ('success', None)}
    # a test that gave no result at all is run plainly
    assert hgsuite.plain_needed(['test-gone.t'], {}, set())[0] == [
        'test-gone.t'
    ]


def test_helper_scripts_of_the_tests_can_import_mercurial(tmp_path):
    # run-tests.py's python3 on PATH is a symlink, outside any venv
    env = hgsuite.test_environment()
    script = tmp_path / 'helper.py'
    script.write_text('import mercurial.util\n')
    link = tmp_path / 'python3'
    os.symlink(os.path.realpath(sys.executable), link)
    subprocess.run([str(link), str(script)], env=env, check=True)


def test_a_listed_case_is_compared_and_a_missing_one_differs(tmp_path):
    (tmp_path / 'test-a.t').write_text('#testcases x y\n  $ true\n')
    args = argparse.Namespace(tests_dir=str(tmp_path))
    tests = ['test-a.t#y', 'test-b.t']
    plain = {'test-a.t#x': ('failure', 'x'), 'test-a.t#y': ('success', None)}
    other = {'test-a.t#y': ('success', None)}
    rows, counts = hgsuite.compare(args, tests, plain, other, {})
    # case x was not asked for; test-b.t gave no result at all
    assert [(r['test'], r['status']) for r in rows] == [
        ('test-b.t', 'differs'),
        ('test-a.t#y', 'same'),
    ]
    assert counts['differ'] == 1 and counts['same'] == 1
    todo, implied = hgsuite.plain_needed(tests, other, set())
    assert todo == ['test-b.t'] and implied == {'test-a.t#y': ('success', None)}


@pytest.mark.skipif(
    not os.environ.get('HG_TESTS_DIR'), reason='no run-tests.py (make test)'
)
def test_cases_are_named_as_run_tests_names_them(tmp_path):
    # read by the release's own run-tests.py
    os.symlink(
        os.path.join(os.environ['HG_TESTS_DIR'], 'run-tests.py'),
        tmp_path / 'run-tests.py',
    )
    test = tmp_path / 'test-a.t'
    test.write_text('#testcases x y\n#testcases v1 v2\n  $ true\n')
    cases = ['%s#%s' % (a, b) for a in 'xyz' for b in ('v1', 'v2', 'v3')]
    assert [
        c for c in cases if hgsuite.in_release(str(tmp_path), 'test-a.t#' + c)
    ] == [
        'x#v1',
        'x#v2',
        'y#v1',
        'y#v2',
    ]
    assert hgsuite.in_release(str(tmp_path), 'test-a.t#y#v2')
    assert not hgsuite.in_release(str(tmp_path), 'test-a.t#y')
    assert hgsuite.in_release(str(tmp_path), 'test-a.t')
    assert not hgsuite.in_release(str(tmp_path), 'test-b.t')


@pytest.mark.skipif(
    not os.environ.get('HG_TESTS_DIR'), reason='no release tests (make test)'
)
def test_every_test_of_ci_s_selection_runs_on_this_release():
    """a misspelt case would leave a test out of CI silently: each test
    of tests/hg-suite-ci.txt has one entry this release runs"""
    tests_dir = os.environ['HG_TESTS_DIR']
    listed = hgsuite.read_list(os.path.join(ROOT, 'tests', 'hg-suite-ci.txt'))
    files = {hgsuite.test_file(t) for t in listed}
    running = {
        hgsuite.test_file(t) for t in listed if hgsuite.in_release(tests_dir, t)
    }
    assert running == files


def test_the_next_shard_comes_from_a_ledger(tmp_path, capsys):
    common = ['--hg', 'hg', '--tests-dir', str(tmp_path), '--extension', '.']
    with pytest.raises(SystemExit, match='needs --record'):
        hgsuite.main(common + ['--all', '--shard', 'next/2'])
    ledger = str(tmp_path / 'ledger.jsonl')
    (tmp_path / 'run-tests.py').write_text(
        'def parsettestcases(path):\n'
        '    return [[b"a", b"b"]] if path.endswith(".t") else []\n'
    )
    (tmp_path / 'test-x.t').write_text('')
    (tmp_path / 'test-y.py').write_text('')
    cases = hgsuite.all_cases(str(tmp_path))
    assert cases == ['test-x.t#a', 'test-x.t#b', 'test-y.py']
    done = [{'test': c, 'plain': 'success', 'status': 'same'} for c in cases]
    hgsuite.suiteledger.record(ledger, 'list', done, 1, 'abc', 2, 3)
    argv = common + ['--all', '--shard', 'next/2', '--record', ledger]
    assert hgsuite.main(argv) == 0
    assert 'has every result of the release' in capsys.readouterr().out
