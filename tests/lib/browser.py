"""A real headless browser for tests, with the Python standard library only: Chromium driven
through the Chrome DevTools Protocol over --remote-debugging-pipe (the browser reads
NUL-terminated JSON commands on fd 3 and writes replies and events on fd 4).

    with Browser() as b:                 # raises Unavailable when there is no chromium
        page = b.load("/abs/path/page.html", screenshot="out.png")
        page.console      # console messages, page errors and CSP reports of level error
        page.requests     # URLs the page asked for, besides itself
        b.count("svg rect.bar")          # elements matching a CSS selector in the loaded DOM
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

WIDTH, HEIGHT = 1280, 2000


class Unavailable(Exception):
    """No browser to test with: the reason, for a TAP skip."""


class BrowserError(Exception):
    pass


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    def __init__(self, url):
        self.url = url
        self.console = []      # (level, text) of errors and warnings
        self.requests = []     # URLs requested other than the page itself
        self.failed = []       # requests that failed (blocked, refused)


class Browser:
    def __init__(self, timeout=30):
        self.path = find_chromium()
        if not self.path:
            raise Unavailable("chromium is not installed (Debian: apt-get install chromium)")
        self.timeout = timeout
        self.next_id = 0
        self.buffer = b""
        self.events = []
        self.session = None
        self.page = None

    # ---- the process and the pipe ----------------------------------------------------------

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="gpuprof-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            # Duplicated out of the way first, in case a pipe end already is fd 3 or 4.
            r, w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        argv = [self.path, "--headless", "--no-sandbox", "--disable-gpu",
                "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--mute-audio",
                "--window-size=%d,%d" % (WIDTH, HEIGHT), "about:blank"]
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         close_fds=False, preexec_fn=child_fds)
        except OSError as e:
            raise Unavailable("chromium did not start: %s" % e)
        finally:
            os.close(to_browser_r)
            os.close(from_browser_w)
        try:
            self._attach()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_browser, self.from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
        return False

    def _send(self, message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_browser, data):]

    def _receive(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in %d s" % self.timeout)
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if ready:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed the DevTools pipe (exit %s)"
                                       % self.proc.poll())
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=True, timeout=None):
        """Send a command and wait for its reply; events that arrive meanwhile are kept."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            self._event(reply)

    def wait_for(self, method, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            event = self._receive(deadline)
            self._event(event)
            if event.get("method") == method:
                return event

    # ---- what the page does ------------------------------------------------------------------

    def _event(self, event):
        method, params = event.get("method"), event.get("params", {})
        page = self.page
        if page is None or not method:
            return
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning",
                                                                            "assert"):
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in params.get("args", []))
            page.console.append((params["type"], text))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            page.console.append(("exception", details.get("text", "")))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") in ("error", "warning"):
                page.console.append((entry.get("level"), entry.get("text", "")))
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url != page.url:
                page.requests.append(url)
        elif method == "Network.loadingFailed":
            page.failed.append(params.get("errorText", ""))

    def _attach(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.call("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})

    def load(self, path, screenshot=None):
        """Open a local file; when it has loaded, optionally write a PNG of the first
        WIDTH × HEIGHT pixels. Returns the Page with what it logged and requested."""
        url = "file://" + os.path.abspath(path)
        self.page = Page(url)
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")
        # A moment for late console messages (CSP reports are queued after the load).
        self.call("Runtime.evaluate", {"expression": "1"})
        time.sleep(0.2)
        self.call("Runtime.evaluate", {"expression": "1"})
        if screenshot:
            shot = self.call("Page.captureScreenshot", {"format": "png"})
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        return self.page

    def count(self, selector):
        """Elements that match a CSS selector in the loaded page's DOM (no page script)."""
        root = self.call("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        found = self.call("DOM.querySelectorAll", {"nodeId": root, "selector": selector})
        return len(found["nodeIds"])

    def text(self, selector):
        """The text of the first element that matches, or None."""
        root = self.call("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.call("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            return None
        html = self.call("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
        return html

    def evaluate(self, expression):
        """The value of a JavaScript expression in the loaded page, evaluated by the DevTools
        protocol (the page itself runs no script): for layout, e.g. an element's scrollWidth."""
        reply = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise BrowserError("evaluate %s: %s" % (expression,
                                                    reply["exceptionDetails"].get("text")))
        return reply["result"].get("value")
