#!/usr/bin/env python3
"""Load test of the web app: virtual users, each with its own browser session and tab, read
and write their own sub-list over keep-alive connections for a fixed time, with that list's
live event stream open, against `opencoredata-demo serve` on 127.0.0.1 only. Then the server
is stopped (SIGTERM saves) and every acknowledged write is looked for in the SQLite store.

    python3 Tests/Scripts/load.py --seconds 60 --users 8

Prints requests/s, latency percentiles by kind, errors, and writes acknowledged vs found;
exits 1 when any request failed or any acknowledged write is missing. Standard library only.
"""

import argparse
import http.client
import json
import random
import re
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from demo_server import DemoServer, PageSession, find_binary  # noqa: E402

TITLE_PREFIX = "load-"


class Failure(Exception):
    pass


class User(threading.Thread):
    """One person in one tab: opens the lists, adds a list of their own, then until the
    deadline adds items to it (a form post answered 303) or reads its page or the projects
    page (200), with the list's event stream open. When the list holds `list_size` items the
    user starts a new one, so a page's size, and its cost, stays the same however long the
    run."""

    def __init__(self, number, port, deadline, write_share, list_size, seed):
        super().__init__(daemon=True)
        self.number, self.port, self.deadline = number, port, deadline
        self.write_share, self.list_size = write_share, list_size
        self.random = random.Random(seed)
        self.latencies = {"read list": [], "read projects": [], "write": []}
        self.errors = []
        self.acknowledged = []
        self.events = 0
        self.session = PageSession(port)
        self.list = None
        self.lists = 0

    def start_list(self):
        """Adds the user's next list to the root list and follows its event stream."""
        self.lists += 1
        title = "list %d of user %d" % (self.lists, self.number)
        status, _, _ = self.session.request("POST", "/lists/%s/add" % self.root, dict(title=title))
        if status != 303:
            raise Failure("adding the user's list answered %d" % status)
        status, page, _ = self.session.request("GET", "/lists/%s?tab=%s" % (self.root, self.session.tab))
        found = re.search(r'data-ref="(\d+)"><a class="open" href="[^"]*" data-field="title">%s</a>' % re.escape(title), page)
        if not found:
            raise Failure("the user's new list is not on the root page")
        self.list = found.group(1)
        threading.Thread(target=self.follow_events, args=(self.list,), daemon=True).start()

    # The live stream -------------------------------------------------------------------------
    def follow_events(self, list_reference):
        """Reads the list's server-sent events while it is the user's, counting them."""
        session = self.session
        path = "/lists/%s/events?tab=%s&csrf=%s" % (list_reference, session.tab, urllib.parse.quote(session.csrf))
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as stream:
                stream.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\nAccept: text/event-stream\r\n\r\n"
                                % (path, self.port, session.cookie)).encode())
                stream.settimeout(0.5)
                while time.monotonic() < self.deadline + 2 and self.list == list_reference:
                    try:
                        chunk = stream.recv(65536)
                    except socket.timeout:
                        continue
                    if not chunk:
                        break
                    self.events += chunk.count(b"event: ")
        except OSError as error:
            self.errors.append("event stream: %s" % error)

    # The run -----------------------------------------------------------------------------------
    def run(self):
        session = self.session
        try:
            self.root = session.open_lists()
            self.start_list()
            written = in_list = 0
            while time.monotonic() < self.deadline:
                draw = self.random.random()
                if draw < self.write_share:
                    if in_list == self.list_size:
                        self.start_list()
                        in_list = 0
                    written += 1
                    title = "%s%d-%d" % (TITLE_PREFIX, self.number, written)
                    kind, expected = "write", 303
                    status, _, elapsed = session.request("POST", "/lists/%s/add" % self.list, dict(title=title))
                elif draw < self.write_share + (1 - self.write_share) * 0.8:
                    kind, expected = "read list", 200
                    status, _, elapsed = session.request("GET", "/lists/%s?tab=%s" % (self.list, session.tab))
                else:
                    kind, expected = "read projects", 200
                    status, _, elapsed = session.request("GET", "/projects?tab=%s" % session.tab)
                self.latencies[kind].append(elapsed)
                if status != expected:
                    self.errors.append("%s answered %d" % (kind, status))
                elif kind == "write":
                    self.acknowledged.append(title)
                    in_list += 1
        except (Failure, RuntimeError, OSError, http.client.HTTPException, AttributeError) as error:
            self.errors.append("user %d: %s" % (self.number, error))
        finally:
            self.list = None
            session.close()


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the opencoredata-demo binary (default: the newest build)")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--write-share", type=float, default=0.25, help="the share of requests that add an item")
    parser.add_argument("--list-size", type=int, default=100, help="items a user adds to a list before starting another")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()

    server = DemoServer(find_binary(arguments.binary)).start()
    try:
        deadline = time.monotonic() + arguments.seconds
        users = [User(n, server.port, deadline, arguments.write_share, arguments.list_size, arguments.seed * 1000 + n) for n in range(1, arguments.users + 1)]
        started = time.monotonic()
        for user in users:
            user.start()
        for user in users:
            user.join(arguments.seconds + 120)
        elapsed = time.monotonic() - started
        status = server.stop()
        found = {row[0] for row in server.query("SELECT ZTITLE FROM ZITEM WHERE ZTITLE LIKE ?", (TITLE_PREFIX + "%",))}
    finally:
        server.stop()
        server.folder.cleanup()

    latencies = {kind: [v for user in users for v in user.latencies[kind]] for kind in users[0].latencies}
    every = [v for values in latencies.values() for v in values]
    acknowledged = [title for user in users for title in user.acknowledged]
    missing = [title for title in acknowledged if title not in found]
    unacknowledged = found - set(acknowledged)
    errors = [error for user in users for error in user.errors]
    if status != 0:
        errors.insert(0, "the server exited with %s (its standard error follows the report)" % status)
        print("".join(server.errors), file=sys.stderr)
    report = {
        "seconds": round(elapsed, 1),
        "users": arguments.users,
        "requests": len(every),
        "requests_per_second": round(len(every) / elapsed, 1),
        "p50_ms": round(percentile(every, 0.50) * 1000, 1),
        "p99_ms": round(percentile(every, 0.99) * 1000, 1),
        "by_kind": {
            kind: {"requests": len(values), "p50_ms": round(percentile(values, 0.50) * 1000, 1), "p99_ms": round(percentile(values, 0.99) * 1000, 1)}
            for kind, values in latencies.items()
        },
        "errors": len(errors),
        "first_errors": errors[:5],
        "writes_acknowledged": len(acknowledged),
        "writes_in_store": len(found),
        "writes_missing": len(missing),
        "live_events": sum(user.events for user in users),
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        print("%(requests)d requests in %(seconds)s s by %(users)d users: %(requests_per_second)s requests/s, p50 %(p50_ms)s ms, p99 %(p99_ms)s ms" % report)
        for kind, figures in report["by_kind"].items():
            print("  %-14s %6d requests, p50 %6.1f ms, p99 %6.1f ms" % (kind, figures["requests"], figures["p50_ms"], figures["p99_ms"]))
        print("errors: %(errors)d; writes acknowledged %(writes_acknowledged)d, in the store %(writes_in_store)d, missing %(writes_missing)d; live events received %(live_events)d" % report)
        for error in report["first_errors"]:
            print("  " + error)
    return 1 if errors or missing or unacknowledged or (arguments.write_share > 0 and not acknowledged) else 0


if __name__ == "__main__":
    sys.exit(main())
