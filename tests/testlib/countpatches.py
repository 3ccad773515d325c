# countpatches.py - an extension that says, when a command ends, how many
# deltas it patched onto a text

from mercurial import mdiff


def uisetup(ui):
    count = [0]
    patches = mdiff.patches

    def counting(text, deltas):
        count[0] += len(deltas)
        return patches(text, deltas)

    mdiff.patches = counting
    ui.atexit(lambda: ui.write_err(b'deltas patched: %d\n' % count[0]))
