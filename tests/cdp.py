#!/usr/bin/env python3
"""tests/cdp.py HTMLFILE: drives the HTML report in headless Chromium over
the DevTools protocol (a minimal WebSocket client on the standard library)
as a user would, and prints one line per observation for t625 to compare:

  focus <tag>                        what the Tab-reachable chart is
  key <Key> <title>                  the selected snapshot's title after a key
  click <left|right> <title> <hash>  after a click near the chart's edges
  hover <readout text>               the read-out under the mouse
  print <controls display> <collapsed tree display>   (at the peak, print media)
  errors <n>                         exceptions and console messages seen
"""
import base64
import contextlib
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WS:
    def __init__(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.s = socket.create_connection((m.group(1), int(m.group(2))), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n" % (m.group(3), m.group(1), m.group(2), key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.s.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit("cdp: websocket handshake failed: %r" % head)
        self.n = 0
        self.events = []

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                raise SystemExit("cdp: connection closed")
            b += c
        return b

    def recv(self):
        data = b""
        while True:
            h = self._read(2)
            ln = h[1] & 0x7F
            if ln == 126:
                ln = struct.unpack(">H", self._read(2))[0]
            elif ln == 127:
                ln = struct.unpack(">Q", self._read(8))[0]
            data += self._read(ln)
            if h[0] & 0x80:
                return json.loads(data.decode())

    def call(self, method, **params):
        self.n += 1
        msg = json.dumps({"id": self.n, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        hdr = bytes([0x81])
        if len(msg) < 126:
            hdr += bytes([0x80 | len(msg)])
        elif len(msg) < 65536:
            hdr += bytes([0x80 | 126]) + struct.pack(">H", len(msg))
        else:
            hdr += bytes([0x80 | 127]) + struct.pack(">Q", len(msg))
        self.s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(msg)))
        while True:
            r = self.recv()
            if r.get("id") == self.n:
                if "error" in r:
                    raise SystemExit("cdp: %s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        return r.get("result", {}).get("value")


@contextlib.contextmanager
def page(path):
    """Headless Chromium showing the file at path, once the report has
    drawn (its data-drawn-ms attribute): yields the page's WS client; the
    browser goes at the end."""
    prof = tempfile.mkdtemp(prefix="cdp-chr.")
    chrome = subprocess.Popen(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--user-data-dir=" + prof, "--remote-debugging-port=0", "--window-size=1200,900",
         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in chrome.stderr:
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = m.group(1)
                break
        if not port:
            raise SystemExit("cdp: chromium printed no DevTools address")
        pages = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        ws = WS([p for p in pages if p["type"] == "page"][0]["webSocketDebuggerUrl"])
        ws.call("Runtime.enable")
        ws.call("Page.enable")
        ws.call("Page.navigate", url="file://" + os.path.abspath(path))
        for _ in range(600):
            if ws.js("document.documentElement.getAttribute('data-drawn-ms')"):
                break
            time.sleep(0.1)
        yield ws
    finally:
        chrome.kill()
        chrome.wait()


def errors(ws):
    """The exceptions and console messages seen, each on stderr; their count."""
    ws.js("0")
    bad = [e for e in ws.events if e.get("method") in ("Runtime.exceptionThrown", "Runtime.consoleAPICalled")]
    for e in bad:
        print("event", json.dumps(e)[:300], file=sys.stderr)
    return len(bad)


def main():
    with page(sys.argv[1]) as ws:
        title = "document.getElementById('snapshot-title').textContent"
        # Tab reaches the chart (the first focusable element on the page).
        ws.call("Input.dispatchKeyEvent", type="keyDown", key="Tab", code="Tab", windowsVirtualKeyCode=9)
        ws.call("Input.dispatchKeyEvent", type="keyUp", key="Tab", code="Tab", windowsVirtualKeyCode=9)
        print("focus", ws.js("document.activeElement.tagName + '.' + document.activeElement.getAttribute('class')"))
        for key, code in (("ArrowRight", 39), ("ArrowLeft", 37), ("ArrowLeft", 37), ("End", 35), ("Home", 36)):
            ws.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=key, windowsVirtualKeyCode=code)
            ws.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=key, windowsVirtualKeyCode=code)
            print("key", key, ws.js(title))
        ws.js("document.querySelector('svg.timeline').scrollIntoView()")
        box = ws.js("(function(){var r=document.querySelector('svg.timeline').getBoundingClientRect();"
                    "return [r.left, r.top, r.width, r.height];})()")
        y = box[1] + box[3] / 2
        for side, fx in (("right", 0.995), ("left", 0.079)):
            x = box[0] + box[2] * fx
            ws.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
            ws.call("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
            ws.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)
            print("click", side, ws.js(title), ws.js("location.hash"))
        ws.call("Input.dispatchMouseEvent", type="mouseMoved", x=box[0] + box[2] * 0.5, y=y)
        print("hover", ws.js("(function(){var r=document.querySelector('.readout');"
                             "return r.hidden ? 'hidden' : r.textContent;})()"))
        ws.js("document.querySelectorAll('.controls button')[2].click()")   # the peak
        ws.call("Emulation.setEmulatedMedia", media="print")
        print("print", ws.js("getComputedStyle(document.querySelector('.controls')).display"),
              ws.js("(function(){var u=document.querySelector('ul.tree ul[hidden]');"
                    "return u ? getComputedStyle(u).display : 'none-collapsed';})()"))
        print("errors", errors(ws))

if __name__ == "__main__":
    main()
