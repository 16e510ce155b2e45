#![allow(clippy::unwrap_used)]
//! Tuning aid: `explain_dir LABEL:TEXT...` decides the names as one
//! listing and prints the directory's charsets and each decision.
mod support;

fn main() {
    let names: Vec<Vec<u8>> = std::env::args()
        .skip(1)
        .map(|a| {
            let (l, t) = a.split_once(':').unwrap();
            if l == "raw" {
                // `raw:%D8%B9`: the bytes themselves
                let mut out = Vec::new();
                let mut b = t.bytes();
                while let Some(c) = b.next() {
                    if c == b'%' {
                        let h: String = b.by_ref().take(2).map(char::from).collect();
                        out.push(u8::from_str_radix(&h, 16).unwrap());
                    } else {
                        out.push(c);
                    }
                }
                return out;
            }
            babelftp_i18n::Charset::for_label(l).unwrap().from_utf8(t).unwrap()
        })
        .collect();
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    println!("{}", babelftp_i18n::detect::explain_listing(&refs));
    for (n, d) in refs.iter().zip(support::first_visit(&refs, false)) {
        println!("{} {d:?}", babelftp_i18n::detect::shown(n, &d));
    }
}
