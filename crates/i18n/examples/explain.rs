#![allow(clippy::unwrap_used)]
fn main() {
    let mut args = std::env::args().skip(1);
    let label = args.next().unwrap();
    for text in args {
        let b = babelftp_i18n::Charset::for_label(&label)
            .unwrap()
            .from_utf8(&text)
            .unwrap();
        println!("== {text}\n{}", babelftp_i18n::detect::explain(&b));
    }
}
