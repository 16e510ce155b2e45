//! The floor under `bench/logins.py`: what one login costs a server that
//! does nothing but the system calls a login needs.
//!
//! One thread, blocking sockets, one connection at a time: accept, the
//! greeting, a reply to each of USER, PASS and QUIT, shutdown, close. No
//! event loop, no timers, no logging, no session state: every CPU
//! microsecond it spends per login is the kernel's (TCP on loopback,
//! context switches), which any FTP server pays too.
//!
//! `cargo run --release -p babelftp-server --example login_floor -- PORT`
//! (`FLOOR=1 python3 bench/logins.py` builds and measures it beside
//! babelftp).
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};

fn main() {
    let Some(port) = std::env::args().nth(1).and_then(|p| p.parse::<u16>().ok()) else {
        eprintln!("usage: login_floor PORT");
        std::process::exit(2);
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("login_floor: 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    };
    for stream in listener.incoming().flatten() {
        let _ = serve(stream);
    }
}

fn serve(mut s: TcpStream) -> std::io::Result<()> {
    s.set_nodelay(true)?;
    s.write_all(b"220 floor\r\n")?;
    let mut buf = [0u8; 512];
    let mut have = 0;
    loop {
        let n = s.read(&mut buf[have..])?;
        if n == 0 {
            return Ok(());
        }
        have += n;
        // Every complete line gets its reply; a partial one waits.
        while let Some(end) = buf[..have].iter().position(|&b| b == b'\n') {
            let quit = buf[..end].starts_with(b"QUIT");
            let reply: &[u8] = match &buf[..4.min(end)] {
                b"USER" => b"331 password\r\n",
                b"PASS" => b"230 logged in\r\n",
                b"QUIT" => b"221 bye\r\n",
                _ => b"500 unknown\r\n",
            };
            s.write_all(reply)?;
            if quit {
                return s.shutdown(Shutdown::Both);
            }
            buf.copy_within(end + 1..have, 0);
            have -= end + 1;
        }
        if have == buf.len() {
            return Ok(());
        }
    }
}
