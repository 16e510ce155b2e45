#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| babelftp_proto::url::fuzz_url(data));
