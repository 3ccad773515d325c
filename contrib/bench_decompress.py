#!/usr/bin/env python3
"""per-chunk decompression cost: Mercurial's code, revlogperf's, raw library

    bench_decompress.py REPO [-c|-m|--file FILE] [--repeats R]

Reads every stored chunk of one revlog, then times, block by block in one
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
from hgext3rd.revlogperf import compat, decompress  # noqa: E402
from hgext3rd.revlogperf.perf import commands  # noqa: E402

EXTENSION = os.path.join(HERE, '..', 'hgext3rd', 'revlogperf')


def load_repo(path):
    ui = uimod.ui.load()
    ui.setconfig(b'extensions', b'revlogperf', EXTENSION.encode())
    ui.setconfig(b'devel', b'all-warnings', b'no')
    extensions.loadall(ui)
    return compat.repository(ui, path.encode())


def as_read_path_passes(chunks):
    """the chunks as memoryviews of one buffer, as core's read path has them"""
    whole = util.buffer(b''.join(chunks))
    views, offset = [], 0
    for c in chunks:
        views.append(whole[offset : offset + len(c)])
        offset += len(c)
    return views


def timed(fn, chunks):
    start = time.perf_counter()
    for c in chunks:
        fn(c)
    return time.perf_counter() - start


def interleaved(variants, chunks, block=500):
    """seconds per chunk of each variant, over ``chunks`` block by block

    The variants take turns on each block, in rotating order, so that a
    noisy neighbour hits them alike. ``variants`` maps a name to a function
    giving the decompress function: it is looked up once per block, as
    core's ``_chunks`` looks ``decompress`` up once per batch.
    """
    names = list(variants)
    totals = dict.fromkeys(names, 0.0)
    for turn, start in enumerate(range(0, len(chunks), block)):
        part = chunks[start : start + block]
        k = turn % len(names)
        for name in names[k:] + names[:k]:
            totals[name] += timed(variants[name](), part)
    return {name: total / len(chunks) for name, total in totals.items()}


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
    opts = {
        b'changelog': args.what == '-c',
        b'manifest': args.what == '-m',
        b'dir': b'',
    }
    name = None if args.what in ('-c', '-m') else args.what.encode()
    rl = commands.named_revlog(repo, b'bench_decompress', name, opts)
    owner = compat.chunk_owner(rl)
    chunks = [compat.raw_chunk(owner, r) for r in range(len(rl))]
    headers = collections.Counter(c[0:1] for c in chunks)
    chunks = as_read_path_passes(chunks)

    core = type(owner).decompress.__get__(owner)  # the release's own code
    # a zlib revlog gets its dispatcher once it has been read often enough
    # (by the class: on hg <= 6.5 the revlog's own _chunk is its chunk
    # cache's, which reads once)
    for _read in range(decompress._READS_BEFORE_DISPATCHER + 1):
        type(owner)._chunk(owner, 0)
    if 'decompress' not in owner.__dict__:
        sys.exit('revlogperf dispatcher not installed (fast-decompress off?)')
    zstd = util.compengines[b'zstd']._module
    raw = {b'x': zlib.decompress}
    if zstd is not None:
        raw[b'('] = zstd.ZstdDecompressor().decompress
    main_header = headers.most_common(1)[0][0]
    rawfn = raw.get(main_header)
    rawchunks = [c for c in chunks if c[0:1] == main_header]
    # revlogperf picks its path on the first chunk, as when reading starts
    owner.decompress(chunks[0])

    every = {'core': lambda: core, 'revlogperf': lambda: owner.decompress}
    samples = collections.defaultdict(list)
    ratios = collections.defaultdict(list)
    for _ in range(args.repeats):
        for name, value in interleaved(every, chunks).items():
            samples[name].append(value)
        ratios['revlogperf / core'].append(
            samples['revlogperf'][-1] / samples['core'][-1]
        )
        if rawfn is not None:
            only = interleaved({**every, 'raw': lambda: rawfn}, rawchunks)
            for name in every:
                samples['%s, %s only' % (name, main_header)].append(only[name])
                ratios['%s / raw library' % name].append(
                    only[name] / only['raw']
                )
            samples['raw library'].append(only['raw'])
        if main_header == b'(' and hasattr(
            zstd.ZstdDecompressor, 'multi_decompress_to_buffer'
        ):
            dctx = zstd.ZstdDecompressor()
            start = time.perf_counter()
            try:
                dctx.multi_decompress_to_buffer(rawchunks, threads=0)
                samples['zstd batch API'].append(
                    (time.perf_counter() - start) / len(rawchunks)
                )
            except Exception as exc:  # e.g. frames without content size
                samples['zstd batch API (failed: %s)' % exc].append(0.0)

    print(
        '%s %s: %d chunks, headers %s, Mercurial %s, %d repeats'
        % (
            args.repo,
            args.what,
            len(chunks),
            ' '.join('%r:%d' % kv for kv in headers.most_common()),
            util.version().decode(),
            args.repeats,
        )
    )
    for name, values in samples.items():
        print(
            '  %-24s %8.3f us/chunk' % (name, statistics.median(values) * 1e6)
        )
    print('  median of the ratios within each repeat:')
    for name, values in ratios.items():
        print(
            '  %-24s %6.3f  (%.3f-%.3f)'
            % (name, statistics.median(values), min(values), max(values))
        )


if __name__ == '__main__':
    main()
