"""the figures of each run, and the two configurations side by side with
the targets they must meet"""

import random
import statistics

from . import load as loadmod, oracle, sampler

# refusals during a strip, a rollback or an upgrade: their number follows
# how long the steps take, so the share of the requests that raced them is
# compared, with this margin. An upgrade refuses every request while it
# swaps the store, and a refusal is answered at once, so the clients send
# hundreds then, as many as the swap is long: those are counted apart
REFUSAL_MARGIN = 0.05
REFUSAL_SLACK = 2

# A page's p95 moves from round to round by more than revlogperf moves it,
# and by the few requests in its tail. Rounds are resampled, then each
# round's requests, and a page fails where even the low end of the range
# of revlogperf's p95 over core's is above 1. The range is cut at
# P95_RUN_ALPHA over the number of pages: a run where revlogperf changes
# nothing fails about that often. The former rule (above every round of
# core's) failed 48 to 52 runs of 60 simulated with no difference.
P95_TRIALS = 1000
P95_RUN_ALPHA = 0.05


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def p95_ratio_range(core_rounds, ext_rounds, alpha, trials=P95_TRIALS):
    """(low, high): revlogperf's p95 over core's at the alpha and 1 - alpha
    quantiles of ``trials`` resamplings of the rounds (lists of latencies)
    and of each round's requests"""
    rng = random.Random(0)

    def resampled_p95(rounds):
        picked = [rng.choice(rounds) for _round in rounds]
        times = [t for r in picked for t in rng.choices(r, k=len(r))]
        return percentile(times, 0.95)

    ratios = sorted(
        resampled_p95(ext_rounds) / resampled_p95(core_rounds)
        for _trial in range(trials)
    )
    return ratios[int(alpha * trials)], ratios[int((1 - alpha) * trials) - 1]


def deaths(run, dropped=0):
    """what the gunicorn log says of workers that did not end well

    A request whose page fails once sent (a strip shortened a file it
    reads: core too) ends in an [ERROR] line and a dropped connection, and
    one that fails before, in gunicorn's hands (6.3.3 refuses to open a
    repository whose upgrade is under way: core too), in an [ERROR] line
    and a 500; ``dropped`` requests were counted as refused.
    """
    lines = run['log'].splitlines()
    found = [
        line
        for line in lines
        if 'was sent' in line
        or 'terminated due to signal' in line
        or 'exited with code' in line
    ]
    errors = [line for line in lines if '[ERROR]' in line]
    found += errors[dropped:]
    if run['booted'] > run['workers']:
        found.append(
            '%d workers booted for %d' % (run['booted'], run['workers'])
        )
    return found


VERBOSE = False
"""show the workers' tracebacks of a run that passed too (--verbose)"""


def error_context(log, limit=3, frames=12):
    """the first [ERROR] lines of a log, each with the end of its traceback:
    the last ``frames`` lines, down to the exception"""
    lines = log.splitlines()
    shown = []
    for i, line in enumerate(lines):
        if '[ERROR]' not in line or len(shown) >= limit:
            continue
        end = i + 1
        # a traceback's lines are indented, up to the exception's own
        while end < len(lines) and (
            lines[end].startswith((' ', 'Traceback')) or end == i + 1
        ):
            end += 1
        tail = lines[max(i + 1, end + 1 - frames) : end + 1]
        shown.append('\n'.join([line] + tail))
    return shown


def rewrite_raced(run, result):
    """the first strip, rollback or upgrade a request overlapped, or None"""
    for name in oracle.raced_steps(run['states'], result):
        if name in oracle.REWRITES:
            return name
    return None


def refusals_by_step(run, refused, bodies):
    """{step: figures} of the requests that raced each rewrite: how many,
    how many refused, how many of each overlapped the store swap of an
    upgrade (core refuses every request then), and why they were refused
    """
    refused_ids = {id(r) for r in refused}
    steps = {}
    for r in run['results']:
        name = rewrite_raced(run, r)
        if name is None:
            continue
        step = steps.setdefault(
            name,
            {
                'raced': 0,
                'refused': 0,
                'locked out': 0,
                'refused locked out': 0,
                'why': {},
            },
        )
        locked = oracle.during_swap(run.get('lockouts', ()), r)
        step['raced'] += 1
        step['locked out'] += locked
        if id(r) in refused_ids:
            step['refused'] += 1
            step['refused locked out'] += locked
            why = refusal_reason(bodies, r)
            step['why'][why] = step['why'].get(why, 0) + 1
    return steps


def refusal_reason(bodies, result):
    """a refused request's error, shortly: the exception the client met,
    or the first words of hgweb's error page"""
    if result['status'] is None:
        text = result['digest']
    else:
        text = '%d %s' % (
            result['status'],
            oracle.error_message(bodies, result['digest']),
        )
    return text[:70]


