"""the readers: what they ask for, and clients that ask it"""

import collections
import hashlib
import http.client
import os
import threading
import time

PAGES = ('log', 'shortlog', 'graph', 'rev', 'raw-file', 'annotate')
# annotate walks a file's whole history: files changed more often than
# this are served as raw files only (mkrepo's --large-filelog)
ANNOTATE_MAX_CHANGES = 1000
# of the requests for a changeset, those for one the writer adds: they
# exist in some of its states only, and must be answered as each state has
# them (a 404 where the changeset is not there)
WRITER_SHARE = 0.1


def plan_requests(hg, repo, count, rng, writer=None):
    """the URLs of the load, as (page, url)

    Changesets and files are drawn from the whole history, and from the
    writer's changesets (``writer``: {name: node}, and the file it edits).
    """
    out = hg('-R', repo, 'log', '-r', 'all()', '-T', '{node}\\0{files}\\0\\n')
    changed = []
    changes = collections.Counter()
    for line in out.split(b'\n'):
        if not line:
            continue
        node, files, _end = line.split(b'\0')
        files = [f.decode() for f in files.split()]
        changes.update(files)
        if files:
            changed.append((node.decode()[:12], files))
    added = []
    if writer:
        nodes, path = writer
        added = [(node[:12], [path]) for node in sorted(nodes.values())]

    def draw(page):
        while True:
            pool = added if added and rng.random() < WRITER_SHARE else changed
            node, files = rng.choice(pool)
            path = rng.choice(files)
            if page != 'annotate' or changes[path] <= ANNOTATE_MAX_CHANGES:
                return node, path

    urls = []
    for i in range(count):
        page = PAGES[i % len(PAGES)]
        if page in ('log', 'shortlog', 'graph'):
            urls.append((page, '/' + page))
        elif page == 'rev':
            urls.append((page, '/rev/%s' % draw(page)[0]))
        else:
            node, path = draw(page)
            urls.append((page, '/%s/%s/%s' % (page, node, path)))
    rng.shuffle(urls)
    return urls


def fetch(port, url, bodies, timeout=300):
    """(status, sha256 of the body) of one GET; the body is kept in the
    directory ``bodies``, named by its digest, to show what differs"""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.request('GET', url)
        resp = conn.getresponse()
        body = resp.read()
    finally:
        conn.close()
    digest = hashlib.sha256(body).hexdigest()
    path = os.path.join(bodies, digest)
    if not os.path.exists(path):
        with open(path + '.tmp%d' % threading.get_ident(), 'wb') as fp:
            fp.write(body)
        os.replace(fp.name, path)
    return resp.status, digest


class Load:
    """``clients`` threads asking for ``urls`` in turn, at least once
    each, and on while ``more()`` says so (the writer is not done)"""

    def __init__(self, port, urls, clients, bodies, more=lambda: False):
        self.port = port
        self.urls = urls
        self.clients = clients
        self.bodies = bodies
        self.more = more
        self.results = []
        self.taken = 0
        self._lock = threading.Lock()

    @property
    def answered(self):
        return len(self.results)

    def _next(self):
        with self._lock:
            if self.taken >= len(self.urls) and not self.more():
                return None
            index = self.taken
            self.taken += 1
        return index

    def client(self):
        while True:
            index = self._next()
            if index is None:
                return
            page, url = self.urls[index % len(self.urls)]
            start = time.monotonic()
            try:
                status, digest = fetch(self.port, url, self.bodies)
            except Exception as exc:  # a dropped connection
                status, digest = None, repr(exc)
            end = time.monotonic()
            with self._lock:
                self.results.append(
                    {
                        'index': index,
                        'page': page,
                        'url': url,
                        'start': start,
                        'end': end,
                        'status': status,
                        'digest': digest,
                    }
                )

    def threads(self):
        return [
            threading.Thread(target=self.client) for _ in range(self.clients)
        ]
