#!/usr/bin/env python3
"""A scripted FTP server as old servers are: no FEAT UTF8, no MLST, names
sent as the bytes on disk (whatever charset they were written in).

Used by crates/cli/tests/cli/legacy_names.rs to show the client real legacy
listings over real sockets. It serves the directory given as its first
argument, one session at a time, with USER, PASS, FEAT, SYST, TYPE, PWD,
CWD, EPSV, PASV, LIST, NLST, SIZE, RETR and QUIT; anything else is 502.
It prints the port it listens on (127.0.0.1) on its first line.
"""

import os
import socket
import stat
import sys
import time


def resolve(root, cwd, arg):
    """The real path and the virtual path of `arg` (bytes) below `root`."""
    path = arg if arg.startswith(b"/") else cwd.rstrip(b"/") + b"/" + arg
    parts = []
    for c in path.split(b"/"):
        if c in (b"", b"."):
            continue
        if c == b"..":
            if parts:
                parts.pop()
            continue
        parts.append(c)
    virtual = b"/" + b"/".join(parts)
    return os.path.join(root, *parts) if parts else root, virtual


def ls_line(real, name):
    st = os.stat(os.path.join(real, name))
    kind = b"d" if stat.S_ISDIR(st.st_mode) else b"-"
    when = time.strftime("%b %d %H:%M", time.gmtime(st.st_mtime)).encode()
    return b"%srw-r--r--   1 ftp      ftp      %10d %s %s\r\n" % (kind, st.st_size, when, name)


def session(root, conn):
    rfile = conn.makefile("rb")

    def send(text):
        conn.sendall(text + b"\r\n")

    send(b"220 legacy scripted server ready")
    cwd = b"/"
    listener = None
    while True:
        line = rfile.readline(4096)
        if not line:
            return
        line = line.rstrip(b"\r\n")
        verb, _, arg = line.partition(b" ")
        verb = verb.upper()
        if verb == b"USER":
            send(b"331 password please")
        elif verb == b"PASS":
            send(b"230 logged in")
        elif verb == b"FEAT":
            send(b"211-Features:")
            send(b" SIZE")
            send(b" EPSV")
            send(b"211 End")
        elif verb == b"SYST":
            send(b"215 UNIX Type: L8")
        elif verb == b"TYPE":
            send(b"200 type set")
        elif verb == b"PWD":
            send(b'257 "' + cwd.replace(b'"', b'""') + b'" is the current directory')
        elif verb == b"CWD":
            real, virtual = resolve(root, cwd, arg)
            if os.path.isdir(real):
                cwd = virtual
                send(b"250 directory changed")
            else:
                send(b"550 no such directory")
        elif verb in (b"EPSV", b"PASV"):
            if listener:
                listener.close()
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            port = listener.getsockname()[1]
            if verb == b"EPSV":
                send(b"229 Entering Extended Passive Mode (|||%d|)" % port)
            else:
                send(b"227 Entering Passive Mode (127,0,0,1,%d,%d)" % (port >> 8, port & 255))
        elif verb in (b"LIST", b"NLST", b"RETR"):
            if listener is None:
                send(b"425 use PASV or EPSV first")
                continue
            target = arg if arg and not arg.startswith(b"-") else b"."
            real, _ = resolve(root, cwd, target)
            if verb == b"RETR" and not os.path.isfile(real):
                send(b"550 no such file")
                continue
            if verb != b"RETR" and not os.path.isdir(real):
                send(b"550 no such directory")
                continue
            data, _ = listener.accept()
            listener.close()
            listener = None
            send(b"150 opening data connection")
            if verb == b"RETR":
                with open(real, "rb") as f:
                    data.sendall(f.read())
            else:
                for name in sorted(os.listdir(real)):
                    data.sendall(ls_line(real, name) if verb == b"LIST" else name + b"\r\n")
            data.close()
            send(b"226 transfer complete")
        elif verb == b"SIZE":
            real, _ = resolve(root, cwd, arg)
            if os.path.isfile(real):
                send(b"213 %d" % os.path.getsize(real))
            else:
                send(b"550 no such file")
        elif verb == b"QUIT":
            send(b"221 bye")
            return
        else:
            send(b"502 command not implemented")


def main():
    root = os.fsencode(sys.argv[1])
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    print(srv.getsockname()[1], flush=True)
    while True:
        conn, _ = srv.accept()
        try:
            session(root, conn)
        except OSError:
            pass
        finally:
            conn.close()


if __name__ == "__main__":
    main()