def refusal_bounds(core, ext):
    """print the refusals of each configuration; a FAIL line where
    revlogperf refused more than core, outside the store swaps"""

    def total(runs, key):
        return sum(
            step[key]
            for f in runs
            for step in f.get('refused by step', {}).values()
        )

    swapped = [
        (total(runs, 'refused locked out'), total(runs, 'locked out'))
        for runs in (core, ext)
    ]
    print(
        'refused while the store was swapped %5d/%-5d %5d/%-5d'
        % (*swapped[0], *swapped[1])
    )
    refused = [
        total(runs, 'refused') - s[0] for runs, s in zip((core, ext), swapped)
    ]
    raced = [
        total(runs, 'raced') - s[1] for runs, s in zip((core, ext), swapped)
    ]
    shares = [r / max(1, n) for r, n in zip(refused, raced)]
    print(
        'refused of the others racing a rewrite %5d/%-5d %5d/%-5d  %.2f %.2f'
        % (refused[0], raced[0], refused[1], raced[1], *shares)
    )
    if (
        shares[1] > shares[0] + REFUSAL_MARGIN
        and refused[1] > refused[0] + REFUSAL_SLACK
    ):
        return [
            'FAIL: %.0f%% of the requests racing a rewrite (the store swap'
            ' aside) refused, core %.0f%% + a margin of %.0f%%'
            % (100 * shares[1], 100 * shares[0], 100 * REFUSAL_MARGIN)
        ]
    return []


