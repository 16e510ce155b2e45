#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| babelftp_proto::command::fuzz_control(data));
