#!/usr/bin/env python3
"""mc_load.py SOCKET: a fixed memcached workload over a Unix socket, from
four client threads (sets of known sizes, gets, deletes), then
asks the server to shut down. Deterministic in what it stores."""
import socket, sys, threading

class Conn:
    """Writes at once; reads lines through a buffer (an unbuffered socket
    file reads a line one byte, one system call, at a time: the client then
    spent more time in the kernel than the server under Valgrind)."""
    def __init__(self, s):
        self.s, self.r = s, s.makefile("rb")
    def write(self, data):
        self.s.sendall(data)
    def readline(self):
        return self.r.readline()

def conn(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return Conn(s), s

def expect(f, prefix):
    line = f.readline()
    if not line.startswith(prefix):
        raise SystemExit("memcached answered %r, expected %r" % (line, prefix))
    return line

def worker(path, w, errors):
    try:
        f, s = conn(path)
        for i in range(1000):
            key = b"w%d-k%d" % (w, i)
            val = bytes([97 + (i % 26)]) * (100 + (i * 37) % 3000)
            f.write(b"set %s 0 0 %d\r\n%s\r\n" % (key, len(val), val))
            expect(f, b"STORED")
            if i % 3 == 0:
                f.write(b"get %s\r\n" % key)
                expect(f, b"VALUE")
                f.readline(); expect(f, b"END")
            if i % 5 == 0:
                f.write(b"delete %s\r\n" % key)
                expect(f, b"DELETED")
        s.close()
    except BaseException as e:
        errors.append(repr(e))

path = sys.argv[1]
errors = []
threads = [threading.Thread(target=worker, args=(path, w, errors)) for w in range(4)]
for t in threads: t.start()
for t in threads: t.join()
if errors:
    raise SystemExit("client errors: %s" % errors[0])
f, s = conn(path)
f.write(b"shutdown\r\n")
s.close()