def report(run, answers, bodies, failed, wrong, refused, mixed):
    """print one run's figures; (its checks passed, its figures)"""
    after = sum(1 for r in run['results'] if r['start'] > run['writer_done'])
    print(
        '== %s: %d requests in %.1f s, %d after the writer\'s last step'
        % (run['config'], len(run['results']), run['elapsed'], after)
    )
    print(
        '%-10s %8s %9s %9s %9s'
        % ('page', 'answered', 'p50 ms', 'p95 ms', 'CPU ms')
    )
    cpu = run.get('cpu', {})
    # a refused request is answered at once: core refuses many more during
    # 6.3's upgrade, and counting them would lower its latencies
    unanswered = {id(r) for r in failed + refused}
    latency, times_by_page = {}, {}
    for page in loadmod.PAGES:
        times = [
            (r['end'] - r['start']) * 1000
            for r in run['results']
            if r['page'] == page and id(r) not in unanswered
        ]
        if times:
            times_by_page[page] = times
            latency[page] = {
                'count': len(times),
                'p50': statistics.median(times),
                'p95': percentile(times, 0.95),
            }
            spent = cpu.get(page)
            print(
                '%-10s %8d %9.1f %9.1f %9s'
                % (
                    page,
                    len(times),
                    latency[page]['p50'],
                    latency[page]['p95'],
                    '%.1f' % statistics.median(spent) if spent else '-',
                )
            )
    columns = ('worker', 'USS MB', 'PSS MB', 'RSS MB', 'fds', '.d fds')
    columns += ('other', 'data maps', 'index maps', 'deleted')
    columns += ('fds at their peak',)
    print('%-8s %7s %7s %7s %5s %6s %5s %10s %11s %8s  %s' % columns)
    for pid, mem in sorted(run['memory'].items()):
        peak = run['peaks'].get(pid, {})
        print(
            '%-8d %7.1f %7.1f %7.1f %5d %6d %5d %10d %11d %8d  %s'
            % (
                pid,
                mem['uss'] / 2**20,
                mem['pss'] / 2**20,
                mem['rss'] / 2**20,
                *(peak.get(key, 0) for key in sampler.MEASURES),
                ' '.join(
                    '%s:%d' % kind
                    for kind in sorted(peak.get('fds by kind', {}).items())
                ),
            )
        )
    print(
        'writer: '
        + ', '.join(
            '%s %.2f-%s'
            % (
                name,
                max(0, begin - run['started']),
                '%.2f' % (until - run['started']) if until else 'end',
            )
            for name, _path, begin, until in run['states']
        )
        + ''.join(
            ', store swapped %.2f-%.2f'
            % (begin - run['started'], end - run['started'])
            for begin, end in run.get('lockouts', ())
        )
    )
    total_pss = sum(m['pss'] for m in run['memory'].values())
    died = deaths(run, len(refused))
    print('total PSS of the workers: %.1f MB' % (total_pss / 2**20))
    print(
        'failed %d, wrong %d, refused during strip, rollback or upgrade %d, '
        'branch heads or phases of another state during a step %d, '
        'worker troubles %d, booted %d, verify: %s'
        % (
            len(failed),
            len(wrong),
            len(refused),
            len(mixed),
            len(died),
            run['booted'],
            run['verify'].strip(),
        )
    )
    by_step = refusals_by_step(run, refused, bodies)
    for name, step in by_step.items():
        print(
            '  racing the %s: %d/%d refused; while the store was swapped,'
            ' %d/%d'
            % (
                name,
                step['refused'],
                step['raced'],
                step['refused locked out'],
                step['locked out'],
            )
        )
        for why, count in sorted(step['why'].items(), key=lambda i: -i[1])[:3]:
            print('    %5d  %s' % (count, why))
    for r in (failed + wrong)[:10]:
        candidates = oracle.candidate_states(run['states'], r)
        print(
            '  %s %s: %s at %.2f-%.2f s, in %s'
            % (
                'failed' if r in failed else 'wrong',
                r['url'],
                r['status'],
                r['start'] - run['started'],
                r['end'] - run['started'],
                ' or '.join(run['states'][i][0] for i in candidates),
            )
        )
    for r in wrong[:2]:
        for i in oracle.candidate_states(run['states'], r):
            expected = answers.get((i, r['url']))
            if expected is not None:
                for line in oracle.difference(bodies, r['digest'], expected[1]):
                    print('    ' + line)
    for r in failed[:3]:
        if r['status'] is None:
            print('    ' + r['digest'])  # the exception the client met
        else:
            print('    ' + oracle.error_message(bodies, r['digest']))
    # a passing run's [ERROR] lines are the refusals counted above, which
    # core's workers log alike: their tracebacks would read as a failure
    logged = run['log'].count('[ERROR]')
    if failed or wrong or died or VERBOSE:
        for text in error_context(run['log']):
            print('    | ' + text.replace('\n', '\n    | '))
    elif logged:
        print(
            "  %d [ERROR] lines in the workers' log, each a request refused"
            ' above, as core refuses it (--verbose shows their tracebacks)'
            % logged
        )
    for line in [d for d in died if '[ERROR]' not in d][:5]:
        print('  ' + line)
    for line in run['writer_error']:
        print('  writer: ' + line)
    budget = run['budget']
    over_budget = budget is not None and any(
        p.get('data maps', 0) > budget for p in run['peaks'].values()
    )
    if over_budget:
        print(
            'FAIL: a worker held more data file maps than the budget (%d)'
            % budget
        )
        for pid, p in sorted(run['peaks'].items()):
            if p.get('data maps', 0) > budget:
                print('  %s: %s' % (pid, ', '.join(p['data map paths'])))
    ok = not (
        failed
        or wrong
        or died
        or over_budget
        or run['writer_error']
        or run['verify'] != 'ok'
    )
    return ok, {
        'config': run['config'],
        'passed': ok,
        'elapsed': run['elapsed'],
        'latency': latency,
        'times': times_by_page,
        'cpu': cpu,
        'memory': {str(k): v for k, v in run['memory'].items()},
        'peaks': {str(k): v for k, v in run['peaks'].items()},
        'budget': budget,
        'total_pss': total_pss,
        'requests': len(run['results']),
        'after_writer': after,
        'failed': len(failed),
        'wrong': len(wrong),
        'refused': len(refused),
        'refused by step': by_step,
        'mixed': len(mixed),
        'troubles': died,
        'booted': run['booted'],
        'verify': run['verify'],
        'states': [s[0] for s in run['states']],
    }


OTHER_FDS_MARGIN = 1
"""descriptors besides the store's a worker may hold above core's peak:
each configuration's peak is sampled, and a worker that renders a page
while it reads a cache file holds both (template and rev-branch-cache
files, two at once in about one short run in ten, in either one)"""


def descriptor_bounds(pid, p, peaks, budget):
    """the FAIL lines of a revlogperf worker's descriptors: its data files'
    within the budget (a map holds one) and the file being read, and the
    others (revlogperf opens none) within core's peak plus a margin"""
    failed = []
    # core opens the data file it reads, one at a time in a worker, for
    # less than the sampler's 20 ms: its sampled peak is often 0. The
    # file a read maps, or reads as core does while the budget is full,
    # is that one.
    reading = max(peaks['data fds'][0], 1)
    core_other = peaks['other fds'][0]
    if budget is not None and p['data fds'] > budget + reading:
        failed.append(
            'FAIL: worker %s held %d data file descriptors, above the budget'
            ' %d + %d being read' % (pid, p['data fds'], budget, reading)
        )
    if p['other fds'] > core_other + OTHER_FDS_MARGIN:
        failed.append(
            'FAIL: worker %s held %d descriptors besides the store\'s,'
            ' above core\'s %d + %d: %s'
            % (
                pid,
                p['other fds'],
                core_other,
                OTHER_FDS_MARGIN,
                ', '.join(p.get('other fd paths', ())),
            )
        )
    return failed


