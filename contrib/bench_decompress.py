#!/usr/bin/env python3
"""per-chunk decompression cost: Mercurial's code, revlogperf's, raw library

    bench_decompress.py REPO [-c|-m|--file FILE] [--repeats R]

Reads every stored chunk of one revlog, then times, alternating in one
process, the same chunks through (1) the release's own ``decompress``,
(2) revlogperf's dispatcher on the same revlog, (3) the library alone
(``zlib.decompress`` or a one-shot ``ZstdDecompressor.decompress``) on the
chunks it can take, and for zstd (4) zstandard's batch API. Prints the
median time per chunk of each and the ratios; nothing is hard-coded.
"""

import argparse
import collections
import os
import statistics
import sys
import time
import zlib

from mercurial import extensions, ui as uimod, util

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from hgext3rd.revlogperf import compat  # noqa: E402
EXTENSION = os.path.join(HERE, '..', 'hgext3rd', 'revlogperf')


def open_revlog(repo, what):
    if what == '-c':
        rl = repo.changelog
    elif what == '-m':
        rl = repo.manifestlog.getstorage(b'')
    else:
        rl = repo.file(what.encode())
    return getattr(rl, '_revlog', rl)


def load_repo(path):
    ui = uimod.ui.load()
    ui.setconfig(b'extensions', b'revlogperf', EXTENSION.encode())
    ui.setconfig(b'devel', b'all-warnings', b'no')
    extensions.loadall(ui)
    return compat.repository(ui, path.encode())


def timed(fn, chunks):
    start = time.perf_counter()
    for c in chunks:
        fn(c)
    return time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo')
    which = ap.add_mutually_exclusive_group()
    which.add_argument('-c', dest='what', action='store_const', const='-c')
    which.add_argument('-m', dest='what', action='store_const', const='-m')
    which.add_argument('--file', dest='what')
    ap.add_argument('--repeats', type=int, default=15)
    args = ap.parse_args(argv)
    args.what = args.what or '-c'

    repo = load_repo(args.repo)
    rl = open_revlog(repo, args.what)
    owner = getattr(rl, '_inner', rl)
    chunks = [compat.raw_chunk(owner, r) for r in range(len(rl))]
    headers = collections.Counter(c[0:1] for c in chunks)

    core = type(owner).decompress.__get__(owner)  # the release's own code
    ours = owner.__dict__.get('decompress')
    if ours is None:
        sys.exit('revlogperf dispatcher not installed (fast-decompress off?)')
    zstd = util.compengines[b'zstd']._module
    raw = {b'x': zlib.decompress}
    if zstd is not None:
        raw[b'('] = zstd.ZstdDecompressor().decompress
    main_header = headers.most_common(1)[0][0]
    rawfn = raw.get(main_header)
    rawchunks = [c for c in chunks if c[0:1] == main_header]

    samples = collections.defaultdict(list)
    for _ in range(args.repeats):
        # alternate, so that a noisy neighbour hits every variant alike
        samples['core'].append(timed(core, chunks) / len(chunks))
        samples['revlogperf'].append(timed(ours, chunks) / len(chunks))
        if rawfn is not None:
            samples['core, %s only' % main_header] .append(
                timed(core, rawchunks) / len(rawchunks))
            samples['revlogperf, %s only' % main_header].append(
                timed(ours, rawchunks) / len(rawchunks))
            samples['raw library'].append(
                timed(rawfn, rawchunks) / len(rawchunks))
        if main_header == b'(' and hasattr(
                zstd.ZstdDecompressor, 'multi_decompress_to_buffer'):
            dctx = zstd.ZstdDecompressor()
            start = time.perf_counter()
            try:
                dctx.multi_decompress_to_buffer(rawchunks, threads=0)
                samples['zstd batch API'].append(
                    (time.perf_counter() - start) / len(rawchunks))
            except Exception as exc:  # e.g. frames without content size
                samples['zstd batch API (failed: %s)' % exc].append(0.0)

    print('%s %s: %d chunks, headers %s, Mercurial %s' % (
        args.repo, args.what, len(chunks),
        ' '.join('%r:%d' % kv for kv in headers.most_common()),
        util.version().decode()))
    base = statistics.median(samples['core'])
    for name, values in samples.items():
        med = statistics.median(values)
        print('  %-24s %8.3f us/chunk  ratio to core %.3f' % (
            name, med * 1e6, med / base if base else 0))
    if rawfn is not None:
        r = statistics.median(samples['raw library'])
        for who in ('core', 'revlogperf'):
            m = statistics.median(samples['%s, %s only' % (who, main_header)])
            print('  %-10s overhead over the raw library: %+.1f%%'
                  % (who, (m / r - 1) * 100))


if __name__ == '__main__':
    main()
