//! TYPE A line ends (RFC 959 3.1.1.1): on the wire an end of line is CR LF
//! (the NVT form), locally it is LF. Both directions work chunk by chunk,
//! so a CR LF split across two reads is still one end of line.

/// LF → CR LF, appended to `out`.
pub fn lf_to_crlf(chunk: &[u8], out: &mut Vec<u8>) {
    for &b in chunk {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
}

/// CR LF → LF across chunks; a CR not followed by LF is kept.
#[derive(Debug, Default)]
pub struct CrlfToLf {
    held_cr: bool,
}

impl CrlfToLf {
    /// Converts one chunk, appending to `out`. A CR at the chunk's end
    /// waits for the next chunk.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        for &b in chunk {
            if std::mem::take(&mut self.held_cr) && b != b'\n' {
                out.push(b'\r');
            }
            if b == b'\r' {
                self.held_cr = true;
            } else {
                out.push(b);
            }
        }
    }

    /// The end of the data: a CR still held is written out.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if std::mem::take(&mut self.held_cr) {
            out.push(b'\r');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways_and_across_chunks() {
        let mut wire = Vec::new();
        lf_to_crlf(b"a\nb\n", &mut wire);
        assert_eq!(wire, b"a\r\nb\r\n");
        let mut c = CrlfToLf::default();
        let mut out = Vec::new();
        c.push(b"a\r", &mut out);
        c.push(b"\nb\rc\r", &mut out);
        assert_eq!(out, b"a\nb\rc");
        c.finish(&mut out);
        assert_eq!(out, b"a\nb\rc\r");
    }
}
