# perf - hg perf::revlog-* commands: revlog reads, measured as perf.py does
