#![allow(clippy::unwrap_used)]
//! Prints every reading of names with their scores (a tuning aid):
//! `explain LABEL TEXT...` encodes each text in LABEL; `explain hex HH...`
//! takes each argument as hex bytes.
fn main() {
    let mut args = std::env::args().skip(1);
    let label = args.next().unwrap();
    for text in args {
        let b = if label == "hex" {
            (0..text.len() / 2)
                .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        } else {
            babelftp_i18n::Charset::for_label(&label)
                .unwrap()
                .from_utf8(&text)
                .unwrap()
        };
        println!("== {text}\n{}", babelftp_i18n::detect::explain(&b));
    }
}
