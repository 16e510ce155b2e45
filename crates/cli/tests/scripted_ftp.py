#!/usr/bin/env python3
"""A small real FTP server over a directory, with faults on demand, for
crates/cli/tests/cli/mirror.rs and client_commands.rs: the misbehaviours
of servers met in the wild (pyftpdlib closing the connection on
`MKD a<CR>b`, a transfer cut in the middle, a server that drops the
session) that our own server never shows.

    scripted_ftp.py ROOT [--close-on HEX]... [--cut NAME:BYTES]... [--drop NAME]...

Prints the port it listens on (127.0.0.1) as its first line. Faults:
  --close-on HEX   close the control connection, without a reply, on a
                   command line holding these octets (hex); every time
  --cut NAME:N     the first RETR of NAME sends N octets, closes the data
                   connection and answers 426
  --drop NAME      the first RETR of NAME closes the control connection
  --stall NAME:N   every RETR of NAME sends N octets, then nothing for 60 s
                   (a transfer to interrupt mid-way)
Every command line received is logged to stderr as `> ` + its repr.
Standard library only. Passive mode (EPSV, PASV), MLSD/LIST, REST STREAM.
"""
import os
import socket
import socketserver
import sys
import threading
import time

ROOT = os.fsencode(os.path.abspath(sys.argv[1]))
CLOSE_ON = []
CUT = {}
DROP = set()
STALL = {}
DONE = set()
LOCK = threading.Lock()
args = sys.argv[2:]
while args:
    opt, val = args[0], args[1]
    args = args[2:]
    if opt == "--close-on":
        CLOSE_ON.append(bytes.fromhex(val))
    elif opt == "--cut":
        name, n = val.rsplit(":", 1)
        CUT[os.fsencode(name)] = int(n)
    elif opt == "--drop":
        DROP.add(os.fsencode(val))
    elif opt == "--stall":
        name, n = val.rsplit(":", 1)
        STALL[os.fsencode(name)] = int(n)
    else:
        sys.exit("unknown option " + opt)


def once(kind, name):
    """True the first time (kind, name) is asked."""
    with LOCK:
        if (kind, name) in DONE:
            return False
        DONE.add((kind, name))
        return True


