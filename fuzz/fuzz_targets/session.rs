#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| babelftp_session::testing::fuzz_session(data));
