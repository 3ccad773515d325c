"""what each worker holds: descriptors, and maps of store files, counted
by file (distinct inodes) and sampled during requests as well as after
each one; memory at the end of the load"""

import json
import os
import threading

STORE = '/.hg/store/'
MEASURES = ('fds', 'data fds', 'other fds', 'data maps', 'index maps')
MEASURES += ('deleted maps',)

# gunicorn's configuration: 127.0.0.1 only; after every request a worker
# notes the CPU time it spent on a page it served (a sync worker serves
# one at a time), and its own peaks, which the sampler's polls may fall
# between
GUNICORN_CONF = '''\
import json, os, sys, time
sys.path.insert(0, %(contrib)r)
from benchserver import sampler
bind = '127.0.0.1:%(port)d'
workers = %(workers)d
timeout = 300
graceful_timeout = 10
accesslog = None
errorlog = %(errorlog)r
loglevel = 'info'
_peaks = {}
_started = []

def pre_request(worker, req):
    _started[:] = [time.process_time()]

def post_request(worker, req, environ, resp):
    # a request that failed before its answer began has no status
    if _started and getattr(resp, 'status_code', None) == 200:
        sampler.note_cpu(%(peaks)r, environ, time.process_time() - _started[0])
    if sampler.raise_peaks(_peaks, sampler.resources(os.getpid())):
        with open(os.path.join(%(peaks)r, '%%d.json' %% os.getpid()), 'w') as f:
            json.dump(_peaks, f)
'''


def gunicorn_conf(port, workers, errorlog, peaks):
    contrib = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return GUNICORN_CONF % {
        'contrib': contrib,
        'port': port,
        'workers': workers,
        'errorlog': errorlog,
        'peaks': peaks,
    }


def store_maps(lines):
    """{'data maps', 'index maps', 'deleted maps'}: how many distinct store
    files the lines of a /proc/PID/maps map"""
    data, index, deleted = set(), set(), set()
    paths = set()
    for line in lines:
        if STORE not in line:
            continue
        fields = line.split(None, 5)
        if len(fields) < 6:
            continue
        inode, path = fields[4], fields[5].rstrip('\n')
        gone = path.endswith(' (deleted)')
        if gone:
            path = path[: -len(' (deleted)')]
            deleted.add(inode)
        if path.endswith('.d'):
            data.add(inode)
            paths.add(inode + ' ' + fields[5].strip())
        elif path.endswith('.i'):
            index.add(inode)
    return {
        # which, where a peak needs explaining
        'data map paths': sorted(paths),
        'data maps': len(data),
        'index maps': len(index),
        'deleted maps': len(deleted),
    }


# readings of /proc/PID/maps that may be taken to get two that agree
SETTLE_READS = 5
MAP_MEASURES = ('data maps', 'index maps', 'deleted maps')


def resources(pid, peaks=None):
    """the descriptors and store maps process ``pid`` holds now, or None
    if it is gone; 'fds by kind' says what the descriptors are

    Another process's maps are read a page at a time, and it may map and
    unmap files between two pages: one reading can show two maps that
    never lived at once. A process mapping six files in turn, one at a
    time, showed two or more in 4,940 of 44,536 readings (2026-12). So a
    reading that would raise one of ``peaks`` is taken again until two in
    a row agree: none of 37,140 then did.
    """
    try:
        found = settled_store_maps(pid, peaks)
    except (FileNotFoundError, ProcessLookupError):
        return None
    kinds, others = fd_kinds(pid)
    found['fds by kind'] = kinds
    found['fds'] = sum(kinds.values())
    # a data map holds a descriptor, and so does core's read of a data
    # file (an index map lives as long as its revlog, as core's own
    # descriptor does): the budget is for data files
    found['data fds'] = kinds.get('store d', 0)
    # revlogperf opens none of these: templates, caches, logs
    found['other fds'] = kinds.get('other', 0)
    found['other fd paths'] = others
    return found


def settled_store_maps(pid, peaks):
    found = read_store_maps(pid)
    for _ in range(SETTLE_READS - 1):
        if peaks is None or all(
            found[key] <= peaks.get(key, 0) for key in MAP_MEASURES
        ):
            break
        again = read_store_maps(pid)
        if again == found:
            break
        found = again
    return found