class Handler(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def resolve(self, arg):
        """The local path of a remote path (bytes), kept inside ROOT."""
        path = arg if arg.startswith(b"/") else self.cwd.rstrip(b"/") + b"/" + arg
        parts = []
        for p in path.split(b"/"):
            if p in (b"", b"."):
                continue
            if p == b"..":
                if parts:
                    parts.pop()
                continue
            parts.append(p)
        return os.path.join(ROOT, *parts) if parts else ROOT

    def open_data(self):
        if self.pasv is None:
            self.reply("425 Use EPSV or PASV first")
            return None
        self.pasv.settimeout(10)
        conn, _ = self.pasv.accept()
        self.pasv.close()
        self.pasv = None
        return conn

    def handle(self):
        self.cwd = b"/"
        self.pasv = None
        self.rest = 0
        self.rnfr = None
        self.reply("220 scripted_ftp ready")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            line = line.rstrip(b"\n")
            if line.endswith(b"\r"):
                line = line[:-1]
            sys.stderr.write("> %r\n" % line)
            sys.stderr.flush()
            if any(c in line for c in CLOSE_ON):
                return
            verb, _, arg = line.partition(b" ")
            arg = arg.replace(b"\r\x00", b"\r")
            verb = verb.upper().decode("ascii", "replace")
            if self.command(verb, arg) is False:
                return

    def command(self, verb, arg):
        if verb == "USER":
            self.reply("331 Password please")
        elif verb == "PASS":
            self.reply("230 Logged in")
        elif verb == "FEAT":
            self.wfile.write(b"211-Features:\r\n MLST type*;size*;modify*;\r\n UTF8\r\n"
                             b" SIZE\r\n MDTM\r\n REST STREAM\r\n EPSV\r\n211 End\r\n")
            self.wfile.flush()
        elif verb in ("OPTS", "TYPE", "NOOP", "MODE", "STRU"):
            self.reply("200 OK")
        elif verb == "SYST":
            self.reply("215 UNIX Type: L8")
        elif verb == "PWD":
            self.reply('257 "%s"' % self.cwd.decode("utf-8", "surrogateescape").replace('"', '""'))
        elif verb == "CWD":
            p = self.resolve(arg)
            if os.path.isdir(p):
                rel = os.path.relpath(p, ROOT)
                self.cwd = b"/" if rel == b"." else b"/" + rel
                self.reply("250 OK")
            else:
                self.reply("550 No such directory")
        elif verb == "EPSV" or verb == "PASV":
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(1)
            self.pasv = s
            port = s.getsockname()[1]
            if verb == "EPSV":
                self.reply("229 Entering Extended Passive Mode (|||%d|)" % port)
            else:
                self.reply("227 Entering Passive Mode (127,0,0,1,%d,%d)" % (port >> 8, port & 255))
        elif verb == "REST":
            self.rest = int(arg)
            self.reply("350 Restarting at %d" % self.rest)
        elif verb in ("MLSD", "LIST", "NLST"):
            p = self.resolve(arg) if arg and not arg.startswith(b"-") else self.resolve(b".")
            if not os.path.isdir(p):
                self.reply("550 No such directory")
                return
            self.reply("150 Listing")
            conn = self.open_data()
            if conn is None:
                return
            out = b""
            for name in sorted(os.listdir(p)):
                st = os.stat(os.path.join(p, name))
                isdir = os.path.isdir(os.path.join(p, name))
                when = time.strftime("%Y%m%d%H%M%S", time.gmtime(st.st_mtime)).encode()
                if verb == "MLSD":
                    out += b"type=%s;size=%d;modify=%s; %s\r\n" % (
                        b"dir" if isdir else b"file", st.st_size, when, name)
                else:
                    out += name + b"\r\n"
            conn.sendall(out)
            conn.close()
            self.reply("226 Done")
        elif verb == "SIZE":
            p = self.resolve(arg)
            if os.path.isfile(p):
                self.reply("213 %d" % os.path.getsize(p))
            else:
                self.reply("550 No such file")
        elif verb == "MDTM":
            p = self.resolve(arg)
            if os.path.isfile(p):
                self.reply("213 " + time.strftime("%Y%m%d%H%M%S", time.gmtime(os.stat(p).st_mtime)))
            else:
                self.reply("550 No such file")
        elif verb == "RETR":
            p = self.resolve(arg)
            rest, self.rest = self.rest, 0
            if not os.path.isfile(p):
                self.reply("550 No such file")
                return
            name = os.path.basename(p)
            if name in DROP and once("drop", name):
                return False
            self.reply("150 Sending")
            conn = self.open_data()
            if conn is None:
                return
            with open(p, "rb") as f:
                f.seek(rest)
                data = f.read()
            if name in STALL:
                conn.sendall(data[: STALL[name]])
                time.sleep(60)
                conn.close()
                return
            if name in CUT and once("cut", name):
                conn.sendall(data[: CUT[name]])
                conn.close()
                self.reply("426 Connection closed; transfer aborted")
                return
            conn.sendall(data)
            conn.close()
            self.reply("226 Done")
        elif verb in ("STOR", "APPE"):
            p = self.resolve(arg)
            rest, self.rest = self.rest, 0
            self.reply("150 Receiving")
            conn = self.open_data()
            if conn is None:
                return
            mode = "ab" if verb == "APPE" else ("r+b" if rest and os.path.exists(p) else "wb")
            with open(p, mode) as f:
                if mode == "r+b":
                    f.seek(rest)
                    f.truncate()
                while True:
                    b = conn.recv(65536)
                    if not b:
                        break
                    f.write(b)
            conn.close()
            self.reply("226 Done")
        elif verb == "MKD":
            p = self.resolve(arg)
            try:
                os.mkdir(p)
                self.reply('257 "%s" created' % arg.decode("utf-8", "replace").replace('"', '""'))
            except OSError as e:
                self.reply("550 %s" % e.strerror)
        elif verb in ("RMD", "DELE"):
            p = self.resolve(arg)
            try:
                (os.rmdir if verb == "RMD" else os.remove)(p)
                self.reply("250 Removed")
            except OSError as e:
                self.reply("550 %s" % e.strerror)
        elif verb == "RNFR":
            self.rnfr = self.resolve(arg)
            self.reply("350 Ready")
        elif verb == "RNTO":
            try:
                os.rename(self.rnfr, self.resolve(arg))
                self.reply("250 Renamed")
            except (OSError, TypeError):
                self.reply("550 Cannot rename")
        elif verb == "QUIT":
            self.reply("221 Bye")
            return False
        else:
            self.reply("502 Not implemented")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
