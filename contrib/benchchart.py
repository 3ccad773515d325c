# benchchart.py - the ratio chart of bench.py and bench_commands.py
"""a bar per row: its ratio, its spread as an error bar, coloured by it"""

from benchstats import verdict

COLOURS = {
    'faster': 'tab:green',
    'within the noise': 'tab:gray',
    'slower': 'tab:red',
}


def draw(names, rows, path, title, label, what):
    """draw ``rows`` (dicts with 'ratio' and 'spread') named ``names``

    ``label(row)`` is the text beside each bar; ``what`` says what is
    compared, for the axis.
    """
    import matplotlib

    matplotlib.use('Agg')
    from matplotlib import patches, pyplot

    names, rows = names[::-1], rows[::-1]
    fig, ax = pyplot.subplots(figsize=(7.5, 0.45 * len(rows) + 1.6))
    ax.barh(
        names,
        [r['ratio'] for r in rows],
        xerr=[
            [r['ratio'] - r['spread'][0] for r in rows],
            [r['spread'][1] - r['ratio'] for r in rows],
        ],
        capsize=3,
        color=[COLOURS[verdict(r['spread'])] for r in rows],
    )
    ax.axvline(1.0, color='black', linewidth=1)
    for y, row in enumerate(rows):
        ax.text(row['spread'][1] + 0.02, y, label(row), va='center', fontsize=7)
    ax.set_xlim(0, max(1.4, max(r['spread'][1] for r in rows) * 1.6))
    ax.set_xlabel(
        '%s with revlogperf / with Mercurial alone, median of rounds;'
        '\nbars: lowest to highest round (below 1 is faster)' % what,
        fontsize=8,
    )
    ax.legend(
        handles=[patches.Patch(color=c, label=l) for l, c in COLOURS.items()],
        fontsize=7,
        loc='lower right',
    )
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print('chart: %s' % path)