def read_store_maps(pid):
    with open('/proc/%d/maps' % pid) as fp:
        return store_maps(fp)


def fd_kinds(pid):
    """(kinds, others): what the descriptors of ``pid`` are, store files
    by kind, sockets, pipes and others, and the others' paths (where a peak
    of descriptors comes from)"""
    kinds, others = {}, []
    try:
        names = os.listdir('/proc/%d/fd' % pid)
    except FileNotFoundError:
        return kinds, others
    for name in names:
        try:
            target = os.readlink('/proc/%d/fd/%s' % (pid, name))
        except OSError:
            continue
        if STORE in target:
            kind = 'store ' + target.rsplit('.', 1)[-1].split(' ')[0]
        elif target.startswith(('socket:', 'pipe:', 'anon_inode:')):
            kind = target.split(':')[0]
        else:
            kind = 'other'
            others.append(target)
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds, sorted(others)


def raise_peaks(peaks, found):
    """raise ``peaks`` to ``found``: True if any rose"""
    rose = False
    for key in MEASURES:
        value = 0 if found is None else found.get(key, 0)
        if value > peaks.get(key, 0):
            peaks[key] = value
            rose = True
            if key == 'fds':
                peaks['fds by kind'] = found.get('fds by kind', {})
            if key == 'other fds':
                peaks['other fd paths'] = found.get('other fd paths', [])
            if key == 'data maps':
                peaks['data map paths'] = found.get('data map paths')
    return rose


def worker_pids(master):
    pids = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as fp:
                fields = fp.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            pids.append(int(entry))
    return sorted(pids)


def smaps_rollup(pid):
    fields = {}
    with open('/proc/%d/smaps_rollup' % pid) as fp:
        for line in fp:
            key, _sep, value = line.partition(':')
            if value.strip().endswith('kB'):
                fields[key] = int(value.split()[0]) * 1024
    return {
        'uss': fields.get('Private_Clean', 0) + fields.get('Private_Dirty', 0),
        'pss': fields.get('Pss', 0),
        'rss': fields.get('Rss', 0),
        # the heap: what mapped file pages (reclaimable) are not
        'anon': fields.get('Anonymous', 0),
    }


class Sampler:
    """polls every worker of gunicorn's ``master`` while the load runs"""

    def __init__(self, master, every=0.02, refresh=25):
        self.master = master
        self.every = every
        # polls between two looks for its workers: gunicorn's live long,
        # chg's one command
        self.refresh = refresh
        self.peaks = {}  # pid -> {measure: peak}
        self.seen = set()  # every worker pid met
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join()

    def _poll(self):
        pids, polls = [], 0
        while not self._stop.wait(self.every):
            if polls % self.refresh == 0:
                pids = worker_pids(self.master)
                self.seen.update(pids)
            polls += 1
            for pid in pids:
                peaks = self.peaks.setdefault(pid, {})
                raise_peaks(peaks, resources(pid, peaks))


def note_cpu(peaks_dir, environ, seconds):
    """in a worker: note the CPU time it spent on a page it answered (no
    descriptor is kept open: the workers' are counted)"""
    page = environ.get('PATH_INFO', '/').split('/')[1]
    name = os.path.join(peaks_dir, '%d.cpu' % os.getpid())
    with open(name, 'a') as fp:
        fp.write('%s %.3f\n' % (page, seconds * 1000))


def cpu_by_page(peaks_dir):
    """{page: [ms of worker CPU per answered request]}, every worker's"""
    found = {}
    for name in os.listdir(peaks_dir):
        if name.endswith('.cpu'):
            with open(os.path.join(peaks_dir, name)) as fp:
                for line in fp:
                    page, ms = line.split()
                    found.setdefault(page, []).append(float(ms))
    return found


def merged_peaks(sampled, peaks_dir):
    """each worker's peaks: the sampler's, raised by the worker's own
    (after each request)"""
    merged = {pid: dict(p) for pid, p in sampled.items()}
    for name in os.listdir(peaks_dir):
        if not name.endswith('.json'):
            continue
        with open(os.path.join(peaks_dir, name)) as fp:
            own = json.load(fp)
        raise_peaks(merged.setdefault(int(name.split('.')[0]), {}), own)
    for peaks in merged.values():
        for key in MEASURES:
            peaks.setdefault(key, 0)
    return merged
