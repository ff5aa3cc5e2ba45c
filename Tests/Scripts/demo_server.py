"""Starts `opencoredata-demo serve` on a store of its own, as a user would, for the browser
and load tests: a free port on 127.0.0.1, the URL read from what it prints, SIGTERM to stop
(which saves), the command line on the same store for changes from another process, the
store read with Python's own sqlite3, and a browser session as a script sends its requests."""

import http.client
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def find_binary(explicit=None):
    """The demo binary: `explicit`, `$OCD_DEMO`, or the newest of the package's builds."""
    for candidate in (explicit, os.environ.get("OCD_DEMO")):
        if candidate:
            return str(Path(candidate).resolve())
    built = [p for p in ROOT.glob(".build*/*/opencoredata-demo") if p.is_file() and os.access(p, os.X_OK)]
    built += [p for p in ROOT.glob(".build*/opencoredata-demo") if p.is_file() and os.access(p, os.X_OK)]
    if not built:
        sys.exit("opencoredata-demo is not built: run `swift build` first, or pass --binary.")
    return str(max(built, key=lambda p: p.stat().st_mtime))


class DemoServer:
    """One `opencoredata-demo serve` process and its store, in a temporary folder unless a
    store path is given."""

    def __init__(self, binary, store=None):
        self.binary = binary
        self.folder = tempfile.TemporaryDirectory(prefix="ocd-demo-")
        self.store = store or os.path.join(self.folder.name, "Demo.sqlite")
        self.environment = dict(os.environ, XDG_DATA_HOME=os.path.join(self.folder.name, "data"))
        self.process = None
        self.url = None
        self.output = []
        self.errors = []

    def start(self, timeout=60, port=0):
        """Starts the server on `port` (0: a free one) and waits for the URL it prints."""
        self.url = None
        self.process = subprocess.Popen(
            [self.binary, "serve", "--store", self.store, "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.environment,
        )
        threading.Thread(target=self._collect, args=(self.process.stderr, self.errors), daemon=True).start()
        deadline = time.monotonic() + timeout
        for line in self.process.stdout:
            self.output.append(line)
            found = re.search(r"Serving on (http://\S+)", line)
            if found:
                self.url = found.group(1)
                break
            if time.monotonic() > deadline:
                break
        if not self.url:
            self.process.kill()
            raise RuntimeError("the server did not start:\n" + "".join(self.output + self.errors))
        threading.Thread(target=self._collect, args=(self.process.stdout, self.output), daemon=True).start()
        return self

    @staticmethod
    def _collect(stream, lines):
        for line in stream:
            lines.append(line)

    @property
    def port(self):
        return int(self.url.rsplit(":", 1)[1])

    def stop(self, timeout=60):
        """Ctrl+C's path: SIGTERM, which saves every tab and exits; returns the exit status."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise RuntimeError("the server did not stop within %d s of SIGTERM" % timeout)

    def restart(self):
        """Stops the server (saving) and starts it again on the same store and port."""
        port = self.port
        self.stop()
        return self.start(port=port)

    def cli(self, *arguments):
        """Runs the command line on the same store, in another process; returns its output."""
        done = subprocess.run(
            [self.binary, *arguments, "--store", self.store],
            capture_output=True, text=True, env=self.environment, timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError("opencoredata-demo %s failed (%d): %s" % (" ".join(arguments), done.returncode, done.stderr))
        return done.stdout

    def query(self, sql, parameters=()):
        """The rows `sql` reads from the store file, opened read-only."""
        connection = sqlite3.connect("file:%s?mode=ro" % self.store, uri=True)
        try:
            return connection.execute(sql, parameters).fetchall()
        finally:
            connection.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *_):
        try:
            self.stop()
        finally:
            self.folder.cleanup()


class PageSession:
    """One browser session and tab as a script drives them: a keep-alive connection that keeps
    the session cookie the server sets, reads the tab and CSRF token from the first page, and
    sends forms with them and the `Origin` a same-site browser adds."""

    def __init__(self, port, timeout=30):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookie = self.tab = self.csrf = None

    def request(self, method, path, form=None):
        """Sends a GET, or a POST of `form`'s fields with the tab and token; returns the status,
        the body's text and the seconds it took."""
        headers = {"Host": "127.0.0.1:%d" % self.port}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = "http://127.0.0.1:%d" % self.port
            body = urllib.parse.urlencode(dict(form, tab=self.tab, csrf=self.csrf))
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        elapsed = time.perf_counter() - started
        cookie = response.getheader("Set-Cookie")
        if cookie and not self.cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, text, elapsed

    def open_lists(self):
        """Opens the root list in a new tab; returns the root list's reference."""
        status, page, _ = self.request("GET", "/lists")
        if status != 200:
            raise RuntimeError("GET /lists answered %d" % status)
        self.tab = re.search(r'data-tab="([^"]+)"', page).group(1)
        self.csrf = re.search(r'data-csrf="([^"]+)"', page).group(1)
        return re.search(r'action="/lists/(\d+)/add"', page).group(1)

    def close(self):
        self.connection.close()
