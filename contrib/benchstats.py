"""ratios of alternating runs that agree with the times shown beside them

The ratio is that of the two medians, the times printed next to it; its
spread is the lowest and the highest ratio of a round's paired runs. A
spread that crosses 1.00 is within the noise, marked ``~``.
"""

import statistics


def paired(core, ext):
    """{'ratio', 'spread'} of the runs ``ext`` against ``core``, round by
    round; None where a median is zero"""
    pairs = [(a, b) for a, b in zip(core, ext) if a]
    if not pairs:
        return None
    base = statistics.median(a for a, _b in pairs)
    if not base:
        return None
    rounds = [b / a for a, b in pairs]
    return {
        'ratio': statistics.median(b for _a, b in pairs) / base,
        'spread': [min(rounds), max(rounds)],
    }


def verdict(spread):
    """where the rounds' ratios lie: below 1.00, across it, or above"""
    low, high = spread
    if high < 1.0:
        return 'faster'
    if low > 1.0:
        return 'slower'
    return 'within the noise'


def noise(spread):
    """``~`` for a spread that crosses 1.00, else a space"""
    return '~' if verdict(spread) == 'within the noise' else ' '
