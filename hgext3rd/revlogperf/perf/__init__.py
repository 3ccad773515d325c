# perf - hg perf::revlog-* commands: revlog reads, measured as perf.py does

# the historical benchmark's sample of random revisions (seed 000)
SAMPLE_SIZE = 500
