"""the suite's statistics, and the sample repository generator's
determinism"""

import os
import subprocess
import sys

import pytest

from hgext3rd.revlogperf.perf import tasks, timing

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def test_best_of_is_the_fastest_repeat(monkeypatch):
    clock = iter([0.0, 5.0, 10.0, 12.0, 20.0, 26.0])
    monkeypatch.setattr(timing.time, 'perf_counter', lambda: next(clock))
    calls = []
    assert timing.best_of(lambda: calls.append(1), 4, 3) == 2.0
    assert len(calls) == 12  # 3 repeats of 4 calls


def test_medians_and_ratios():
    rows = timing.medians_and_ratios([[3.0, 1.0, 2.0], [1.0, 0.5, 4.0, 2.0]])
    assert rows == [(2.0, 1.0), (1.5, 0.75)]


def test_ratio_to_a_zero_median_is_zero():
    assert timing.medians_and_ratios([[0.0], [1.0]]) == [(0.0, 0.0), (1.0, 0.0)]


def test_noise_is_judged_from_every_round():
    current = [1.0, 1.0, 1.0]
    # the A/A median is exactly 1.00, but one of its rounds was 1.15 off
    again = [1.0, 0.85, 1.02]
    steady = [0.90, 0.90, 0.90]  # no further from 1.00 than that round
    faster = [0.50, 0.55, 0.52]
    crossing = [0.70, 1.10, 0.60]  # rounds on both sides of 1.00
    within = timing.within_noise([current, again, steady, faster, crossing])
    assert within == [False, False, True, False, True]


def test_sample_is_sorted_distinct_and_seeded():
    first = tasks.sample_revisions(1000, 500, seed=3)
    assert first == sorted(set(first)) and len(first) == 500
    assert first == tasks.sample_revisions(1000, 500, seed=3)
    assert first != tasks.sample_revisions(1000, 500, seed=4)
    assert tasks.sample_revisions(10, 500) == list(range(10))


def node_ids(path):
    out = subprocess.run(
        [
            os.path.join(os.path.dirname(sys.executable), 'hg'),
            '-R',
            path,
            'log',
            '-T',
            '{node}\n',
        ],
        check=True,
        stdout=subprocess.PIPE,
        env={**os.environ, 'HGRCPATH': ''},
    ).stdout
    return out.split()


@pytest.mark.parametrize(
    'options', [[], ['--legacy-changelog', '--large-filelog']]
)
def test_generator_is_deterministic(tmp_path, options):
    made = []
    for name in ('a', 'b'):
        subprocess.run(
            [
                sys.executable,
                os.path.join(ROOT, 'contrib', 'mkrepo.py'),
                str(tmp_path / name),
                '--changesets',
                '30',
                '--files',
                '20',
                '--seed',
                '7',
                '-q',
            ]
            + options,
            check=True,
        )
        made.append(node_ids(str(tmp_path / name)))
    assert len(made[0]) == 30
    assert made[0] == made[1]
