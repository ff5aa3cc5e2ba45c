#!/usr/bin/env python3
"""Times one list page of N items: starts `opencoredata-demo serve` on a new store, adds N
items to the root list through its form, then GETs the page repeatedly over one keep-alive
connection and prints the time of the first GET (every row rendered), the median of the
others (rows found in `RenderedRows`) and the median time of an add.

    python3 Tests/Scripts/page_cost.py --items 300 --reads 30     # after swift build -c release
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from demo_server import DemoServer, PageSession, find_binary  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the opencoredata-demo binary (default: the newest build)")
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--reads", type=int, default=30)
    arguments = parser.parse_args()

    with DemoServer(find_binary(arguments.binary)) as server:
        session = PageSession(server.port, timeout=60)
        root = session.open_lists()
        adds = []
        for number in range(arguments.items):
            status, _, elapsed = session.request("POST", "/lists/%s/add" % root, dict(title="Item %d" % number))
            assert status == 303, status
            adds.append(elapsed)
        reads = []
        for _ in range(arguments.reads):
            status, page, elapsed = session.request("GET", "/lists?tab=%s" % session.tab)
            assert status == 200 and page.count('class="row"') >= arguments.items
            reads.append(elapsed)
        session.close()
    rows = arguments.items + 3  # and the sample lists
    print("a list page of %d rows: the first GET %.1f ms, then median %.1f ms (%.3f ms a row); an add: median %.2f ms"
          % (rows, reads[0] * 1000, statistics.median(reads) * 1000, statistics.median(reads) * 1000 / rows, statistics.median(adds) * 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
