# breakserver.py - a deliberately broken companion of revlogperf, for
# proving that contrib/bench_server.py fails where it claims to
#
# [breakserver] mode = one of:
#   wrong    every file text served has a byte more
#   stale    a worker answers a file's text from the first it read of
#            that file, whatever revision is asked for later
#   maps     every request maps each data file of the store, and keeps it
#   slow     every /rev page takes 500 ms more

import mmap
import os
import time

from mercurial import context, extensions

MODES = ('wrong', 'stale', 'maps', 'slow')

_first_texts = {}
_kept_maps = []


def _wrong(orig, fctx):
    return orig(fctx) + b'!'


def _stale(orig, fctx):
    return _first_texts.setdefault(fctx.path(), orig(fctx))


def _keep_every_data_map(orig, web, *args, **kwargs):
    store = os.path.join(web.repo.root, b'.hg', b'store')
    for directory, _dirs, names in os.walk(store):
        for name in names:
            if name.endswith(b'.d'):
                with open(os.path.join(directory, name), 'rb') as fp:
                    _kept_maps.append(
                        mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ)
                    )
    return orig(web, *args, **kwargs)


def _slow_rev(orig, web, *args, **kwargs):
    time.sleep(0.5)
    return orig(web, *args, **kwargs)


def uisetup(ui):
    mode = ui.config(b'breakserver', b'mode').decode()
    if mode not in MODES:
        raise ValueError('breakserver.mode: one of %s' % ', '.join(MODES))
    from mercurial.hgweb import webcommands

    if mode == 'wrong':
        extensions.wrapfunction(context.filectx, 'data', _wrong)
    elif mode == 'stale':
        extensions.wrapfunction(context.filectx, 'data', _stale)
    elif mode == 'maps':
        extensions.wrapfunction(webcommands, 'log', _keep_every_data_map)
        extensions.wrapfunction(webcommands, 'rev', _keep_every_data_map)
    else:
        extensions.wrapfunction(webcommands, 'rev', _slow_rev)
