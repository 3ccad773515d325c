# changelog.py - changelogs without delta chains
#
# Seed 004: a changelog stored as full texts reads faster in both
# directions (mozilla-central, reverse: 5.76 s -> 4.35 s), reads as fast in
# reverse as forward, and is smaller. Every supported release writes new
# changelog revisions that way; repositories written before still carry
# their chains. The report (stats.py) says so, and names the repair.

from mercurial.i18n import _

# Every supported release rewrites the changelog as full texts with this:
# the upgrade re-adds every revision to a new changelog, which never stores
# deltas, and re-delta-all forbids reusing the old ones.
REPAIR_COMMAND = (
    b'hg debugupgraderepo --optimize re-delta-all --changelog --run'
)


def repair_advice(changelog_stats):
    """what to tell the owner of a changelog with delta chains, or None"""
    if not changelog_stats.delta:
        return None
    return _(
        b'the changelog stores %d revisions (%.1f%%) as deltas: it reads '
        b'faster without, rewrite it with\n  %s\n'
    ) % (
        changelog_stats.delta,
        changelog_stats.percent(changelog_stats.delta),
        REPAIR_COMMAND,
    )
