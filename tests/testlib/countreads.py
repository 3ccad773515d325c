# countreads.py - an extension that says, when a command ends, how many
# times it opened a filelog and how many file texts it read from a revlog

from mercurial import extensions, filelog, revlog


def uisetup(ui):
    counts = {'opens': 0, 'reads': 0}

    def opening(orig, fl, *args, **kwargs):
        counts['opens'] += 1
        return orig(fl, *args, **kwargs)

    def reading(orig, rl, *args, **kwargs):
        if rl.radix.startswith(b'data/'):
            counts['reads'] += 1
        return orig(rl, *args, **kwargs)

    def report():
        ui.write_err(
            b'filelogs opened: %(opens)d, texts read: %(reads)d\n'
            % {k.encode(): v for k, v in counts.items()}
        )

    extensions.wrapfunction(filelog.filelog, '__init__', opening)
    extensions.wrapfunction(revlog.revlog, 'revision', reading)
    ui.atexit(report)
