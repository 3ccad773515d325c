"""the parts of contrib/bench_server.py, each testable on its own:
processes (hgprocess), the load, the writer, the oracle that checks the
answers, the resource sampler and the report"""
