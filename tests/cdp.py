"""A headless Chromium driven over the Chrome DevTools Protocol, for tests that watch a page
change while it is open (the live page of `ledger serve`).

    with Chromium(profile_dir) as browser:
        tab = browser.open("http://127.0.0.1:8000/games/g1", width=1400, height=1800)
        tab.wait_for("document.body.dataset.seq === '12'")
        tab.screenshot(path)

The protocol runs over a pipe (`--remote-debugging-pipe`: the browser reads commands on its file
descriptor 3 and answers on 4, each message JSON ended by a NUL byte), so no port and no
websocket library are needed. Chromium's path and flags are tests/browser_support.py's.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.browser_support import BROWSER, FLAGS


TRAMPOLINE = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
              "os.execv(sys.argv[3], sys.argv[3:])")


class BrowserError(RuntimeError):
    """The browser answered a command with an error, died, or a wait ran out."""


class Chromium:
    """One headless browser process and the reader of its answers."""

    def __init__(self, profile: Path, timeout: float = 60):
        assert BROWSER is not None
        self.timeout = timeout
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the browser's ends moved to descriptors above 9, so that putting them on 3 and 4 in
        # the child never overwrites the other one
        to_browser_r, from_browser_w = (_high(fd) for fd in (to_browser_r, from_browser_w))
        # a virtual time budget would run the page's clock ahead of the server's events
        flags = [f for f in FLAGS if not f.startswith("--virtual-time-budget")]
        # a small Python puts the two pipe ends on the descriptors the browser expects (3 and
        # 4), then becomes the browser (dash's redirections take single-digit descriptors only)
        command = [sys.executable, "-c", TRAMPOLINE, str(to_browser_r), str(from_browser_w),
                   BROWSER, *flags, "--remote-debugging-pipe", f"--user-data-dir={profile}",
                   "about:blank"]
        self.proc = subprocess.Popen(command, pass_fds=(to_browser_r, from_browser_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._closed = True
                    self._cond.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._cond:
                        self._answers[message["id"]] = message
                        self._cond.notify_all()

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and wait for its answer (its `result`); BrowserError on an error."""
        with self._cond:
            self._next_id += 1
            ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while ident not in self._answers:
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    raise BrowserError(f"no answer to {method} ({'the browser exited' if self._closed else 'timed out'})")
                self._cond.wait(left)
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def open(self, url: str, *, width: int = 1400, height: int = 1800) -> "Tab":
        """A new tab of `width` x `height` CSS pixels showing `url`."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, session)
        tab.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})
        tab.send("Page.enable")
        tab.send("Page.navigate", {"url": url})
        return tab

    def close(self) -> str:
        """End the browser; what it wrote on stderr."""
        try:
            self.send("Browser.close")
        except BrowserError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        os.close(self._to_browser)
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        os.close(self._from_browser)
        return err

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _high(fd: int) -> int:
    """`fd` moved to a descriptor number of 10 or more (the old one closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Tab:
    """One page of the browser (a target it is attached to)."""

    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')} "
                               f"{result['exceptionDetails'].get('exception', {}).get('description', '')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30, every: float = 0.1) -> Any:
        """Wait until the expression is truthy in the page; its value. BrowserError on timeout
        (saying what the expression last gave)."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except BrowserError as exc:        # the page is still loading
                value = exc
            if value and not isinstance(value, BrowserError):
                return value
            time.sleep(every)
        raise BrowserError(f"waited {timeout} s for {expression!r}; last: {value!r}")

    def screenshot(self, path: Path, top: int = 0, height: int | None = None) -> Path:
        """A PNG of the whole page (not only the window), or of `height` CSS pixels of it
        from `top`."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if height is not None:
            width = self.evaluate("document.documentElement.scrollWidth")
            params["clip"] = {"x": 0, "y": top, "width": width, "height": height, "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path
