#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| babelftp_proto::utf8::fuzz_validate(data));
