"""make test says where it is: each step's number and the minutes left"""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def _echoed(target, *variables):
    """what ``make -n TARGET`` would echo (its @echo lines)"""
    # not the variables of a make that runs these tests (make test's
    # PROGRESS=1 reaches its children through MAKEFLAGS and their
    # environment)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'PROGRESS')
    }
    out = subprocess.run(
        ['make', '-n', '--no-print-directory', target] + list(variables),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout.decode()
    return re.findall(r'^echo "(.*)"', out, re.M)


@pytest.mark.skipif(shutil.which('make') is None, reason='no make')
def test_each_step_of_make_test_says_its_number_and_the_time_left():
    newest = ['HG_VERSION=7.2.4', 'MATRIX=6.3.3 7.2.4', 'PROGRESS=1']
    older = ['HG_VERSION=6.3.3', 'MATRIX=6.3.3 7.2.4', 'PROGRESS=1']
    assert _echoed('test-t-c', *newest)[0].startswith(
        '[4/7, about 16 min left] run-tests.py C modules'
    )
    # the oldest release runs Mercurial's own selection last
    assert _echoed('test-t-pure', *older)[0].startswith(
        '[5/6, about 9 min left] run-tests.py pure modules'
    )
    assert _echoed('test-hg-suite-ci', *older)[-1].startswith(
        "[6/6, about 5 min left] Mercurial's own tests, forced profile"
    )
    middle = ['HG_VERSION=6.6.3', 'MATRIX=6.3.3 6.6.3 7.2.4', 'PROGRESS=1']
    assert _echoed('test-t-pure', *middle)[0].startswith(
        '[5/5, about 4 min left] run-tests.py pure modules'
    )
    # a step run alone, or by test-matrix, has no number
    assert _echoed('test-t-c', 'HG_VERSION=7.2.4')[0].startswith(
        'run-tests.py C modules'
    )
