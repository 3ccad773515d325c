"""contrib/testsummary.py: every step counts, and a step without a
result is a failure"""

import os
import sys

sys.path.insert(
    0, os.path.join(os.path.dirname(__file__), '..', '..', 'contrib')
)

import testsummary  # noqa: E402

SUITE = (
    '19 tests run (27 results, forced, tests/hg-suite-ci.txt): 24 same, '
    '1 differ, 1 expected, 1 skipped in both; plain run 40 s (2 tests), '
    'revlogperf run 500 s\n'
)


def write(folder, name, text):
    (folder / name).write_text(text)


def passing_steps(folder, version, t_policies=('c', 'pure')):
    """the style checks, pytest and the .t tests of ``version``, passed"""
    write(folder, 'style.log', 'style: ok\n')
    write(folder, 'pytest-%s-c.log' % version, '10 passed, 1 skipped in 3s\n')
    write(folder, 'pytest-%s-py.log' % version, '10 passed in 3s\n')
    for policy in t_policies:
        write(
            folder,
            't-%s-%s.log' % (version, policy),
            '# Ran 3 tests, 0 skipped, 0 failed.\n',
        )


def test_the_hg_suite_step_counts_differences_as_failures(tmp_path, capsys):
    passing_steps(tmp_path, '7.2.4')
    write(tmp_path, 'suite-7.2.4-forced.log', SUITE)
    assert testsummary.main(str(tmp_path), ['7.2.4']) == 1
    out = capsys.readouterr().out
    assert 'hg suite forced 25 passed, 1 failed, 1 skipped' in out
    assert out.splitlines()[-1] == '51 passed, 1 failed, 2 skipped'


def test_a_step_that_gave_no_result_is_a_failure(tmp_path, capsys):
    write(tmp_path, 'style.log', 'style: ok\n')
    write(tmp_path, 'suite-7.2.4-forced.log', 'Traceback ...\n')
    assert testsummary.main(str(tmp_path), ['7.2.4']) == 1
    out = capsys.readouterr().out
    assert 'hg suite forced no result' in out
    # four missing logs and a suite run cut short
    assert out.splitlines()[-1] == '0 passed, 5 failed, 0 skipped'


def test_a_middle_release_of_ci_runs_its_t_tests_with_c_only(tmp_path, capsys):
    passing_steps(tmp_path, '6.6.3', t_policies=('c',))
    assert testsummary.main(str(tmp_path), ['6.6.3'], ['6.6.3']) == 0
    out = capsys.readouterr().out
    assert '.t c 3 passed\n' in out
    # elsewhere a missing pure run is a failure
    assert testsummary.main(str(tmp_path), ['6.6.3']) == 1
