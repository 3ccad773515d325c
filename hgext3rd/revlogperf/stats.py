# stats.py - what a repository's revlogs hold, and how they are stored
#
# Seed 004 judged changelog storage by the share of full texts and deltas
# and the longest delta chain; seed 001 counted chunks by compression
# header. Both, and sizes and the mmap decision, per kind of revlog.

import collections

from mercurial.i18n import _
from mercurial.node import nullrev
from mercurial import (
    pycompat,
    util,
)

from . import (
    changelog,
    compat,
    config,
    decompress,
    truncation,
)


class RevlogStats:
    """the figures of one revlog, or of several added up"""

    def __init__(self, kind):
        self.kind = kind
        self.revlogs = 0
        self.revisions = 0
        self.full = 0
        self.chain_total = 0
        self.chain_max = 0
        self.index_size = 0
        self.data_size = 0
        self.headers = collections.Counter()
        self.mmapped = 0
        self.indexes = 0  # revlogs with an index file
        self.threshold = None
        self.not_mapped = collections.Counter()  # why -> index files

    @property
    def delta(self):
        return self.revisions - self.full

    @property
    def chain_average(self):
        return (
            float(self.chain_total) / self.revisions if self.revisions else 0.0
        )

    def percent(self, count):
        return 100.0 * count / self.revisions if self.revisions else 0.0

    def add_revlog(self, rl, settings):
        self.revlogs += 1
        self.revisions += len(rl)
        chains = []  # rev -> revisions in its delta chain, full text included
        deltaparent = rl.deltaparent
        for rev in range(len(rl)):
            parent = deltaparent(rev)
            if parent == nullrev:
                self.full += 1
                chains.append(1)
            else:
                chains.append(chains[parent] + 1)
        if chains:
            self.chain_total += sum(chains)
            self.chain_max = max(self.chain_max, max(chains))
        self.headers.update(chunk_headers(rl))
        index, data = revlog_files(rl)
        index_size = _size(rl.opener, index)
        self.index_size += index_size
        if data is not None:
            self.data_size += _size(rl.opener, data)
        if not index_size:
            return  # no index file yet: nothing to map
        self.indexes += 1
        self.threshold = settings.threshold(rl.target[0])
        why_not = settings.why_not_map(
            rl.target[0], index_size, rl.opener, index
        )
        if why_not is None:
            self.mmapped += 1
        else:
            self.not_mapped[why_not] += 1

    def mapping(self):
        """one line: how many indexes are mmapped, and why the others not"""
        if not self.indexes:
            return None
        reasons = []
        for why, count in sorted(self.not_mapped.items()):
            if why == config.NOT_MAPPED_SMALL:
                text = _(b'below %s') % util.bytecount(self.threshold)
            elif why == config.NOT_MAPPED_UNSAFE:
                text = _(b'not on a local file system')
            else:
                text = _(b'mmap off')
            reasons.append(b'%d %s' % (count, text))
        line = _(b'%s: %d of %d indexes mmapped') % (
            self.kind,
            self.mmapped,
            self.indexes,
        )
        if reasons:
            line += b' (%s)' % b', '.join(reasons)
        return line + b'\n'


def revlog_files(rl):
    """(index file, data file or None when inline) of a revlog object"""
    data = compat.chunk_file(compat.chunk_owner(rl))
    index = rl._indexfile
    return index, (None if data == index else data)


def chunk_headers(rl):
    """Counter of the compression kinds of a revlog's stored chunks"""
    counts = collections.Counter()
    if not len(rl):
        return counts  # nothing stored: its files may not even exist
    owner = compat.chunk_owner(rl)
    kinds = {**decompress.CHUNK_HEADERS, b'': b'empty'}
    with rl.reading():
        for rev in range(len(rl)):
            header = compat.raw_chunk(owner, rev)[0:1]
            counts[kinds.get(header, b'other')] += 1
    return counts


def _size(vfs, path):
    try:
        return vfs.stat(path).st_size
    except FileNotFoundError:
        return 0


def repository_stats(repo, progress=None):
    """[RevlogStats] of the changelog, the manifest and all filelogs"""
    settings = config.settings(repo.svfs)
    unfiltered = repo.unfiltered()
    changelog_stats = RevlogStats(b'changelog')
    changelog_stats.add_revlog(unfiltered.changelog, settings)
    manifest = RevlogStats(b'manifest')
    manifest_rl = unfiltered.manifestlog.getstorage(b'')
    manifest.add_revlog(compat.get_revlog(manifest_rl), settings)
    filelogs = RevlogStats(b'filelogs')
    paths = sorted(compat.filelog_paths(unfiltered))
    if progress is not None:
        progress.total = len(paths)
    for path in paths:
        fl = unfiltered.file(path)
        filelogs.add_revlog(compat.get_revlog(fl), settings)
        if progress is not None:
            progress.increment()
    return [changelog_stats, manifest, filelogs]


def debug_revlog_storage(ui, repo, **opts):
    """the work of ``commands.debug_revlog_storage``"""
    opts = pycompat.byteskwargs(opts)
    progress = ui.makeprogress(_(b'reading filelogs'), unit=_(b'filelogs'))
    all_stats = repository_stats(repo, progress)
    progress.complete()
    fm = ui.formatter(b'debug-revlog-storage', opts)
    fm.plain(
        b'%-9s %9s %12s %12s %6s %6s %6s %5s  %s\n'
        % (
            b'revlog',
            b'revisions',
            b'index',
            b'data',
            b'full%',
            b'delta%',
            b'chain',
            b'max',
            b'chunks',
        )
    )
    for st in all_stats:
        fm.startitem()
        fm.write(b'kind', b'%-9s', st.kind)
        fm.write(b'revisions', b' %9d', st.revisions)
        fm.write(b'index_size', b' %12d', st.index_size)
        fm.write(b'data_size', b' %12d', st.data_size)
        # two decimals in every output, as the text shows at most
        fm.write(b'full_percent', b' %6.1f', round(st.percent(st.full), 2))
        fm.write(b'delta_percent', b' %6.1f', round(st.percent(st.delta), 2))
        fm.write(b'chain_average', b' %6.2f', round(st.chain_average, 2))
        fm.write(b'chain_max', b' %5d', st.chain_max)
        fm.plain(b'  ')
        fm.write(
            b'chunks',
            b'%s',
            fm.formatdict(
                dict(st.headers),
                key=b'kind',
                value=b'count',
                fmt=b'%s:%d',
            ),
        )
        fm.data(revlogs=st.revlogs, full=st.full, delta=st.delta)
        fm.data(mmapped=st.mmapped)
        fm.plain(b'\n')
    for st in all_stats:
        line = st.mapping()
        if line:
            fm.plain(line)
    if compat.uses_rust(repo.unfiltered().changelog):
        fm.plain(
            _(
                b'Rust reads these revlogs: revlogperf maps their indexes '
                b'and shortens them safely, the rest is Rust\'s\n'
            )
        )
    store = repo.store.path
    for path in truncation.leftover_copies(store):
        if truncation.removable(store, path):
            hint = _(b"run 'hg recover' to remove it")
        else:
            hint = _(b"its owner or an administrator can remove it")
        fm.plain(
            _(b"leftover copy of a killed writer: %s (%s)\n") % (path, hint)
        )
    advice = changelog.repair_advice(all_stats[0])
    if advice:
        fm.plain(advice)
    fm.end()
