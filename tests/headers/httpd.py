#!/usr/bin/env python3
"""A loopback HTTP server for the fetcher's tests: prints its port, serves until killed.
/ok.h 200, /missing 404, /redir-http 302 to /ok.h, /redir-ftp 302 to ftp://, /slow (3 s
before the body), /big (a body past any small cap, with Content-Length), /big-chunked
(no length), /gz.h (Content-Encoding: gzip), /redir-file 302 to file:///etc/passwd,
/redir-file-ok 302 to file:// of the fixture, /redir-abs 302 to http://127.0.0.1:PORT/ok.h,
/redir-creds 302 to http://user:hunter2@127.0.0.1:PORT/auth.h, /auth.h (the fixture, for
Basic user:hunter2 only, else 401), /lint/NAME (tests/headers/lint/NAME)."""
import base64, gzip, http.server, os, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
LINT = os.listdir(os.path.join(HERE, "lint"))
FIXTURE_PATH = os.path.join(HERE, "diff", "clone_v0.h")
FIXTURE = open(FIXTURE_PATH, "rb").read()

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def body(self, code, data, extra=()):
        self.send_response(code)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        p = self.path
        if p == "/ok.h":
            self.body(200, FIXTURE)
        elif p == "/redir-http":
            self.body(302, b"", [("Location", "/ok.h")])
        elif p == "/redir-ftp":
            self.body(302, b"", [("Location", "ftp://127.0.0.1/ok.h")])
        elif p == "/redir-file":
            self.body(302, b"", [("Location", "file:///etc/passwd")])
        elif p == "/redir-file-ok":
            self.body(302, b"", [("Location", "file://" + FIXTURE_PATH)])
        elif p == "/redir-abs":
            self.body(302, b"", [("Location", "http://127.0.0.1:%d/ok.h" % PORT)])
        elif p == "/redir-creds":
            self.body(302, b"", [("Location", "http://user:hunter2@127.0.0.1:%d/auth.h" % PORT)])
        elif p.startswith("/lint/") and os.path.basename(p) in LINT:
            self.body(200, open(os.path.join(HERE, "lint", os.path.basename(p)), "rb").read())
        elif p == "/auth.h":
            want = "Basic " + base64.b64encode(b"user:hunter2").decode()
            if self.headers.get("Authorization") == want:
                self.body(200, FIXTURE)
            else:
                self.body(401, b"who are you\n", [("WWW-Authenticate", 'Basic realm="x"')])
        elif p == "/slow":
            time.sleep(3)
            self.body(200, FIXTURE)
        elif p == "/big":
            self.body(200, b"/* x */\n" * 4096)
        elif p == "/big-chunked":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            for _ in range(64):
                self.wfile.write(b"/* x */\n" * 512)
            self.close_connection = True
        elif p == "/gz.h":
            self.body(200, gzip.compress(FIXTURE), [("Content-Encoding", "gzip")])
        else:
            self.body(404, b"not found\n")

s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
PORT = s.server_address[1]
print(PORT, flush=True)
s.serve_forever()
