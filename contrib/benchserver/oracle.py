"""what each answer should have been: a fresh ``hg serve`` without
revlogperf on a copy of each state the writer left"""

import collections
import difflib
import os
import re
import signal
import subprocess
import threading

from . import hgprocess, load as loadmod


def references(hg_path, run, clients, bodies):
    """{(state index, url): (status, digest)} for the URLs answered in
    each state"""
    needed = collections.defaultdict(set)
    for r in run['results']:
        for i in candidate_states(run['states'], r):
            needed[i].add(r['url'])
    hgrc = os.path.join(os.path.dirname(run['states'][0][1]), 'hgrc-reference')
    hgprocess.write_hgrc(hgrc, False)
    hg = hgprocess.Hg(hg_path, hgrc)
    answers = {}
    for i, state in enumerate(run['states']):
        urls = sorted(needed.get(i, ()))
        if not urls:
            continue
        port = hgprocess.free_port()
        server = subprocess.Popen(
            [hg_path, 'serve', '-R', state[1], '-a', '127.0.0.1']
            + ['-p', str(port)],
            env=hg.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            hgprocess.wait_for_port(port, server)
            # hg serve answers in threads, and on Python < 3.12 two threads
            # running a module demandimport left unexecuted can fail: one
            # request of each page first, alone
            warmed = set()
            for url in list(urls):
                page = url.split('/')[1]
                if page not in warmed:
                    warmed.add(page)
                    urls.remove(url)
                    answers[(i, url)] = loadmod.fetch(port, url, bodies)
            lock = threading.Lock()

            def client():
                while True:
                    with lock:
                        if not urls:
                            return
                        url = urls.pop()
                    answer = loadmod.fetch(port, url, bodies)
                    with lock:
                        answers[(i, url)] = answer

            threads = [threading.Thread(target=client) for _ in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            # hg serve itself fails a page now and then, mid-way (seen on
            # 6.3.3 and 7.2.4: '<a href="Internal Server Error'): asked
            # again, alone, it answers
            for (k, url), answer in list(answers.items()):
                for _again in range(3):
                    if k != i or not broken(bodies, answer[1]):
                        break
                    answer = answers[(k, url)] = loadmod.fetch(
                        port, url, bodies
                    )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    return answers


def broken(bodies, digest):
    """does the page end in hgweb's error, once sent?"""
    with open(os.path.join(bodies, digest), 'rb') as fp:
        return b'Internal Server Error' in fp.read()


def candidate_states(states, result):
    """the states a request could have been answered in"""
    found = []
    for i, (_name, _path, begin, until) in enumerate(states):
        if begin <= result['end'] and (
            until is None or result['start'] <= until
        ):
            found.append(i)
    return found


# the writer's steps during which core itself refuses requests or drops
# their connections: a strip and a rollback shorten files (a reader that
# loaded the index before reads past the end of the data file after:
# 'partial read of revlog 00changelog.d'); an upgrade swaps the store
REWRITES = ('strip', 'rollback', 'upgrade')


def raced_steps(states, result):
    """the names of the writer's steps a request overlapped"""
    names = []
    for k in range(1, len(states)):
        name, _path, began, _until = states[k]
        ended = states[k - 1][3]
        if result['start'] <= ended and began <= result['end']:
            names.append(name)
    return names


def during_swap(lockouts, result):
    """did a request overlap one of an upgrade's store swaps, (begin, end)
    times during which core refuses every request?"""
    return any(
        result['start'] <= end and begin <= result['end']
        for begin, end in lockouts
    )


# hgweb reads branch heads, phases and tags from files a writer rewrites
# when its transaction closes (.hg/cache/branch2-*, store/phaseroots,
# .hg/cache/tags2-*), after the changelog: during a step, core itself may
# show one state's changesets with another's branch heads (and whether a
# file revision is a head), phases or tip
_STATE_LABELS = re.compile(
    rb'<span class="(?:branch|branchhead|phase)">[^<]*</span> ?'
    rb'|<span class="tag">tip</span> ?'
    rb'|(?<=data-ishead=")[01](?=")'
)


def without_state_labels(bodies, digest):
    with open(os.path.join(bodies, digest), 'rb') as fp:
        return _STATE_LABELS.sub(b'', fp.read())


def check(run, answers, bodies):
    """(failed, wrong, refused, mixed): requests not answered, answers
    that are not the reference's, requests refused or dropped while a
    strip, a rollback or an upgrade ran, and answers during a writer's
    step that are the reference's but for the branch heads and phases"""
    failed, wrong, refused, mixed = [], [], [], []
    for r in run['results']:
        candidates = candidate_states(run['states'], r)
        expected = [answers.get((i, r['url'])) for i in candidates]
        expected = [e for e in expected if e is not None]
        if r['status'] is not None and (r['status'], r['digest']) in expected:
            continue
        raced = set(raced_steps(run['states'], r))
        error = r['status'] is None or r['status'] >= 400
        if error and raced & set(REWRITES):
            refused.append(r)  # an error, never a wrong page
        elif r['status'] is None or r['status'] >= 500:
            failed.append(r)
        elif raced and any(
            status == r['status']
            and without_state_labels(bodies, digest)
            == without_state_labels(bodies, r['digest'])
            for status, digest in expected
        ):
            mixed.append(r)
        else:
            wrong.append(r)
    return failed, wrong, refused, mixed


def error_message(bodies, digest):
    """what hgweb's error page (paper style) says went wrong"""
    with open(os.path.join(bodies, digest), 'rb') as fp:
        page = fp.read().decode('utf-8', 'replace')
    found = re.search(r'<div class="description">(.*?)</div>', page, re.S)
    text = re.sub(r'<[^>]*>', ' ', found.group(1) if found else page)
    return ' '.join(text.split())[:300]


def difference(bodies, got, expected, limit=12):
    """the first lines of a diff between two bodies"""

    def lines(digest):
        with open(os.path.join(bodies, digest), 'rb') as fp:
            return fp.read().decode('utf-8', 'replace').splitlines()

    diff = difflib.unified_diff(
        lines(expected), lines(got), 'reference', 'served', n=1, lineterm=''
    )
    return list(diff)[:limit]
