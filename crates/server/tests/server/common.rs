//! Shared helpers of the socket tests: they live in the
//! `babelftp-test-support` crate (crates/test-support), with the client
//! tests' and the peer servers'.
#![allow(unused_imports)]

pub use babelftp_test_support::*;