def compare_cpu(core, ext):
    """print what a worker's CPU spends on each page, without the queue
    that the latencies include: (page, core's median ms, revlogperf's, the
    ratio, the lowest and highest ratio of a round's pair) per page"""
    rows = []
    for page in loadmod.PAGES:
        pairs = [
            (a['cpu'][page], b['cpu'][page])
            for a, b in zip(core, ext)
            if a.get('cpu', {}).get(page) and b.get('cpu', {}).get(page)
        ]
        if not pairs:
            continue
        a50 = statistics.median([t for a, _b in pairs for t in a])
        b50 = statistics.median([t for _a, b in pairs for t in b])
        ratios = [statistics.median(b) / statistics.median(a) for a, b in pairs]
        rows.append((page, a50, b50, b50 / a50, min(ratios), max(ratios)))
    if rows:
        print(
            'a worker\'s CPU per answered request, median (the page\'s '
            'work, without the wait)'
        )
        print(
            '%-10s %8s %8s %6s %11s'
            % ('page', 'CPU ms', '+rp', 'ratio', 'spread')
        )
        for row in rows:
            print('%-10s %8.2f %8.2f %6.2f %5.2f-%-5.2f' % row)
    return rows


def compare(figures):
    """Mercurial and revlogperf side by side, every round pooled, and the
    targets: (FAIL lines of correctness or bounds, FAIL lines of speed or
    memory)"""
    core = [f for f in figures if f['config'] == 'Mercurial']
    ext = [f for f in figures if f['config'] == '+revlogperf']
    bounds, speed = [], []
    print(
        '== side by side, %d rounds (ratio: revlogperf / Mercurial, below 1 '
        'is better; spread: the rounds\' lowest and highest)' % len(core)
    )
    columns = ('page', 'p50', '+rp p50', 'ratio', 'p95', '+rp p95', 'ratio')
    columns += ('core p95 spread', 'ratio range')
    print('%-10s %8s %8s %6s %8s %8s %6s %15s %11s' % columns)
    alpha = P95_RUN_ALPHA / len(loadmod.PAGES)
    for page in loadmod.PAGES:
        a = [f['times'][page] for f in core if f['times'].get(page)]
        b = [f['times'][page] for f in ext if f['times'].get(page)]
        if not (a and b):
            continue
        pooled_a = [t for r in a for t in r]
        pooled_b = [t for r in b for t in r]
        a50, b50 = statistics.median(pooled_a), statistics.median(pooled_b)
        a95, b95 = percentile(pooled_a, 0.95), percentile(pooled_b, 0.95)
        rounds = [percentile(r, 0.95) for r in a]
        low, high = p95_ratio_range(a, b, alpha)
        row = (page, a50, b50, b50 / a50, a95, b95, b95 / a95)
        row += (min(rounds), max(rounds), low, high)
        print(
            '%-10s %8.1f %8.1f %6.2f %8.1f %8.1f %6.2f %7.1f-%-7.1f'
            ' %5.2f-%-5.2f' % row
        )
        if low > 1:
            speed.append(
                'FAIL: /%s p95 %.1f ms against core\'s %.1f ms, %.2f-%.2f'
                ' times it beyond the noise' % (page, b95, a95, low, high)
            )

    compare_cpu(core, ext)

    def median_of(runs, key):
        return statistics.median(
            sum(m[key] for m in f['memory'].values())
            / (len(f['memory']) if key != 'pss' else 1)
            for f in runs
        )

    for label, key in (
        ('USS per worker', 'uss'),
        ('heap per worker', 'anon'),
        ('PSS, all workers', 'pss'),
    ):
        a, b = median_of(core, key), median_of(ext, key)
        print(
            '%-22s %8.1f MB %8.1f MB %6.2f'
            % (label, a / 2**20, b / 2**20, b / a)
        )
    a, b = median_of(core, 'pss'), median_of(ext, 'pss')
    if b > a:
        speed.append(
            'FAIL: total PSS %.1f MB, above core\'s %.1f MB'
            % (b / 2**20, a / 2**20)
        )
    peaks = {}
    for key in sampler.MEASURES:
        peaks[key] = [
            max(
                [p.get(key, 0) for f in runs for p in f['peaks'].values()]
                or [0]
            )
            for runs in (core, ext)
        ]
        print('peak %-17s %8d    %8d' % (key + ', a worker', *peaks[key]))
    budget = ext[0]['budget'] if ext else None
    for f in ext:
        for pid, p in f['peaks'].items():
            bounds.extend(descriptor_bounds(pid, p, peaks, budget))
    bounds.extend(refusal_bounds(core, ext))
    for line in bounds + speed:
        print(line)
    return bounds, speed
