// An FTPS client on github.com/jlaffaye/ftp (Debian's
// golang-github-jlaffaye-ftp-dev), built by crates/server/tests/server/ftps.rs
// in GOPATH mode: two control connections sharing one TLS configuration (and
// so one session cache, as rclone does), each file stored through one and
// read back through the other.
//
// Usage: ftps_client ADDR USER PASS 1.2|1.3 cache|nocache FILES
// Prints "ok NAME" per file and "done"; on an error, prints "error: ..."
// and exits 3.
package main

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/jlaffaye/ftp"
)

func fail(what string, err error) {
	fmt.Printf("error: %s: %v\n", what, err)
	os.Exit(3)
}

func main() {
	if len(os.Args) != 7 {
		fmt.Println("usage: ftps_client ADDR USER PASS 1.2|1.3 cache|nocache FILES")
		os.Exit(2)
	}
	addr, user, pass := os.Args[1], os.Args[2], os.Args[3]
	// ServerName names the cache entry: the same for the control and the
	// data connections (rclone sets it to the host too).
	cfg := &tls.Config{InsecureSkipVerify: true, ServerName: "127.0.0.1"}
	if os.Args[4] == "1.2" {
		cfg.MaxVersion = tls.VersionTLS12
	}
	if os.Args[5] == "cache" {
		cfg.ClientSessionCache = tls.NewLRUClientSessionCache(32)
	}
	n, err := strconv.Atoi(os.Args[6])
	if err != nil {
		fail("FILES", err)
	}
	var conns [2]*ftp.ServerConn
	for i := range conns {
		c, err := ftp.Dial(addr, ftp.DialWithExplicitTLS(cfg), ftp.DialWithTimeout(20*time.Second))
		if err != nil {
			fail("dial", err)
		}
		if err := c.Login(user, pass); err != nil {
			fail("login", err)
		}
		conns[i] = c
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("go-%d.bin", i)
		data := bytes.Repeat([]byte(fmt.Sprintf("file %d;", i)), 20000+i)
		if err := conns[i%2].Stor(name, bytes.NewReader(data)); err != nil {
			fail("STOR "+name, err)
		}
		r, err := conns[(i+1)%2].Retr(name)
		if err != nil {
			fail("RETR "+name, err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			fail("reading "+name, err)
		}
		if err := r.Close(); err != nil {
			fail("closing "+name, err)
		}
		if !bytes.Equal(got, data) {
			fail(name, fmt.Errorf("%d bytes back, %d sent", len(got), len(data)))
		}
		fmt.Printf("ok %s\n", name)
	}
	entries, err := conns[0].List("/")
	if err != nil {
		fail("LIST", err)
	}
	fmt.Printf("listed %d\n", len(entries))
	for _, c := range conns {
		if err := c.Quit(); err != nil {
			fail("QUIT", err)
		}
	}
	fmt.Println("done")
}
